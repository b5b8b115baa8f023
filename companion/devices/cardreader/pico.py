"""The host's end of the Pico reader-and-buttons board: a sans-I/O ReaderProtocol.

    protocol = PicoProtocol()
    protocol.connected(t)          # wake-up + HELLO_REQUEST
    protocol.receive(data, t)      # [TagSeen(...), NoTag(...), ButtonSeen(...), BadFrame(...)]
    protocol.due(t)                # retries, queued commands, hello requests
    protocol.set_led(0, "blink")   # -> Command: queued, then sent, then acked (or failed)
    protocol.beep(120)
    protocol.device                # DeviceInfo once the board said HELLO
    protocol.clock                 # DeviceClock: device microseconds -> host nanoseconds

The wire format is picowire's (docs/pico-protocol.md). Until the board has said HELLO
since the port was opened, its CARD, BUTTON and HEARTBEAT frames are ignored: they were
written before anyone listened (its USB buffer keeps them), and the HELLO that answers the
host's HELLO_REQUEST is followed by the card on the reader, if any. What the board says becomes
observations: CARD present and its refreshes become TagSeen, a removal NoTag, a BUTTON
edge ButtonSeen (with the device's microsecond stamp; PicoButtons turns those into clock
presses), a frame that fails a check BadFrame. HELLO, HEARTBEAT, ACK, NAK and LOG are
handled here.

Commands are stop-and-wait: one in flight, acknowledged by its sequence number, sent again
after `ack_timeout_ns` up to `retries` times, then failed. They wait in a bounded queue
until the board has said HELLO. After every HELLO, the LEDs the host set are set again,
so a board that rebooted shows what the host wants.

`set_led`, `beep`, `ping` and `reset` may be called from any thread; `connected`,
`receive` and `due` are called by the reader shell's thread.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Literal

from companion.devices.cardreader import picowire as wire
from companion.devices.cardreader.events import (
    BadFrame,
    ButtonSeen,
    NoTag,
    Observation,
    TagSeen,
)

log = logging.getLogger(__name__)

WAKE = b"\r\x04"
"""Sent before a HELLO_REQUEST while the board has not said HELLO. To the firmware it is
one short bad frame; to a board left at the MicroPython REPL (a Ctrl-C from a terminal)
it is Enter and Ctrl-D, a soft reset, which starts the firmware again."""
ACK_TIMEOUT_NS = 250_000_000
RETRIES = 3
HELLO_RETRY_NS = 1_000_000_000
"""How often to ask for a HELLO (again) while the board has not given one."""
SILENT_NS = 3_500_000_000
"""A board silent this long (heartbeats come every second) is asked for a HELLO again."""
MAX_QUEUE = 32
CLOCK_WINDOW_NS = 30_000_000_000
MAX_LEAD_NS = 2_000_000_000
"""A stamp may name a moment after its frame arrived (on the clock's estimate) by this much
at most: the estimate is too early by the delay of the frame it came from, which is a
millisecond or so, or the time the host's thread was held up. Beyond it, the stamp jumped
forward: rejected."""
MAX_BACKSTEP_US = 2_000_000
"""An event's stamp may be earlier than the board's latest stamp by this much at most
(debouncing and its queue take milliseconds). Beyond it, the stamp jumped backward."""

CommandState = Literal["queued", "sent", "acked", "refused", "failed", "dropped"]
LedMode = Literal["off", "on", "blink"]
_LED_MODES: dict[str, int] = {"off": wire.LED_OFF, "on": wire.LED_ON, "blink": wire.LED_BLINK}
READERS = {wire.READER_NONE: "none", wire.READER_MFRC522: "mfrc522"}
NAK_REASONS = {
    wire.NAK_UNKNOWN_TYPE: "unknown command",
    wire.NAK_BAD_PAYLOAD: "bad payload",
    wire.NAK_OUT_OF_RANGE: "out of range",
    wire.NAK_UNSUPPORTED: "not supported by this board",
    wire.NAK_VERSION: "unsupported protocol version",
}


@dataclass(frozen=True, slots=True)
class DeviceInfo:
    """What the board said in its HELLO."""

    protocol: int
    firmware: tuple[int, int, int]
    reader: str
    """'mfrc522', 'none', or 'unknown N'."""
    buttons: int
    leds: int
    buzzer: bool

    @property
    def firmware_version(self) -> str:
        return ".".join(str(part) for part in self.firmware)


@dataclass(eq=False, slots=True)
class Command:
    """One host command and how it went. Read it from any thread; only the protocol
    changes it."""

    message: wire.Message
    seq: int
    state: CommandState = "queued"
    tries: int = 0
    reason: str = ""
    """Why it was refused (the NAK's reason), failed or dropped."""
    echo: bytes = b""
    """A PING's echo, from its ACK."""
    sent_ns: int | None = None
    """When it was last sent."""
    done_ns: int | None = None

    @property
    def done(self) -> bool:
        return self.state not in ("queued", "sent")


@dataclass(slots=True)
class PicoStats:
    frames: int = 0
    bad_frames: int = 0
    lost_frames: int = 0
    """Frames missing by their sequence numbers (bad frames among them)."""
    hellos: int = 0
    reboots: int = 0
    retries: int = 0
    acked: int = 0
    refused: int = 0
    failed: int = 0
    dropped_commands: int = 0
    stale: int = 0
    bad_stamps: int = 0
    """Stamped frames (HELLO, HEARTBEAT, CARD, BUTTON) rejected because their stamp jumped
    beyond what the link allows (see DeviceClock.vet); each is also a BadFrame."""
    resyncs: int = 0
    """Times the board's time base was started again from frames that agreed with each
    other and not with it."""
    """CARD, BUTTON and HEARTBEAT frames before the HELLO: sent before the host listened
    (the board's USB buffer keeps its last bytes while no host is there), so ignored."""
    stray_replies: int = 0
    """ACKs and NAKs for no command in flight (a late answer to a retried command)."""
    device_dropped: int = 0
    """Events the board's queue dropped, from its last heartbeat."""
    device_rx_bad: int = 0
    """Host frames the board could not use, from its last heartbeat."""
    logs: list[tuple[int, str]] = field(default_factory=list)
    """The board's LOG lines, the last 50."""


class DeviceClock:
    """Maps the board's microsecond uptime onto the host's monotonic nanoseconds.

    Every stamped frame gives a sample: it arrived at host time `t_ns`, so the moment it
    names (`device_us`) was at most `t_ns`, and `t_ns - device_us * 1000` is an upper bound
    on the offset between the clocks, too big by that frame's delay (USB polling, the
    reader thread's read timeout, debouncing for an edge). The smallest bound seen is the
    best estimate: the frame that travelled fastest. Heartbeats (every second, sent the
    moment they are stamped) keep it fresh.

    The crystals drift apart (tens of ppm), so only samples from the last `window_ns` (30 s:
    about 1 ms of drift at 30 ppm) count. A HELLO whose uptime is smaller than one before
    means the board rebooted: the samples are forgotten and `epoch` goes up, so that
    PicoButtons forgets the old boot's button times too.

    **Sanity.** Before a stamp is used, `vet()` checks it against the time base: a stamp
    that names a moment after its frame's arrival by more than `MAX_LEAD_NS`, or (for an
    event) one more than `MAX_BACKSTEP_US` before the board's latest stamp, jumped: it is
    rejected, so one wild stamp can neither drag the offset years away nor make every later
    press look older than it. If the next stamp jumps too, and agrees with the rejected one
    (the time between them fits the host time between their arrivals), the time base was
    the one that was wrong (a board whose first frame waited in a buffer, say): it is
    forgotten and started again from those frames (`resyncs`, a new epoch).

    Thread-safe: the reader thread samples it, any thread may map through it.
    """

    def __init__(self, window_ns: int = CLOCK_WINDOW_NS) -> None:
        if window_ns <= 0:
            raise ValueError("the clock's window must be more than 0")
        self.window_ns = window_ns
        self.epoch = 0
        self._samples: deque[tuple[int, int]] = deque()
        """(t_ns, offset_ns), offsets increasing: the front is the window's minimum."""
        self._uptime_us: int | None = None
        self._latest_us: int | None = None
        """The latest stamp taken in this epoch."""
        self._suspect: tuple[int, int] | None = None
        """The last stamp rejected, (device_us, t_ns), while no good one has come since."""
        self.resyncs = 0
        self._lock = threading.Lock()

    def vet(self, device_us: int, t_ns: int, *, event: bool = True) -> str | None:
        """Why the stamp `device_us` of a frame that arrived at `t_ns` cannot be used (it
        jumped), or None when it can. An `event`'s stamp (a button edge, a card read) must
        also not step back; a HELLO's or HEARTBEAT's may (a smaller uptime is a reboot)."""
        with self._lock:
            why = self._jump(device_us, t_ns, event)
            if why is None:
                self._suspect = None
                return None
            suspect, self._suspect = self._suspect, (device_us, t_ns)
            if suspect is None or not _agree(suspect, (device_us, t_ns)):
                return why
            # Two frames in a row agree with each other, not with the time base: it is the
            # base that was wrong. Start again from them.
            self._suspect = None
            self.resyncs += 1
        self.restart()
        self.observe(suspect[0], suspect[1])
        return None

    def _jump(self, device_us: int, t_ns: int, event: bool) -> str | None:
        if self._samples:
            lead = device_us * 1000 + self._samples[0][1] - t_ns
            if lead > MAX_LEAD_NS:
                return f"jumped forward ({lead / 1e9:.3g} s after its arrival)"
        latest = self._latest_us
        if event and latest is not None and device_us < latest - MAX_BACKSTEP_US:
            return f"jumped backward ({(latest - device_us) / 1e6:.3g} s before the latest)"
        return None

    def boot_check(self, uptime_us: int) -> bool:
        """Given a HELLO's or HEARTBEAT's uptime: True (and a new epoch) if the board has
        rebooted since the last one."""
        with self._lock:
            rebooted = self._uptime_us is not None and uptime_us < self._uptime_us
            self._uptime_us = uptime_us
        if rebooted:
            self.restart()
        return rebooted

    def restart(self) -> None:
        """The board's clock started again: forget every sample, start a new epoch."""
        with self._lock:
            self._samples.clear()
            self._latest_us = None
            self._suspect = None
            self.epoch += 1

    def observe(self, device_us: int, t_ns: int) -> None:
        """A frame naming `device_us` arrived at `t_ns`."""
        offset = t_ns - device_us * 1000
        with self._lock:
            samples = self._samples
            while samples and samples[-1][1] >= offset:
                samples.pop()
            samples.append((t_ns, offset))
            while samples[0][0] < t_ns - self.window_ns:
                samples.popleft()
            if self._latest_us is None or device_us > self._latest_us:
                self._latest_us = device_us

    @property
    def offset_ns(self) -> int | None:
        """host ns = device us * 1000 + offset_ns; None before any sample."""
        with self._lock:
            return self._samples[0][1] if self._samples else None

    def to_host_ns(self, device_us: int, arrival_ns: int) -> int:
        """The host time of `device_us`, never later than `arrival_ns`, the arrival of the
        frame that named it; `arrival_ns` itself before any sample."""
        offset = self.offset_ns
        if offset is None:
            return arrival_ns
        return min(device_us * 1000 + offset, arrival_ns)


def _agree(first: tuple[int, int], then: tuple[int, int]) -> bool:
    """Whether stamp `then` follows stamp `first` as the host time between their arrivals
    allows: (device_us, t_ns) each."""
    elapsed_ns = then[1] - first[1]
    step_ns = (then[0] - first[0]) * 1000
    return -MAX_BACKSTEP_US * 1000 <= step_ns <= elapsed_ns + MAX_LEAD_NS


class PicoProtocol:
    name = "pico"
    baudrate = 115200
    """Ignored by the Pico's USB serial; any rate works."""

    def __init__(
        self,
        *,
        ack_timeout_ns: int = ACK_TIMEOUT_NS,
        retries: int = RETRIES,
        max_queue: int = MAX_QUEUE,
        clock: DeviceClock | None = None,
    ) -> None:
        if ack_timeout_ns <= 0 or retries < 0 or max_queue < 1:
            raise ValueError("ack_timeout_ns and max_queue must be positive, retries >= 0")
        self.ack_timeout_ns = ack_timeout_ns
        self.retries = retries
        self.max_queue = max_queue
        self.clock = clock if clock is not None else DeviceClock()
        self.stats = PicoStats()
        self.device: DeviceInfo | None = None
        """What the board said in its last HELLO since the port was (re)opened."""
        self.card: str | None = None
        """The tag on the reader, as the board last reported it."""
        self._lock = threading.RLock()
        self._decoder = wire.Decoder()
        self._seq = 0
        self._queue: deque[Command] = deque()
        self._in_flight: Command | None = None
        self._hello_asked_ns: int | None = None
        self._last_rx_ns: int | None = None
        self._device_seq: int | None = None
        self._leds: dict[int, wire.SetLed] = {}
        self._after_hello = False
        """Whether the last frame was a HELLO: the CARD that follows may be an old read."""

    # ---- ReaderProtocol ----------------------------------------------------------------------

    def connected(self, t_ns: int) -> bytes:
        with self._lock:
            self._decoder.reset()
            self.device = None
            self._device_seq = None
            self._last_rx_ns = None
            if self._in_flight is not None:  # send it again once the board is back
                self._in_flight.state = "queued"
                self._queue.appendleft(self._in_flight)
                self._in_flight = None
            return self._ask_hello(t_ns)

    def identified(self) -> bool:
        """Whether the board has said HELLO since the port was (re)opened."""
        return self.device is not None

    def receive(self, data: bytes, t_ns: int) -> list[Observation]:
        observations: list[Observation] = []
        with self._lock:
            for item in self._decoder.feed(data):
                if isinstance(item, wire.WireError):
                    self.stats.bad_frames += 1
                    observations.append(BadFrame(item.reason, t_ns))
                    continue
                self.stats.frames += 1
                self._last_rx_ns = t_ns
                self._count_seq(item)
                observation = self._handle(item.message, t_ns)
                if observation is not None:
                    observations.append(observation)
        return observations

    def due(self, t_ns: int) -> bytes:
        with self._lock:
            if self.device is not None and self._silent(t_ns):
                log.warning(
                    "the Pico board was silent for %.1f s: asking it again", SILENT_NS / 1e9
                )
                self.device = None
                self._hello_asked_ns = None
            if self.device is None:
                if self._hello_asked_ns is None or t_ns - self._hello_asked_ns >= HELLO_RETRY_NS:
                    return self._ask_hello(t_ns)
                return b""
            out = bytearray()
            command = self._in_flight
            if (
                command is not None
                and command.sent_ns is not None
                and t_ns - command.sent_ns >= self.ack_timeout_ns
            ):
                if command.tries <= self.retries:
                    self.stats.retries += 1
                    out += self._send(command, t_ns)
                else:
                    self._finish(command, "failed", t_ns, "no answer")
            if self._in_flight is None and self._queue:
                out += self._send(self._queue.popleft(), t_ns)
            return bytes(out)

    # ---- commands ----------------------------------------------------------------------------

    def set_led(self, index: int, mode: LedMode | int, period_ms: int = 0) -> Command:
        """LED `index` (or wire.ALL_LEDS) off, on, or blinking with a whole period of
        `period_ms` (0: the board's default, 500 ms)."""
        code = _LED_MODES.get(mode) if isinstance(mode, str) else mode
        if code not in _LED_MODES.values():
            raise ValueError(f"LED mode must be off, on or blink (0, 1, 2), got {mode!r}")
        assert code is not None
        message = wire.SetLed(index, code, period_ms)
        with self._lock:
            if index == wire.ALL_LEDS:
                self._leds.clear()
            self._leds[index] = message
            return self._enqueue(message)

    def beep(self, duration_ms: int, frequency_hz: int = 0) -> Command:
        """The buzzer for `duration_ms` (0 stops it) at `frequency_hz` (0: 2 kHz)."""
        return self._enqueue(wire.Beep(duration_ms, frequency_hz))

    def ping(self, data: bytes = b"") -> Command:
        """A round trip; the ACK echoes `data` (at most 16 bytes) into `Command.echo`."""
        return self._enqueue(wire.Ping(data))

    def reset(self, *, reboot: bool = False) -> Command:
        """Outputs off and a new HELLO, or (reboot=True) a reboot of the board."""
        mode = wire.RESET_REBOOT if reboot else wire.RESET_OUTPUTS
        with self._lock:
            self._leds.clear()
            return self._enqueue(wire.Reset(mode))

    def pending(self) -> int:
        """Commands queued or in flight."""
        with self._lock:
            return len(self._queue) + (self._in_flight is not None)

    def alive(self, t_ns: int) -> bool:
        """Whether the board said HELLO and has been heard from lately."""
        with self._lock:
            return self.device is not None and not self._silent(t_ns)

    # ---- inside ------------------------------------------------------------------------------

    def _next_seq(self) -> int:
        seq = self._seq
        self._seq = (seq + 1) & 0xFF
        return seq

    def _ask_hello(self, t_ns: int) -> bytes:
        self._hello_asked_ns = t_ns
        return WAKE + wire.encode(wire.HelloRequest(), self._next_seq())

    def _silent(self, t_ns: int) -> bool:
        return self._last_rx_ns is not None and t_ns - self._last_rx_ns >= SILENT_NS

    def _enqueue(self, message: wire.Message) -> Command:
        with self._lock:
            command = Command(message, self._next_seq())
            if len(self._queue) >= self.max_queue:
                oldest = self._queue.popleft()
                self._finish(oldest, "dropped", None, "queue full")
            self._queue.append(command)
            return command

    def _send(self, command: Command, t_ns: int) -> bytes:
        command.state = "sent"
        command.tries += 1
        command.sent_ns = t_ns
        self._in_flight = command
        return wire.encode(command.message, command.seq)

    def _finish(self, command: Command, state: CommandState, t_ns: int | None, why: str) -> None:
        command.state = state
        command.reason = why
        command.done_ns = t_ns
        if self._in_flight is command:
            self._in_flight = None
        if state == "acked":
            self.stats.acked += 1
        elif state == "refused":
            self.stats.refused += 1
        elif state == "failed":
            self.stats.failed += 1
        elif state == "dropped":
            self.stats.dropped_commands += 1
        if state in ("refused", "failed", "dropped"):
            log.warning("Pico command %r %s: %s", command.message, state, why)

    def _count_seq(self, item: wire.Received) -> None:
        expected = self._device_seq
        self._device_seq = item.seq
        if expected is None or isinstance(item.message, wire.Hello):
            return  # a HELLO may come from a board that just started counting from 0
        missing = (item.seq - expected - 1) & 0xFF
        self.stats.lost_frames += missing

    def _handle(self, message: wire.Message, t_ns: int) -> Observation | None:
        after_hello, self._after_hello = self._after_hello, isinstance(message, wire.Hello)
        if self.device is None and isinstance(message, wire.Card | wire.Button | wire.Heartbeat):
            self.stats.stale += 1  # the HELLO that answers our request names the card anyway
            return None
        jumped = self._vet(message, t_ns, after_hello)
        if jumped is not None:
            return jumped
        if isinstance(message, wire.Card):
            self.clock.observe(message.t_us, t_ns)
            tag = wire.uid_hex(message.uid)
            at = self.clock.to_host_ns(message.t_us, t_ns)
            if message.present:
                self.card = tag
                return TagSeen(tag, at)
            if self.card is not None and self.card != tag:
                return None  # the removal of a card already replaced: nothing to say
            self.card = None
            return NoTag(at)
        if isinstance(message, wire.Button):
            self.clock.observe(message.t_us, t_ns)
            return ButtonSeen(message.index, message.pressed, message.t_us, t_ns)
        if isinstance(message, wire.Heartbeat):
            self._heartbeat(message, t_ns)
            if message.uid:  # the card is still there: as good as a refresh
                self.card = wire.uid_hex(message.uid)
                return TagSeen(self.card, t_ns)
            if self.card is not None:  # its removal was lost: the heartbeat says it is gone
                self.card = None
                return NoTag(t_ns)
            return None
        if isinstance(message, wire.Hello):
            self._hello(message, t_ns)
        elif isinstance(message, wire.Ack | wire.Nak):
            self._reply(message, t_ns)
        elif isinstance(message, wire.Log):
            self.stats.logs = [*self.stats.logs[-49:], (message.level, message.text)]
            level = logging.INFO if message.level == wire.LOG_INFO else logging.WARNING
            log.log(level, "Pico board: %s", message.text)
        else:  # a host -> device type coming back
            return BadFrame(f"a {message.NAME} from the board: is the line echoing?", t_ns)
        return None

    def _vet(self, message: wire.Message, t_ns: int, after_hello: bool) -> BadFrame | None:
        """A BadFrame (counted in `bad_stamps`) for a frame whose stamp jumped, else None."""
        if isinstance(message, wire.Card | wire.Button):
            stamp = message.t_us
            # The card the board names right after its HELLO may have lain there for long.
            replay = isinstance(message, wire.Card) and message.present and after_hello
            why = self.clock.vet(stamp, t_ns, event=not replay)
        elif isinstance(message, wire.Hello | wire.Heartbeat):
            stamp = message.uptime_us
            why = self.clock.vet(stamp, t_ns, event=False)
        else:
            return None
        self.stats.resyncs = self.clock.resyncs
        if why is None:
            return None
        self.stats.bad_stamps += 1
        log.warning("Pico %s rejected: its stamp %d us %s", message.NAME, stamp, why)
        return BadFrame(f"pico: {message.NAME} stamp {why}", t_ns)

    def _heartbeat(self, message: wire.Heartbeat, t_ns: int) -> None:
        if self.clock.boot_check(message.uptime_us):
            self.stats.reboots += 1
        self.clock.observe(message.uptime_us, t_ns)
        self.stats.device_dropped = message.dropped
        self.stats.device_rx_bad = message.rx_bad

    def _hello(self, message: wire.Hello, t_ns: int) -> None:
        self.stats.hellos += 1
        if self.clock.boot_check(message.uptime_us):
            self.stats.reboots += 1
            log.info("the Pico board rebooted")
        self.clock.observe(message.uptime_us, t_ns)
        reader = READERS.get(message.reader, f"unknown {message.reader}")
        self.device = DeviceInfo(
            message.protocol,
            message.firmware,
            reader,
            message.buttons,
            message.leds,
            message.buzzer,
        )
        # Whatever the board shows now (after a reboot: nothing), show what the host wants.
        wanted = [m for i, m in self._leds.items() if i == wire.ALL_LEDS or i < message.leds]
        queued = {id(c.message) for c in self._queue}
        for led in wanted:
            if id(led) not in queued:
                self._enqueue(led)

    def _reply(self, message: wire.Ack | wire.Nak, t_ns: int) -> None:
        command = self._in_flight
        if message.command == wire.HELLO_REQUEST:
            return  # the HELLO that follows is what counts (and an earlier ask's is harmless)
        answers = (message.seq, message.command)
        if command is None or (command.seq, command.message.TYPE) != answers:
            self.stats.stray_replies += 1
            return
        if isinstance(message, wire.Ack):
            command.echo = message.data
            self._finish(command, "acked", t_ns, "")
        else:
            why = NAK_REASONS.get(message.reason, f"reason {message.reason}")
            self._finish(command, "refused", t_ns, why)

    def __repr__(self) -> str:
        return "PicoProtocol()"
