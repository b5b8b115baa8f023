"""PicoButtons: ButtonSeen from the board becomes the clock's ButtonPress, on host time."""

from __future__ import annotations

import pytest

from companion.clock.presses import ButtonPress
from companion.devices.cardreader import picowire as wire
from companion.devices.cardreader.events import ButtonSeen, NoTag, TagSeen
from companion.devices.cardreader.pico import DeviceClock
from companion.devices.cardreader.pico_buttons import PicoButtons
from tests.pico.link import MS, Link

S = 1_000 * MS


def synced_clock(offset_ns: int = 7 * S) -> DeviceClock:
    """A clock that has seen a frame arrive 1 ms after its stamp: host = device + offset."""
    clock = DeviceClock()
    clock.observe(1_000_000, 1 * S + offset_ns + 1 * MS)
    return clock


def seen(button: int, pressed: bool, device_ms: float, arrival_ns: int) -> ButtonSeen:
    return ButtonSeen(button, pressed, int(device_ms * 1000), arrival_ns)


def test_players_and_the_pause_button() -> None:
    presses: list[ButtonPress] = []
    buttons = PicoButtons(2, pause=3, clock=synced_clock(), on_press=presses.append)
    buttons.observe(seen(0, True, 2000, 100 * S))
    buttons.observe(seen(1, True, 3000, 100 * S))
    buttons.observe(seen(3, True, 4000, 100 * S))
    buttons.observe(seen(2, True, 5000, 100 * S))  # neither a player's nor pause
    assert presses == [
        ButtonPress("player", 0, 9 * S + 1 * MS),
        ButtonPress("player", 1, 10 * S + 1 * MS),
        ButtonPress("pause", None, 11 * S + 1 * MS),
    ]
    assert buttons.stats.unmapped == 1 and buttons.stats.presses == 3


def test_releases_and_other_observations_are_not_presses() -> None:
    buttons = PicoButtons(2, clock=synced_clock())
    assert buttons.observe(seen(0, False, 2000, 100 * S)) is None
    assert buttons.observe(TagSeen("01020304", 5)) is None
    assert buttons.observe(NoTag(5)) is None


def test_a_press_is_never_dated_after_its_frame_arrived() -> None:
    buttons = PicoButtons(1, clock=synced_clock())
    press = buttons.observe(seen(0, True, 2000, 8 * S))  # would map to 9 s
    assert press == ButtonPress("player", 0, 8 * S)


def test_a_repeated_edge_counts_once() -> None:
    presses: list[ButtonPress] = []
    buttons = PicoButtons(2, clock=synced_clock(), on_press=presses.append)
    edge = seen(0, True, 2000, 100 * S)
    buttons.observe(edge)
    buttons.observe(edge)  # the same frame again
    buttons.observe(seen(0, True, 1990, 100 * S))  # older than the last one taken
    assert len(presses) == 1
    assert buttons.stats.repeats == 2


def test_edges_closer_than_the_window_are_bounces() -> None:
    presses: list[ButtonPress] = []
    buttons = PicoButtons(1, clock=synced_clock(), debounce_ns=10 * MS, on_press=presses.append)
    for device_ms, pressed in [(2000, True), (2004, False), (2008, True), (2030, False)]:
        buttons.observe(seen(0, pressed, device_ms, 100 * S))
    buttons.observe(seen(0, True, 2100, 100 * S))
    assert [p.t_ns for p in presses] == [9 * S + 1 * MS, 9_100 * MS + 1 * MS]
    assert buttons.stats.bounces == 2


def test_a_press_after_a_lost_release_still_counts() -> None:
    presses: list[ButtonPress] = []
    buttons = PicoButtons(1, clock=synced_clock(), on_press=presses.append)
    buttons.observe(seen(0, True, 2000, 100 * S))
    buttons.observe(seen(0, True, 3000, 100 * S))  # the release between was lost
    assert len(presses) == 2


def test_buttons_are_independent() -> None:
    presses: list[ButtonPress] = []
    buttons = PicoButtons(2, clock=synced_clock(), on_press=presses.append)
    buttons.observe(seen(0, True, 2000, 100 * S))
    buttons.observe(seen(1, True, 2001, 100 * S))  # 1 ms later, the other player's
    assert [p.player for p in presses] == [0, 1]


def test_a_reboot_forgets_the_old_boots_stamps() -> None:
    clock = synced_clock()
    presses: list[ButtonPress] = []
    buttons = PicoButtons(1, clock=clock, on_press=presses.append)
    buttons.observe(seen(0, True, 2000, 100 * S))
    clock.boot_check(10_000_000)
    assert clock.boot_check(50_000)  # the board restarted: uptime 50 ms
    clock.observe(50_000, 200 * S)
    press = buttons.observe(seen(0, True, 60, 200 * S + 20 * MS))
    assert press == ButtonPress("player", 0, 200 * S + 10 * MS)


def test_without_a_shared_clock_it_learns_from_the_button_frames() -> None:
    buttons = PicoButtons(1)
    first = buttons.observe(seen(0, True, 2000, 50 * S))
    assert first == ButtonPress("player", 0, 50 * S)  # nothing better yet: its arrival
    second = buttons.observe(seen(0, True, 3000, 51 * S + 5 * MS))
    assert second == ButtonPress("player", 0, 51 * S)  # the first frame was faster
    rebooted = buttons.observe(seen(0, True, 100, 60 * S))  # stamps went back: a reboot
    assert rebooted == ButtonPress("player", 0, 60 * S)
    assert buttons.clock.epoch == 1


def test_without_a_shared_clock_a_wild_stamp_is_dropped_not_believed() -> None:
    """A frame whose stamp says 2^64-1 us (its CRC was fine): dropped and counted; the
    button's next presses count as ever, at the right times."""
    presses: list[ButtonPress] = []
    buttons = PicoButtons(1, on_press=presses.append)
    buttons.observe(seen(0, True, 2000, 50 * S))
    buttons.observe(seen(0, False, 2100, 50 * S + 100 * MS))
    wild = ButtonSeen(0, True, 2**64 - 1, 51 * S)
    assert buttons.observe(wild) is None
    for second in range(3, 6):
        buttons.observe(seen(0, True, second * 1000, (48 + second) * S))
        buttons.observe(seen(0, False, second * 1000 + 100, (48 + second) * S + 100 * MS))
    assert [press.t_ns for press in presses] == [50 * S, 51 * S, 52 * S, 53 * S]
    assert (buttons.stats.bad_stamps, buttons.stats.repeats) == (1, 0)


@pytest.mark.parametrize(
    ("players", "pause", "message"),
    [(0, None, "at least one"), (2, 1, "after the players"), (2, 256, "after the players")],
)
def test_bad_settings(players: int, pause: int | None, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PicoButtons(players, pause)


def test_through_the_protocol_with_its_clock() -> None:
    link = Link()
    link.identify()
    for _ in range(3):  # heartbeats teach the clock the offset: 2 ms latency on the link
        link.advance(1 * S)
        link.heartbeat()
    presses: list[ButtonPress] = []
    buttons = PicoButtons(2, clock=link.protocol.clock, on_press=presses.append)
    pressed_at = link.t_ns
    link.advance(15 * MS)  # the firmware confirms the edge, then sends it
    for observation in link.from_device(link.device.button(1, True, link.device_us(pressed_at))):
        buttons.observe(observation)
    assert presses == [ButtonPress("player", 1, pressed_at + 2 * MS)]
    assert isinstance(link.protocol.clock.offset_ns, int)
    assert wire.VERSION == 1
