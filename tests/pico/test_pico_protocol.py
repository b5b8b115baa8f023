"""PicoProtocol, the host's end, against picowire's DeviceSession in-process."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.devices.cardreader import picowire as wire
from companion.devices.cardreader.events import BadFrame, ButtonSeen, NoTag, TagSeen
from companion.devices.cardreader.pico import (
    ACK_TIMEOUT_NS,
    WAKE,
    Command,
    CommandState,
    DeviceClock,
    DeviceInfo,
    PicoProtocol,
)
from companion.devices.cardreader.protocol import ReaderProtocol
from tests.pico.link import MS, Link

NTAG = bytes.fromhex("04A224B2C12A81")
S = 1_000 * MS


def state(command: Command) -> CommandState:
    """Read through a call, so that mypy does not pin the state after a first assert."""
    return command.state


def test_it_is_a_reader_protocol() -> None:
    protocol: ReaderProtocol = PicoProtocol()
    assert protocol.name == "pico"


def test_connecting_sends_a_wake_up_and_a_hello_request_byte_for_byte() -> None:
    assert PicoProtocol().connected(0) == b"\r\x04\xc0\x01\x84\x00\x2c\xf0\xc0"
    assert WAKE == b"\r\x04"


def test_the_board_identifies_itself() -> None:
    link = Link()
    assert not link.protocol.identified()
    assert link.connect() == []
    assert link.protocol.identified()
    assert link.protocol.device == DeviceInfo(1, (1, 0, 0), "mfrc522", 4, 4, True)
    assert link.protocol.device.firmware_version == "1.0.0"
    assert link.protocol.stats.hellos == 1


def test_a_board_that_boots_later_says_hello_unasked() -> None:
    link = Link()
    link.drop_to_device = lambda data: True  # nobody there yet
    link.connect()
    assert not link.protocol.identified()
    link.hello()  # it booted: its first words
    assert link.protocol.identified()


def test_frames_before_the_hello_are_stale_and_ignored() -> None:
    link = Link()
    link.drop_to_device = lambda data: True
    link.connect()
    old = link.device.card(wire.CARD_PRESENT, NTAG, 5) + link.device.button(0, True, 6)
    assert link.from_device(old + link.device.heartbeat(7)) == []
    assert link.protocol.stats.stale == 3
    assert link.protocol.clock.offset_ns is None  # old stamps teach the clock nothing
    link.hello()
    assert [type(o) for o in link.from_device(link.device.button(0, False, 8))] == [ButtonSeen]


def test_a_newer_board_is_named_in_the_error() -> None:
    link = Link()
    head = bytes([2, wire.HELLO, 0, 2, 0, 1]) + bytes(20)
    body = head + wire.crc16(head).to_bytes(2, "big")
    (bad,) = link.from_device(wire.stuff(body))
    assert isinstance(bad, BadFrame)
    assert bad.reason == "unsupported protocol version 2 (firmware 0.1.0)"


def test_hello_requests_repeat_every_second_until_answered() -> None:
    link = Link()
    link.drop_to_device = lambda data: True
    link.connect()
    link.run(3_500 * MS)
    asks = [d for d in link.to_device if d.startswith(WAKE)]
    assert len(asks) == 4  # at 0, 1, 2 and 3 s


def test_cards_become_tag_seen_and_no_tag() -> None:
    link = Link()
    link.identify()
    t_us = link.device_us()
    link.advance(5 * MS)
    (seen,) = link.from_device(link.device.card(wire.CARD_PRESENT, NTAG, t_us))
    assert isinstance(seen, TagSeen) and seen.tag == "04A224B2C12A81"
    arrival = link.t_ns + link.latency_ns
    assert arrival - 10 * MS < seen.t_ns <= arrival  # the device's stamp, mapped
    (again,) = link.from_device(link.device.card(wire.CARD_STILL_PRESENT, NTAG, t_us + 100))
    assert isinstance(again, TagSeen) and again.tag == seen.tag
    (gone,) = link.from_device(link.device.card(wire.CARD_REMOVED, NTAG, t_us + 200))
    assert isinstance(gone, NoTag)
    assert link.protocol.card is None


def test_heartbeats_keep_a_card_and_notice_a_lost_removal() -> None:
    link = Link()
    link.identify()
    link.device.card(wire.CARD_PRESENT, NTAG, link.device_us())  # this frame is lost
    (kept,) = link.heartbeat()
    assert isinstance(kept, TagSeen) and kept.tag == "04A224B2C12A81"
    link.device.card(wire.CARD_REMOVED, NTAG, link.device_us())  # lost too
    (gone,) = link.heartbeat()
    assert isinstance(gone, NoTag)
    assert link.heartbeat() == []  # no card, nothing to say


def test_the_removal_of_a_card_already_replaced_says_nothing() -> None:
    link = Link()
    link.identify()
    link.from_device(link.device.card(wire.CARD_PRESENT, b"\x01\x02\x03\x04", 1))
    link.from_device(link.device.card(wire.CARD_PRESENT, NTAG, 2))
    assert link.from_device(link.device.card(wire.CARD_REMOVED, b"\x01\x02\x03\x04", 3)) == []


def test_buttons_become_button_seen_with_the_device_stamp() -> None:
    link = Link()
    link.identify()
    stamp = link.device_us() - 1_500
    (seen,) = link.from_device(link.device.button(2, True, stamp))
    assert seen == ButtonSeen(2, True, stamp, link.t_ns + link.latency_ns)


def test_commands_wait_for_the_hello() -> None:
    link = Link()
    link.drop_to_device = lambda data: True
    link.connect()
    command = link.protocol.set_led(0, "on")
    link.run(500 * MS)
    assert state(command) == "queued"
    link.drop_to_device = lambda data: False
    link.run(1_000 * MS)
    assert state(command) == "acked"
    assert link.executed == [wire.SetLed(0, wire.LED_ON)]


def test_a_command_goes_out_byte_for_byte_and_is_acknowledged() -> None:
    link = Link()
    link.identify()
    command = link.protocol.set_led(1, "blink", 500)
    assert state(command) == "queued" and command.seq == 1
    link.pump()
    assert link.to_device[-1] == bytes.fromhex("c0 01 82 01 01 02 01 f4 38 e0 c0")
    assert state(command) == "acked" and command.done
    assert command.done_ns == link.t_ns + link.latency_ns
    assert link.executed == [wire.SetLed(1, wire.LED_BLINK, 500)]


def test_ping_beep_reset() -> None:
    link = Link()
    link.identify()
    ping = link.protocol.ping(b"\x03hi")
    beep = link.protocol.beep(120, 3000)
    reset = link.protocol.reset()
    link.run(50 * MS)
    assert (state(ping), ping.echo) == ("acked", b"\x03hi")
    assert state(beep) == state(reset) == "acked"
    assert link.executed == [wire.Beep(120, 3000), wire.Reset(wire.RESET_OUTPUTS)]
    assert link.protocol.stats.hellos == 2  # RESET_OUTPUTS says hello again


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda p: p.set_led(7, "on"), "out of range"),
        (lambda p: p.beep(50), "not supported by this board"),
        (lambda p: p.beep(60_000), "not supported by this board"),
    ],
)
def test_refused_commands(make, reason: str) -> None:
    link = Link(leds=4, buzzer=False)
    link.identify()
    command = make(link.protocol)
    link.pump()
    assert (state(command), command.reason) == ("refused", reason)
    assert link.protocol.stats.refused == 1


def test_a_lost_ack_brings_a_retry_with_the_same_bytes_done_once() -> None:
    link = Link()
    link.identify()
    lost = [True]
    link.drop_to_host = lambda data: lost.pop() if lost else False
    command = link.protocol.beep(100)
    link.pump()
    first = link.to_device[-1]
    assert state(command) == "sent"
    link.advance(ACK_TIMEOUT_NS - 1)
    assert link.protocol.due(link.t_ns) == b""
    link.advance(1)
    link.pump()
    assert link.to_device[-1] == first
    assert state(command) == "acked" and command.tries == 2
    assert link.executed == [wire.Beep(100)]  # the board carried it out once
    assert link.protocol.stats.retries == 1


def test_a_command_never_answered_fails_and_the_next_one_goes() -> None:
    link = Link()
    link.identify()
    link.drop_to_device = lambda data: True
    first = link.protocol.set_led(0, "on")
    second = link.protocol.set_led(1, "on")
    link.run(1_100 * MS)
    assert state(first) == "failed" and first.tries == 4 and first.reason == "no answer"
    assert state(second) == "sent"  # it went the moment the first one failed: lost too
    link.drop_to_device = lambda data: False
    link.run(300 * MS)
    assert state(second) == "acked" and second.tries == 2
    assert link.protocol.stats.failed == 1 and link.protocol.stats.retries == 4


def test_a_late_ack_is_a_stray_reply() -> None:
    link = Link()
    link.identify()
    link.from_device(link.device.frame(wire.Ack(77, wire.SET_LED)))
    assert link.protocol.stats.stray_replies == 1


def test_a_full_queue_drops_its_oldest_command() -> None:
    link = Link(PicoProtocol(max_queue=2))
    commands = [link.protocol.beep(10 + i) for i in range(3)]
    assert [c.state for c in commands] == ["dropped", "queued", "queued"]
    assert commands[0].reason == "queue full"


def test_bad_frames_are_counted_and_reported() -> None:
    link = Link()
    link.identify()
    good = link.device.button(0, True, 5)
    broken = bytearray(good)
    broken[5] ^= 0x10
    got = link.from_device(bytes(broken) + b"\x00garbage\xc0" + good)
    assert [type(o) for o in got] == [BadFrame, BadFrame, ButtonSeen]
    assert isinstance(got[0], BadFrame) and got[0].reason == "bad CRC"
    assert link.protocol.stats.bad_frames == 2


def test_an_echoing_line_is_named() -> None:
    link = Link()
    link.identify()
    (echo,) = link.from_device(wire.encode(wire.SetLed(0, 1), 9))
    assert isinstance(echo, BadFrame) and "echoing" in echo.reason


def test_lost_frames_are_counted_by_sequence_number() -> None:
    link = Link()
    link.identify()
    link.from_device(link.device.button(0, True, 1))
    link.device.button(0, False, 2)  # lost
    link.device.button(1, True, 3)  # lost
    link.from_device(link.device.button(1, False, 4))
    assert link.protocol.stats.lost_frames == 2


def test_a_silent_board_is_asked_for_a_hello_again() -> None:
    link = Link()
    link.identify()
    link.drop_to_device = lambda data: True
    assert link.protocol.alive(link.t_ns)
    link.run(3_400 * MS)
    assert link.protocol.identified()
    link.run(200 * MS)
    assert not link.protocol.identified()
    assert link.to_device[-1].startswith(WAKE)


def test_a_rebooted_board_gets_its_leds_back() -> None:
    link = Link()
    link.identify()
    link.protocol.set_led(0, "on")
    link.protocol.set_led(2, "blink", 250)
    link.run(30 * MS)
    epoch = link.protocol.clock.epoch
    link.device = wire.DeviceSession(link.info)  # a fresh boot: seq 0, uptime from 0
    link.boot_ns = link.t_ns
    link.hello()
    assert link.protocol.stats.reboots == 1
    assert link.protocol.clock.epoch == epoch + 1
    link.executed.clear()
    link.run(30 * MS)
    assert link.executed == [wire.SetLed(0, wire.LED_ON), wire.SetLed(2, wire.LED_BLINK, 250)]


def test_set_led_all_replaces_every_wish() -> None:
    link = Link()
    link.identify()
    link.protocol.set_led(1, "on")
    link.protocol.set_led(wire.ALL_LEDS, "off")
    link.run(30 * MS)
    link.executed.clear()
    link.hello()
    link.run(30 * MS)
    assert link.executed == [wire.SetLed(wire.ALL_LEDS, wire.LED_OFF)]


def test_a_reconnection_sends_the_command_in_flight_again() -> None:
    link = Link()
    link.identify()
    link.drop_to_device = lambda data: True
    command = link.protocol.beep(30)
    link.pump()
    assert state(command) == "sent"
    link.drop_to_device = lambda data: False
    link.connect()  # the port was opened again
    assert state(command) == "queued"
    link.run(20 * MS)
    assert state(command) == "acked"


def test_bad_settings() -> None:
    with pytest.raises(ValueError, match="positive"):
        PicoProtocol(ack_timeout_ns=0)
    with pytest.raises(ValueError, match="LED mode"):
        PicoProtocol().set_led(0, 3)
    with pytest.raises(ValueError, match=r"LED must be 0\.\.255"):
        PicoProtocol().set_led(256, "on")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.floats(0.0, 0.4))
def test_over_a_lossy_line_every_command_ends_and_none_is_done_twice(
    seed: int, loss: float
) -> None:
    # Frames are lost both ways at random; heartbeats always get through (so the board is
    # never silent long enough to be asked for a new hello, which resets its memory).
    rng = random.Random(seed)
    link = Link()
    link.identify()
    link.drop_to_device = lambda data: rng.random() < loss
    link.drop_to_host = lambda data: rng.random() < loss
    commands = [link.protocol.beep(i + 1) for i in range(8)]
    for _ in range(100):  # 10 s: enough for 8 commands to fail after 4 tries of 250 ms
        link.run(100 * MS)
        link.protocol.receive(link.device.heartbeat(link.device_us()), link.t_ns)
    done = [wire.Beep(i + 1) for i in range(8)]
    counts = {m.duration_ms: link.executed.count(m) for m in done}
    for command in commands:
        assert state(command) in ("acked", "failed")
        assert isinstance(command.message, wire.Beep)
        times = counts[command.message.duration_ms]
        assert times <= 1
        if state(command) == "acked":
            assert times == 1
    if loss == 0:
        assert all(state(c) == "acked" for c in commands)


class TestDeviceClock:
    def test_no_sample_maps_to_the_arrival(self) -> None:
        assert DeviceClock().to_host_ns(5, 999) == 999
        assert DeviceClock().offset_ns is None

    def test_the_fastest_frame_wins(self) -> None:
        clock = DeviceClock()
        clock.observe(1_000_000, 5 * S + 4 * MS)  # 4 ms late
        clock.observe(2_000_000, 6 * S + 1 * MS)  # 1 ms late: the best
        clock.observe(3_000_000, 7 * S + 9 * MS)
        assert clock.offset_ns == 4 * S + 1 * MS
        assert clock.to_host_ns(2_500_000, 10 * S) == 6_500 * MS + 1 * MS

    def test_never_after_the_arrival(self) -> None:
        clock = DeviceClock()
        clock.observe(1_000_000, 5 * S)
        assert clock.to_host_ns(9_000_000, 5 * S + 1) == 5 * S + 1

    def test_old_samples_leave_the_window(self) -> None:
        clock = DeviceClock(window_ns=30 * S)
        clock.observe(0, 1 * S)  # a fast frame long ago
        for second in range(1, 40):  # then the clocks drift: every frame 2 ms "later"
            clock.observe(second * 1_000_000, (1 + second) * S + 2 * MS)
        assert clock.offset_ns == 1 * S + 2 * MS

    def test_a_reboot_starts_a_new_epoch(self) -> None:
        clock = DeviceClock()
        assert not clock.boot_check(5_000_000)
        clock.observe(5_000_000, 10 * S)
        assert not clock.boot_check(6_000_000)
        assert clock.boot_check(100)
        assert clock.epoch == 1 and clock.offset_ns is None

    def test_window_must_be_positive(self) -> None:
        with pytest.raises(ValueError, match="window"):
            DeviceClock(0)
