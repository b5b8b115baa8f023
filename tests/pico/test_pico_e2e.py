"""The host's PicoProtocol against the Pico emulator through a real socat pty pair: first
over a plain pyserial loop, byte for byte; then through the reader shell (CardReader),
with PicoButtons driving a real ClockRunner."""

from __future__ import annotations

import itertools
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import serial

from companion.clock import model
from companion.clock.notation import parse
from companion.clock.presses import ButtonPress
from companion.clock.runner import ClockRunner
from companion.devices.cardreader import picowire as wire
from companion.devices.cardreader.events import (
    BadFrame,
    ButtonSeen,
    CardEvent,
    CardPresented,
    CardRemoved,
    NoTag,
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
WAIT_S = 10.0
"""How long to wait for what must come: long, as it only counts when it never comes (a
loaded machine may take seconds)."""


def wait_for(
    condition: Callable[[], object], timeout_s: float = WAIT_S, seen: Callable[[], object] = str
) -> None:
    """Waits for `condition`; on a time-out, says what `seen` gives."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting; seen: {seen()}")
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
        """Every byte read."""
        self.written = bytearray()
        """Every byte written."""
        self.observations: list[Observation] = []
        self.write(protocol.connected(time.monotonic_ns()))

    def write(self, data: bytes) -> None:
        self.port.write(data)
        self.written += data

    def until(self, condition: Callable[[], object], timeout_s: float = WAIT_S) -> None:
        deadline = time.monotonic() + timeout_s
        while not condition():
            if time.monotonic() > deadline:
                raise AssertionError("timed out waiting")
            self.step()

    def step(self) -> None:
        out = self.protocol.due(time.monotonic_ns())
        if out:
            self.write(out)
        data = self.port.read(self.port.in_waiting or 1)
        if data:
            self.raw += data
            self.observations += self.protocol.receive(data, time.monotonic_ns())


def delivered(loop: Loop, board: PicoEmulator) -> None:
    """Waits until the board has taken in every byte the host wrote: the host may be
    identified by the board's boot HELLO before the board has read the host's
    HELLO_REQUEST, and a frame the board is told to miss must be one sent after that."""
    wait_for(lambda: len(board.rx_bytes) >= len(loop.written))


def host_frames(data: bytes) -> list[wire.Received]:
    """The frames the host wrote, each checked byte for byte against its own encoding, with
    the wake-up in front of every HELLO_REQUEST and nowhere else."""
    frames = []
    rest = data
    while rest:
        woken = rest.startswith(WAKE)
        rest = rest.removeprefix(WAKE)
        end = rest.index(bytes([wire.END]), 1) + 1
        frame, rest = rest[:end], rest[end:]
        (item,) = wire.Decoder().feed(frame)
        assert isinstance(item, wire.Received), (frame.hex(" "), item)
        assert frame == wire.encode(item.message, item.seq), frame.hex(" ")
        assert woken == isinstance(item.message, wire.HelloRequest), frame.hex(" ")
        frames.append(item)
    return frames


@pytest.mark.parametrize("lost", [0, 1], ids=["as-sent", "first-set-led-lost"])
def test_byte_for_byte_over_a_pty(pair: PtyPair, lost: int) -> None:
    """Every byte accounted for, in both directions. A loaded machine may make the host
    retry, as the protocol says it must: a command again, with the same number and bytes,
    after 250 ms without an answer; a HELLO_REQUEST again, with the next number, after a
    second without a HELLO; and, as after every HELLO, the LED mode again when a HELLO
    comes late. Those are allowed; any other byte is not. With `lost` the board
    misses the first SET_LED, so that a retry certainly happens."""
    with PicoEmulator(pair.device_path, boot_us=5_000_000) as board:
        loop = Loop(pair.host_path, PicoProtocol())
        try:
            loop.until(loop.protocol.identified)
            board.present(bytes.fromhex(NTAG))
            board.press(0)
            board.release(0)
            delivered(loop, board)
            board.ignore_next(lost)
            led = loop.protocol.set_led(3, "blink", 400)
            ping = loop.protocol.ping(b"\x03\xc0\xdb")
            loop.until(lambda: ping.done and led.done)
            board.remove()
            loop.until(lambda: any(isinstance(o, NoTag) for o in loop.observations))
            loop.until(lambda: loop.protocol.pending() == 0)
            delivered(loop, board)  # before either end closes
        finally:
            loop.port.close()
    assert board.rx_bytes == loop.written
    # What the host wrote: HELLO_REQUEST, SET_LED and PING, each numbered one more than
    # the one before, or again as it was (a retry).
    frames = host_frames(bytes(board.rx_bytes))
    assert frames[0].seq == 0
    for before, after in itertools.pairwise(frames):
        retry = (after.seq, after.message) == (before.seq, before.message)
        assert retry or after.seq == before.seq + 1, (before, after)
    said = [f.message for i, f in enumerate(frames) if i == 0 or f.seq != frames[i - 1].seq]
    asked = sum(isinstance(m, wire.HelloRequest) for m in said)
    assert said[:asked] == [wire.HelloRequest()] * asked
    set_led = wire.SetLed(3, wire.LED_BLINK, 400)
    assert said[asked : asked + 2] == [set_led, wire.Ping(b"\x03\xc0\xdb")]
    # The LED mode again for each HELLO that came after it was set: the answer to a retried
    # HELLO_REQUEST, or to the first one when the boot HELLO came late and was taken first.
    again = said[asked + 2 :]
    hellos = sum(isinstance(m, wire.Hello) for m in board.sent)
    assert again == [set_led] * len(again) and len(again) < hellos
    # The board took every frame but the one it was told to miss.
    taken = [frame.message for frame in frames]
    if lost:
        taken.remove(set_led)
    assert board.received == taken
    # What the host read is exactly the emulator's frames, numbered from 0: but for its
    # boot HELLO when it came before the host opened the port (pyserial's open flushes
    # input), and but for the heartbeats and answers to retries sent after it closed.
    sent = [wire.encode(m, i) for i, m in enumerate(board.sent)]
    first = 0 if bytes(loop.raw).startswith(sent[0]) else 1
    last = first + len(wire.Decoder().feed(bytes(loop.raw)))
    assert bytes(loop.raw) == b"".join(sent[first:last])
    unread = board.sent[last:]
    assert all(isinstance(m, wire.Heartbeat | wire.Ack) for m in unread), unread
    boot = board.sent[0]
    assert isinstance(boot, wire.Hello)
    assert boot == wire.Hello(1, (1, 0, 0), wire.READER_MFRC522, 4, 4, True, boot.uptime_us)
    assert board.leds[3] == (wire.LED_BLINK, 400)
    assert ping.echo == b"\x03\xc0\xdb"
    # The card, the press and the release, in that order; the card's refreshes (and
    # heartbeats naming it) may come between them on a slow machine.
    observed = loop.observations
    assert isinstance(observed[0], TagSeen) and isinstance(observed[-1], NoTag)
    assert all(o.tag == NTAG for o in observed if isinstance(o, TagSeen))
    edges = [(o.button, o.pressed) for o in observed if isinstance(o, ButtonSeen)]
    assert edges == [(0, True), (0, False)]
    assert {type(o) for o in observed} == {TagSeen, ButtonSeen, NoTag}
    assert loop.protocol.stats.bad_frames == loop.protocol.stats.lost_frames == 0
    assert loop.protocol.stats.retries >= lost


def test_corrupted_frames_and_garbage_over_a_pty(pair: PtyPair) -> None:
    with PicoEmulator(pair.device_path) as board:
        loop = Loop(pair.host_path, PicoProtocol())
        try:
            loop.until(loop.protocol.identified)
            delivered(loop, board)
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
    # A short wait for the ACK keeps the test short; on a loaded machine an answer can take
    # longer than that, so the host may try again beyond the two lost tries, and should not
    # give up before the answer comes.
    with PicoEmulator(pair.device_path) as board:
        loop = Loop(pair.host_path, PicoProtocol(ack_timeout_ns=50 * MS, retries=100))
        try:
            loop.until(loop.protocol.identified)
            delivered(loop, board)
            board.ignore_next(2)
            beep = loop.protocol.beep(80, 2500)
            loop.until(lambda: beep.done)
            # A try sent just before the ACK of the one before came may be on its way.
            delivered(loop, board)
        finally:
            loop.port.close()
    assert beep.state == "acked" and beep.tries >= 3
    assert board.beeps == [(80, 2500)]  # carried out once, however often it came
    # The two lost ones never came; every later try did.
    assert board.received.count(wire.Beep(80, 2500)) == beep.tries - 2


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


def make_reader(
    path: str, recorder: Recorder, runner: ClockRunner, **options: Any
) -> tuple[Any, PicoProtocol]:
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

    reader = CardReader(path, protocol, on_event=recorder.event, on_observation=observe, **options)
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
            # The board acknowledges a command, then carries it out (as the firmware does).
            wait_for(lambda: board.leds[0] == (wire.LED_ON, 0) and board.beeps == [(100, 2000)])

            board.corrupt_next(1)
            board.write_raw(b"\x00junk\xc0")
            board.remove()
            wait_for(lambda: len(recorder.events) == 2, seen=lambda: recorder.events)
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
        # The card lies on the reader throughout. A port reopened later than the usual 300 ms
        # silence (a busy machine) would rightly remove it: the silence here is longer than
        # all the waits below, so that only the tracker's living on across the gap is tested.
        silence_ns = round(6 * WAIT_S * 1e9)
        reader, protocol = make_reader(pair.host_path, recorder, runner, silence_ns=silence_ns)
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
