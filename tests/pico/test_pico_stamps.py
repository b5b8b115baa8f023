"""Pico stamps that jump beyond what the link allows are rejected and counted, and the
board's time base comes back from the next sane frames: one wild frame must not make later
presses repeats, nor date them years away."""

from __future__ import annotations

import shutil
import time

import pytest

from companion.clock.presses import ButtonPress
from companion.devices.cardreader import picowire as wire
from companion.devices.cardreader.events import BadFrame, ButtonSeen, Observation, TagSeen
from companion.devices.cardreader.pico import DeviceClock, PicoProtocol
from companion.devices.cardreader.pico_buttons import PicoButtons
from companion.devices.cardreader.pico_emulator import PicoEmulator
from companion.devices.cardreader.ptypair import PtyPair
from companion.devices.cardreader.reader import CardReader
from tests.pico.link import MS, Link

S = 1_000 * MS
NTAG = bytes.fromhex("04A224B2C12A81")


def linked() -> tuple[Link, PicoButtons, list[ButtonPress]]:
    link = Link()
    link.identify()
    for _ in range(3):
        link.advance(1 * S)
        link.heartbeat()
    presses: list[ButtonPress] = []
    buttons = PicoButtons(2, clock=link.protocol.clock, on_press=presses.append)
    return link, buttons, presses


def send(link: Link, buttons: PicoButtons, frame: bytes) -> list[Observation]:
    observations = link.from_device(frame)
    for observation in observations:
        buttons.observe(observation)
    return observations


def press_and_release(link: Link, buttons: PicoButtons, button: int) -> int:
    """A press now and its release 60 ms later; the host time of the press."""
    pressed_at = link.t_ns
    send(link, buttons, link.device.button(button, True, link.device_us()))
    link.advance(60 * MS)
    send(link, buttons, link.device.button(button, False, link.device_us()))
    link.advance(200 * MS)
    return pressed_at


def bad(observations: list[Observation]) -> list[str]:
    return [o.reason for o in observations if isinstance(o, BadFrame)]


def test_a_button_stamp_at_the_end_of_time_is_rejected_and_every_press_after_counts() -> None:
    link, buttons, presses = linked()
    wild = send(link, buttons, link.device.button(0, True, wire.U64))
    assert len(bad(wild)) == 1 and "jumped forward" in bad(wild)[0]
    assert not any(isinstance(o, ButtonSeen) for o in wild)
    times = [press_and_release(link, buttons, 0) for _ in range(20)]
    assert [p.t_ns for p in presses] == [t + 2 * MS for t in times]  # the link's 2 ms
    assert buttons.stats.repeats == 0
    assert link.protocol.stats.bad_stamps == 1 and link.protocol.stats.resyncs == 0


def test_a_card_with_a_wild_stamp_cannot_drag_the_clock_away() -> None:
    link, buttons, presses = linked()
    offset = link.protocol.clock.offset_ns
    link.advance(10 * MS)
    wild = send(link, buttons, link.device.card(wire.CARD_PRESENT, NTAG, wire.U64 - 5))
    assert len(bad(wild)) == 1 and not any(isinstance(o, TagSeen) for o in wild)
    assert link.protocol.clock.offset_ns == offset
    pressed_at = press_and_release(link, buttons, 1)
    assert presses == [ButtonPress("player", 1, pressed_at + 2 * MS)]
    link.advance(10 * MS)
    sane = send(link, buttons, link.device.card(wire.CARD_PRESENT, NTAG, link.device_us()))
    assert [o for o in sane if isinstance(o, TagSeen)] == [
        TagSeen(NTAG.hex().upper(), link.t_ns + 2 * MS)
    ]


def test_a_stamp_far_in_the_past_is_rejected_for_an_event() -> None:
    link, buttons, presses = linked()
    old = send(link, buttons, link.device.button(0, True, 0))  # the moment of the boot
    assert len(bad(old)) == 1 and "jumped backward" in bad(old)[0]
    assert presses == []
    pressed_at = press_and_release(link, buttons, 0)
    assert presses == [ButtonPress("player", 0, pressed_at + 2 * MS)]


