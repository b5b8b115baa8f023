"""The reader shell: one thread that drives a ReaderProtocol over a serial port.

    with CardReader("/dev/serial0", Rdm6300(), on_event=events.put) as reader:
        reader.start()              # opens the port now: a missing port raises here
        ...                         # CardPresented / CardRemoved arrive on events
    reader.stats                    # ReaderStats(frames=..., bad_frames=..., ...)

The thread opens the port at the protocol's baud rate, sends what `connected()` asks,
then loops: send what `due()` asks, read what arrived, time it, feed it to the protocol,
and pass every observation to a PresenceTracker, which decides when a card arrives and
leaves. `on_event` and `on_observation` run on that thread: keep them quick.

When the port fails (a USB-serial adapter pulled out, a cable cut), the thread closes it
and tries to open it again every `reopen_s`, then sends `connected()` again. The tracker
lives on across the gap, so a card that lies on the reader all along is not presented
twice, and one taken away meanwhile is removed after the silence, as always.

Tag ids are logged at DEBUG only: until a card is checked, which card it is stays private.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import serial

from companion.devices.cardreader.events import (
    BadFrame,
    CardEvent,
    Observation,
    TagSeen,
)
from companion.devices.cardreader.presence import DEFAULT_SILENCE_NS, PresenceTracker
from companion.devices.cardreader.protocol import ReaderProtocol
from vision.common.closing import Closing

log = logging.getLogger(__name__)

READ_TIMEOUT_S = 0.02
"""How long one read waits for a first byte: the longest a `due()` can be late."""
WRITE_TIMEOUT_S = 0.05
"""A write that cannot go out (nothing reads the far end) is dropped after this."""

OnEvent = Callable[[CardEvent], object]
OnObservation = Callable[[Observation], object]
SerialFactory = Callable[..., Any]
"""Makes an open port: called as factory(port, baudrate=..., timeout=..., write_timeout=...)."""


@dataclass(frozen=True, slots=True)
class ReaderStats:
    frames: int
    """Good frames: every observation but BadFrame."""
    bad_frames: int
    """Frames that failed a check and were dropped."""
    reconnects: int
    """How often the port was opened again after failing."""
    bytes_read: int
    connected: bool
    """Whether the port is open now."""


class CardReader(Closing):
    def __init__(
        self,
        port: str,
        protocol: ReaderProtocol,
        *,
        on_event: OnEvent,
        on_observation: OnObservation | None = None,
        silence_ns: int = DEFAULT_SILENCE_NS,
        clock_ns: Callable[[], int] = time.monotonic_ns,
        reopen_s: float = 0.1,
        serial_factory: SerialFactory = serial.serial_for_url,
    ) -> None:
        if reopen_s <= 0:
            raise ValueError("the time between attempts to reopen the port must be more than 0")
        self.port = port
        self.protocol = protocol
        self.tracker = PresenceTracker(protocol.name, silence_ns)
        self._on_event = on_event
        self._on_observation = on_observation
        self._clock_ns = clock_ns
        self._reopen_s = reopen_s
        self._serial_factory = serial_factory
        self._serial: Any = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._frames = 0
        self._bad_frames = 0
        self._reconnects = 0
        self._bytes_read = 0

    @property
    def stats(self) -> ReaderStats:
        return ReaderStats(
            frames=self._frames,
            bad_frames=self._bad_frames,
            reconnects=self._reconnects,
            bytes_read=self._bytes_read,
            connected=self._serial is not None,
        )

    def start(self) -> None:
        """Opens the port and starts the thread. A port that cannot be opened now raises
        serial.SerialException (or OSError); once started, a failing port is reopened."""
        if self._thread is not None or self._stop.is_set():
            raise RuntimeError("a CardReader starts once, and not after close()")
        self._open()
        log.info("%s reader on %s", self.protocol.name, self.port)
        self._thread = threading.Thread(
            target=self._run, name=f"card-reader {self.port}", daemon=True
        )
        self._thread.start()

    def close(self) -> None:
        """Stops the thread (waiting for it) and closes the port. Safe to call twice."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join()
        self._close_port()

    # ---- the thread ------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._serial is None:
                self._tick()
                if self._stop.wait(self._reopen_s):
                    return
                self._reopen()
                continue
            try:
                self._exchange()
            except (serial.SerialException, OSError) as err:
                log.warning("lost %s (%s); trying to reopen it", self.port, err)
                self._close_port()
                continue
            self._tick()

    def _exchange(self) -> None:
        """One round: send what is due, read what came, hand it to the protocol."""
        port = self._serial
        outgoing = self.protocol.due(self._clock_ns())
        if outgoing:
            self._write(outgoing)
        waiting = port.in_waiting
        data = port.read(waiting or 1)
        t_ns = self._clock_ns()  # the bytes' time: right after the read returns
        if data:
            self._bytes_read += len(data)
            for observation in self.protocol.receive(data, t_ns):
                self._observe(observation)

    def _observe(self, observation: Observation) -> None:
        if isinstance(observation, BadFrame):
            self._bad_frames += 1
            log.debug("bad frame on %s: %s", self.port, observation.reason)
        else:
            self._frames += 1
            if isinstance(observation, TagSeen):
                log.debug("tag %s on %s", observation.tag, self.port)
        if self._on_observation is not None:
            self._call(self._on_observation, observation)
        for event in self.tracker.observe(observation):
            self._call(self._on_event, event)

    def _tick(self) -> None:
        for event in self.tracker.tick(self._clock_ns()):
            self._call(self._on_event, event)

    def _call(self, callback: Callable[[Any], object], argument: object) -> None:
        try:
            callback(argument)
        except Exception:
            # A listener's bug must not stop the reader: the next card still has to count.
            log.exception("card reader listener failed")

    # ---- the port --------------------------------------------------------------------------

    def _open(self) -> None:
        port = self._serial_factory(
            self.port,
            baudrate=self.protocol.baudrate,
            timeout=READ_TIMEOUT_S,
            write_timeout=WRITE_TIMEOUT_S,
        )
        self._serial = port
        try:
            self._write(self.protocol.connected(self._clock_ns()))
        except BaseException:
            self._close_port()
            raise

    def _reopen(self) -> None:
        try:
            self._open()
        except (serial.SerialException, OSError) as err:
            log.debug("cannot reopen %s yet: %s", self.port, err)
            return
        self._reconnects += 1
        log.info("reopened %s", self.port)

    def _write(self, data: bytes) -> None:
        if not data:
            return
        try:
            self._serial.write(data)
        except serial.SerialTimeoutException:
            # Nothing drains the far end (a device end not open yet): drop it; a protocol
            # that needs an answer sends again when it times out.
            log.debug("write to %s timed out; %d bytes dropped", self.port, len(data))

    def _close_port(self) -> None:
        port, self._serial = self._serial, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    def __repr__(self) -> str:
        return f"CardReader({self.port!r}, {self.protocol!r})"
