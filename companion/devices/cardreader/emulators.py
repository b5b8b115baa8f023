"""Byte-exact emulators of the RDM6300 and the PN532, for tests, benchmarks and demos.

Each opens the device end of a serial line (a PtyPair's `device_path`) with pyserial and
runs a thread that behaves as the module would:

    with PtyPair() as pair, Rdm6300Emulator(pair.device_path) as card_reader:
        card_reader.present("0A1B2C3D4E")    # its frame, again every repeat_s
        card_reader.remove()

    with PtyPair() as pair, Pn532Emulator(pair.device_path) as nfc:
        nfc.present("04A224B2C12A81")        # InListPassiveTarget now names this UID
        nfc.corrupt_next(2)                  # the next 2 responses fail their checksum
        nfc.nack_next(1)                     # the next command gets a NACK, not an answer
        nfc.inject_garbage(b"\\xff\\x00")     # written just before the next response

An emulator whose port fails (PtyPair.unplug) opens it again as soon as it is back.
`write_raw(data)` writes bytes as they are, for tests that feed noise or broken frames.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

import serial

from companion.devices.cardreader import pn532
from companion.devices.cardreader.rdm6300 import encode_frame
from vision.common.closing import Closing

POLL_S = 0.005
"""How long an emulator's read waits: how late it may answer or notice a failing port."""
WRITE_TIMEOUT_S = 2.0
RAW_CHUNK = 4096


class Emulator(Closing):
    """The thread, the port and its reopening; subclasses say what one step does."""

    baudrate = 9600
    poll_s = POLL_S
    """How long a read waits: how late the emulator may answer or notice a failing port."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.RLock()
        """Held for every write, so that a response never has raw bytes in its middle."""
        self._port: Any = None
        self._stop = threading.Event()
        self._wake = threading.Event()
        self.reopens = 0
        self._open()  # a path that does not exist fails here, in the caller
        self._before_thread()
        self._thread = threading.Thread(
            target=self._run, name=f"{type(self).__name__} {path}", daemon=True
        )
        self._thread.start()

    def write_raw(self, data: bytes) -> None:
        """Writes `data` as it is (in chunks: a response may come between two chunks).
        Waits up to a second for a port that is being reopened."""
        for offset in range(0, len(data), RAW_CHUNK):
            self._write(data[offset : offset + RAW_CHUNK], wait_s=1.0)

    def close(self) -> None:
        """Stops the thread and closes the port. Safe to call more than once."""
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join()
        with self._lock:
            self._drop_port()

    # ---- for subclasses ----------------------------------------------------------------------

    def _before_thread(self) -> None:
        """What the device does as soon as its port is open, before its loop starts."""

    def _step(self, port: Any) -> None:
        """One round of the thread's loop, with an open port."""
        raise NotImplementedError

    def _write(self, data: bytes, *, wait_s: float = 0.0) -> None:
        deadline = time.monotonic() + wait_s
        while True:
            with self._lock:
                port = self._port
                if port is not None:
                    try:
                        port.write(data)
                        return
                    except serial.SerialTimeoutException:
                        return  # nobody reads the host end: the bytes are lost, as on a wire
                    except (serial.SerialException, OSError):
                        self._drop_port()
            if time.monotonic() >= deadline or self._stop.is_set():
                raise serial.SerialException(f"{self.path} is not open")
            time.sleep(0.01)

    # ---- the thread --------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            port = self._port
            if port is None:
                try:
                    self._open()
                    self.reopens += 1
                except (serial.SerialException, OSError):
                    self._stop.wait(0.02)
                continue
            try:
                self._step(port)
            except (serial.SerialException, OSError):
                with self._lock:
                    if self._port is port:
                        self._drop_port()

    def _open(self) -> None:
        port = serial.Serial(
            self.path, self.baudrate, timeout=self.poll_s, write_timeout=WRITE_TIMEOUT_S
        )
        with self._lock:
            self._port = port

    def _drop_port(self) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()


class Rdm6300Emulator(Emulator):
    """An RDM6300: while a tag is present, its frame goes out at once and then every
    `repeat_s`. Bytes from the host are read and ignored (the module has no input)."""

    baudrate = 9600

    def __init__(self, path: str, repeat_s: float = 0.1) -> None:
        if repeat_s <= 0:
            raise ValueError("repeat_s must be more than 0")
        self.repeat_s = repeat_s
        self._frame: bytes | None = None
        self._next_at = 0.0
        self.frames_sent = 0
        super().__init__(path)

    def present(self, tag: str) -> None:
        """A card with this EM4100 id (10 hex digits) is laid on the antenna."""
        frame = encode_frame(tag)
        with self._lock:
            self._frame = frame
            self._next_at = time.monotonic()
        self._wake.set()

    def remove(self) -> None:
        with self._lock:
            self._frame = None

    def _step(self, port: Any) -> None:
        with self._lock:
            frame = self._frame
            due = frame is not None and time.monotonic() >= self._next_at
            if due:
                self._next_at = time.monotonic() + self.repeat_s
        if due and frame is not None:
            self._write(frame)
            self.frames_sent += 1
        if port.in_waiting:  # also how a failed port shows itself (OSError)
            port.read(port.in_waiting)
        self._wake.wait(POLL_S)
        self._wake.clear()