def test_a_heartbeat_from_the_future_is_rejected_and_is_no_reboot() -> None:
    link, buttons, presses = linked()
    got = link.from_device(link.device.heartbeat(link.device_us() + 3_600 * 10**6))
    assert len(bad(got)) == 1
    link.advance(1 * S)
    assert bad(link.heartbeat()) == []
    assert link.protocol.stats.reboots == 0 and link.protocol.clock.epoch == 0
    pressed_at = press_and_release(link, buttons, 0)
    assert presses == [ButtonPress("player", 0, pressed_at + 2 * MS)]


def test_the_card_named_after_a_hello_may_be_an_old_read() -> None:
    link = Link()
    link.identify()
    link.advance(60 * S)
    got = link.from_device(
        link.device.hello(link.device_us())
        + link.device.card(wire.CARD_PRESENT, NTAG, link.device_us() - 50 * 10**6)
    )
    assert bad(got) == [] and any(isinstance(o, TagSeen) for o in got)


def test_a_time_base_from_a_stale_frame_is_resynchronised_from_the_next_sane_ones() -> None:
    link = Link(latency_ns=8 * S)  # the board's HELLO waited 8 s in a buffer
    link.identify()
    link.latency_ns = 2 * MS
    presses: list[ButtonPress] = []
    buttons = PicoButtons(1, clock=link.protocol.clock, on_press=presses.append)
    link.advance(1 * S)
    first = link.heartbeat()  # 8 s "ahead" of the stale base: rejected
    assert len(bad(first)) == 1
    link.advance(1 * S)
    assert bad(link.heartbeat()) == []  # agrees with the first, not the base: resync
    assert link.protocol.stats.resyncs == 1 and link.protocol.clock.epoch == 1
    times = [press_and_release(link, buttons, 0) for _ in range(5)]
    assert [p.t_ns for p in presses] == [t + 2 * MS for t in times]


def test_the_clock_alone() -> None:
    clock = DeviceClock()
    assert clock.vet(wire.U64, 5 * S) is None  # nothing to compare with yet
    clock.observe(1_000_000, 2 * S)
    assert clock.vet(2_000_000, 3 * S) is None
    assert clock.vet(10_000_000, 3 * S) is not None  # 8 s ahead of its arrival
    assert clock.vet(2_100_000, 3_100 * MS) is None  # a sane one: the suspect is dropped
    assert clock.vet(10_000_000, 3_200 * MS) is not None
    assert clock.resyncs == 0


# ---- through the real byte protocol ----------------------------------------------------------


@pytest.mark.skipif(shutil.which("socat") is None, reason="needs socat")
def test_a_wild_stamp_over_a_pty_then_every_press_counts() -> None:
    presses: list[ButtonPress] = []
    protocol = PicoProtocol()
    buttons = PicoButtons(2, clock=protocol.clock, on_press=presses.append)
    with PtyPair() as pair, PicoEmulator(pair.device_path) as board:
        reader = CardReader(
            pair.host_path, protocol, on_event=lambda e: None, on_observation=buttons.observe
        )
        with reader:
            reader.start()
            assert wait(protocol.identified)
            assert wait(lambda: protocol.clock.offset_ns is not None)
            board.press(0, t_us=wire.U64)
            assert wait(lambda: protocol.stats.bad_stamps == 1)
            stamp = board.uptime_us()
            for _ in range(20):
                # Stamps that only go forward, 40 ms apart at least, never behind the board.
                stamp = max(board.uptime_us(), stamp + 40_000)
                board.press(0, t_us=stamp)
                board.release(0, t_us=stamp + 20_000)
                stamp += 20_000
            assert wait(lambda: buttons.stats.presses == 20)
            assert buttons.stats.repeats == 0 and buttons.stats.bounces == 0
            assert reader.stats.bad_frames == 1 and protocol.stats.bad_stamps == 1


def wait(condition: object, timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True
