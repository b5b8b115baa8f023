"""The host's PicoProtocol against the Pico emulator through a real socat pty pair: first
over a plain pyserial loop, byte for byte; then through the reader shell (CardReader),
with PicoButtons driving a real ClockRunner."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import serial

from companion.clock import model
from companion.clock.notation import parse
from companion.clock.runner import ClockRunner
from companion.devices.buttons import ButtonPress
from companion.devices.cardreader import picowire as wire
from companion.devices.cardreader.events import (
    BadFrame,
    ButtonSeen,
    CardEvent,
    CardPresented,
    CardRemoved,
    Observation,
    TagSeen,
)
from companion.devices.cardreader.pico import WAKE, PicoProtocol
from companion.devices.cardreader.pico_buttons import PicoButtons
from companion.devices.cardreader.pico_emulator import PicoEmulator
from companion.devices.cardreader.ptypair import PtyPair

pytestmark = pytest.mark.skipif(shutil.which("socat") is None, reason="needs socat")

NTAG = "04A224B2C12A81"
MS = 1_000_000


def wait_for(condition: Callable[[], object], timeout_s: float = 3.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.005)


@pytest.fixture()
def pair() -> Iterator[PtyPair]:
    with PtyPair() as ptys:
        yield ptys


# ---- a plain loop over pyserial: every byte accounted for ----------------------------------


class Loop:
    """The reader shell's job, minimal: due() out, bytes in, everything kept."""

    def __init__(self, path: str, protocol: PicoProtocol) -> None:
        self.port = serial.Serial(path, 115200, timeout=0.01)
        self.protocol = protocol
        self.raw = bytearray()
        self.observations: list[Observation] = []
        self.port.write(protocol.connected(time.monotonic_ns()))

    def spin(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.step()

    def until(self, condition: Callable[[], object], timeout_s: float = 3.0) -> None:
        deadline = time.monotonic() + timeout_s
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting")
            self.step()

    def step(self) -> None:
        out = self.protocol.due(time.monotonic_ns())
        if out:
            self.port.write(out)
        data = self.port.read(self.port.in_waiting or 1)
        if data:
            self.raw += data
            self.observations += self.protocol.receive(data, time.monotonic_ns())


def test_byte_for_byte_over_a_pty(pair: PtyPair) -> None:
    with PicoEmulator(pair.device_path, boot_us=5_000_000) as board:
        loop = Loop(pair.host_path, PicoProtocol())
        try:
            loop.until(loop.protocol.identified)
            board.present(bytes.fromhex(NTAG))
            board.press(0)
            board.release(0)
            led = loop.protocol.set_led(3, "blink", 400)
            ping = loop.protocol.ping(b"\x03\xc0\xdb")
            loop.until(lambda: ping.done and led.done)
            board.remove()
            loop.spin(0.05)
        finally:
            loop.port.close()
    # What the host wrote is exactly: wake-up, HELLO_REQUEST, the two commands.
    expected_out = WAKE + wire.encode(wire.HelloRequest(), 0)
    expected_out += wire.encode(wire.SetLed(3, wire.LED_BLINK, 400), 1)
    expected_out += wire.encode(wire.Ping(b"\x03\xc0\xdb"), 2)
    assert bytes(board.rx_bytes) == expected_out
    assert board.received == [
        wire.HelloRequest(),
        wire.SetLed(3, wire.LED_BLINK, 400),
        wire.Ping(b"\x03\xc0\xdb"),
    ]
    # What the host read is exactly the emulator's frames, numbered from 0, but for its
    # boot HELLO, sent before the host opened the port (pyserial's open flushes input).
    frames = [wire.encode(m, i) for i, m in enumerate(board.sent)]
    assert bytes(loop.raw) == b"".join(frames[1:])
    boot = board.sent[0]
    assert isinstance(boot, wire.Hello)
    assert boot == wire.Hello(1, (1, 0, 0), wire.READER_MFRC522, 4, 4, True, boot.uptime_us)
    assert board.leds[3] == (wire.LED_BLINK, 400)
    assert ping.echo == b"\x03\xc0\xdb"
    kinds = [type(o).__name__ for o in loop.observations]
    assert kinds[:3] == ["TagSeen", "ButtonSeen", "ButtonSeen"]
    assert kinds[-1] == "NoTag"
    assert loop.protocol.stats.bad_frames == loop.protocol.stats.lost_frames == 0


def test_corrupted_frames_and_garbage_over_a_pty(pair: PtyPair) -> None:
    with PicoEmulator(pair.device_path) as board:
        loop = Loop(pair.host_path, PicoProtocol())
        try:
            loop.until(loop.protocol.identified)
            board.corrupt_next(1)
            board.press(1)  # lost to a flipped CRC bit
            board.write_raw(b"MicroPython v1.23 on 2024-06-02; Raspberry Pi Pico\r\n>>> ")
            board.write_raw(b"\xc0\xdb\xc0")  # a bad escape, closed
            board.release(1)  # straight after the garbage: must arrive
            loop.until(lambda: any(isinstance(o, ButtonSeen) for o in loop.observations))
        finally:
            loop.port.close()
    bad = [o.reason for o in loop.observations if isinstance(o, BadFrame)]
    assert bad == ["bad CRC", "bad CRC", "bad escape"]
    (edge,) = [o for o in loop.observations if isinstance(o, ButtonSeen)]
    assert (edge.button, edge.pressed) == (1, False)
    assert loop.protocol.stats.lost_frames == 1  # the corrupted one, by its seq


def test_lost_commands_are_retried_over_a_pty(pair: PtyPair) -> None:
    with PicoEmulator(pair.device_path) as board:
        loop = Loop(pair.host_path, PicoProtocol(ack_timeout_ns=50 * MS))
        try:
            loop.until(loop.protocol.identified)
            board.ignore_next(2)
            beep = loop.protocol.beep(80, 2500)
            loop.until(lambda: beep.done)
        finally:
            loop.port.close()
    assert beep.state == "acked" and beep.tries == 3
    assert board.beeps == [(80, 2500)]
    assert board.received.count(wire.Beep(80, 2500)) == 1  # the two lost ones never came


# ---- through the reader shell ----------------------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.events: list[CardEvent] = []
        self.observations: list[Observation] = []
        self.presses: list[ButtonPress] = []
        self.lock = threading.Lock()

    def event(self, event: CardEvent) -> None:
        with self.lock:
            self.events.append(event)

    def observation(self, observation: Observation) -> None:
        with self.lock:
            self.observations.append(observation)


def make_reader(path: str, recorder: Recorder, runner: ClockRunner) -> tuple[Any, PicoProtocol]:
    # Lazily, as the command line does: the registry finds pico.py by name.
    from companion.devices.cardreader.reader import CardReader
    from companion.devices.cardreader.registry import make_protocol

    protocol = make_protocol("pico")
    assert isinstance(protocol, PicoProtocol)
    buttons = PicoButtons(2, pause=2, clock=protocol.clock, on_press=runner.handle)

    def observe(observation: Observation) -> None:
        recorder.observation(observation)
        press = buttons.observe(observation)
        if press is not None:
            recorder.presses.append(press)

    reader = CardReader(path, protocol, on_event=recorder.event, on_observation=observe)
    return reader, protocol


def test_through_the_reader_shell_to_the_clock(pair: PtyPair) -> None:
    recorder = Recorder()
    runner = ClockRunner(model.new_clock([parse("300")] * 2))
    with PicoEmulator(pair.device_path) as board:
        reader, protocol = make_reader(pair.host_path, recorder, runner)
        with reader:
            reader.start()
            wait_for(protocol.identified)
            assert protocol.device is not None and protocol.device.buttons == 4

            board.present(NTAG)
            wait_for(lambda: recorder.events)
            time.sleep(0.5)  # longer than the 300 ms silence: the refreshes keep the card
            assert recorder.events == [CardPresented(NTAG, recorder.events[0].t_ns, "pico")]

            before = time.monotonic_ns()
            board.press(1)  # before the start, a press starts the other player
            wait_for(lambda: runner.clock.running == 0)
            after = time.monotonic_ns()
            board.release(1)
            time.sleep(0.05)
            edge_ns = time.monotonic_ns() - 15 * MS
            board.press(0, t_us=board.uptime_us() - 15_000)  # confirmed 15 ms after the edge
            wait_for(lambda: runner.clock.running == 1)
            board.press(2)  # pause
            wait_for(lambda: runner.clock.paused)

            led = protocol.set_led(0, "on")
            beep = protocol.beep(100, 2000)
            wait_for(lambda: led.done and beep.done)
            assert (led.state, beep.state) == ("acked", "acked")
            assert board.leds[0] == (wire.LED_ON, 0) and board.beeps == [(100, 2000)]

            board.corrupt_next(1)
            board.write_raw(b"\x00junk\xc0")
            board.remove()
            wait_for(lambda: len(recorder.events) == 2)
            stats = reader.stats
    first, second, pause = recorder.presses
    assert (first.kind, first.player) == ("player", 1)
    assert before - 5 * MS <= first.t_ns <= after  # the press's own time, on the host clock
    assert (second.player, pause.kind) == (0, "pause")
    assert edge_ns - 5 * MS <= second.t_ns <= edge_ns + 5 * MS  # dated at the edge, not later
    removed = recorder.events[1]
    assert isinstance(removed, CardRemoved) and removed.tag == NTAG
    assert stats.bad_frames >= 2 and stats.connected
    assert any(isinstance(o, TagSeen) for o in recorder.observations)


def test_reboot_and_unplug_through_the_reader_shell(pair: PtyPair) -> None:
    recorder = Recorder()
    runner = ClockRunner(model.new_clock([parse("300")] * 2))
    with PicoEmulator(pair.device_path) as board:
        reader, protocol = make_reader(pair.host_path, recorder, runner)
        with reader:
            reader.start()
            wait_for(protocol.identified)
            board.present(NTAG)
            led = protocol.set_led(1, "blink")
            wait_for(lambda: led.done and recorder.events)

            board.reboot()  # a power glitch: the LED goes dark, the board says hello
            wait_for(lambda: protocol.stats.reboots == 1)
            wait_for(lambda: board.leds[1] == (wire.LED_BLINK, 0))  # the host set it again

            pair.unplug()
            pair.replug()
            wait_for(lambda: reader.stats.reconnects >= 1 and board.reopens >= 1)
            wait_for(lambda: protocol.identified() and protocol.stats.hellos >= 3)
            board.present(NTAG)  # still there: no second CardPresented
            time.sleep(0.3)
    assert [type(e) for e in recorder.events] == [CardPresented]