FIRMWARE_VERSION = bytes([0x03, 0x32, 0x01, 0x06, 0x07])
"""GetFirmwareVersion's answer: IC PN532, version 1.6, ISO 14443A/B and ISO 18092."""
ERROR_FRAME = b"\x00\x00\xff\x01\xff\x7f\x81\x00"


class Pn532Emulator(Emulator):
    """A PN532 in HSU mode: ACK and answer each valid command frame from the host.

    It knows SAMConfiguration, RFConfiguration, GetFirmwareVersion and
    InListPassiveTarget (the present UID, or no target); any other command gets the error
    frame. A host frame that fails a checksum is ignored, as the chip does; a NACK from the
    host makes it send its last response again; an ACK from the host (abort) is ignored.
    """

    baudrate = 115200

    def __init__(self, path: str) -> None:
        self._uid: bytes | None = None
        self._buffer = bytearray()
        self._last_response = b""
        self._corrupt = 0
        self._nacks = 0
        self._garbage = b""
        self.muted = False
        """When set, commands are read and counted but nothing answers (a dead chip)."""
        self.commands: list[int] = []
        """Every command code received, in order."""
        self.bad_commands = 0
        self.tag_answered_ns: int | None = None
        """time.monotonic_ns() when the first response naming the present UID was written."""
        super().__init__(path)

    def present(self, uid: str) -> None:
        """A card with this UID (8, 14 or 20 hex digits: 4, 7 or 10 bytes) enters the field."""
        data = bytes.fromhex(uid)
        if len(data) not in (4, 7, 10):
            raise ValueError(f"a UID has 4, 7 or 10 bytes, got {uid!r}")
        with self._lock:
            self._uid = data
            self.tag_answered_ns = None

    def remove(self) -> None:
        with self._lock:
            self._uid = None

    def corrupt_next(self, count: int) -> None:
        """The next `count` responses go out with a wrong data checksum."""
        with self._lock:
            self._corrupt = count

    def nack_next(self, count: int) -> None:
        """The next `count` commands are answered with a NACK instead of ACK + response."""
        with self._lock:
            self._nacks = count

    def inject_garbage(self, data: bytes) -> None:
        """`data` goes out just before the next response."""
        with self._lock:
            self._garbage += data

    def _step(self, port: Any) -> None:
        data = port.read(port.in_waiting or 1)
        if not data:
            return
        self._buffer += data
        buffer = self._buffer
        while True:
            start = buffer.find(pn532.START)
            if start < 0:
                del buffer[: max(0, len(buffer) - 1)]
                return
            header = buffer[start + 2 : start + 4]
            if len(header) < 2:
                del buffer[:start]
                return
            length, lcs = header
            if (length, lcs) == (0x00, 0xFF):  # ACK from the host: abort; nothing to do
                del buffer[: start + 4]
                continue
            if (length, lcs) == (0xFF, 0x00):  # NACK: send the last response again
                del buffer[: start + 4]
                if self._last_response:
                    self._write(self._last_response)
                continue
            if (length + lcs) & 0xFF or length == 0:
                self.bad_commands += 1
                del buffer[: start + 2]
                continue
            if len(buffer) < start + 4 + length + 1:
                del buffer[:start]
                return
            body = bytes(buffer[start + 4 : start + 4 + length])
            dcs = buffer[start + 4 + length]
            if (sum(body) + dcs) & 0xFF or body[0] != pn532.HOST_TFI or len(body) < 2:
                self.bad_commands += 1
                del buffer[: start + 2]
                continue
            del buffer[: start + 4 + length + 1]
            self._command(body[1], body[2:])

    def _command(self, code: int, data: bytes) -> None:
        self.commands.append(code)
        with self._lock:
            if self.muted:
                return
            if self._nacks > 0:
                self._nacks -= 1
                self._write(pn532.NACK)
                return
            uid = self._uid
            if code in (pn532.SAM_CONFIGURATION, pn532.RF_CONFIGURATION):
                response = self._response(bytes([code + 1]))
            elif code == 0x02:
                response = self._response(FIRMWARE_VERSION)
            elif code == pn532.IN_LIST_PASSIVE_TARGET:
                response = pn532.target_response(uid)
            else:
                response = ERROR_FRAME
            self._last_response = response
            if self._corrupt > 0 and response != ERROR_FRAME:
                self._corrupt -= 1
                response = response[:-2] + bytes([response[-2] ^ 0x5A]) + response[-1:]
            garbage, self._garbage = self._garbage, b""
            self._write(pn532.ACK + garbage + response)
            tag_answer = uid is not None and code == pn532.IN_LIST_PASSIVE_TARGET
            if tag_answer and self.tag_answered_ns is None:
                self.tag_answered_ns = time.monotonic_ns()

    @staticmethod
    def _response(payload: bytes) -> bytes:
        return pn532.frame(payload, pn532.DEVICE_TFI)
