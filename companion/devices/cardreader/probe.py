"""Which reader answers on a port: talk one protocol on it for a while and see whether the
device there identifies itself (`companion reader detect`, `companion doctor`).

    found, what = probe("/dev/ttyUSB0", "pn532", timeout_s=1.0)
    # (True, 'found: a PN532 acknowledged SAMConfiguration')
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable
from typing import Any

import serial

from companion.devices.cardreader.protocol import ReaderProtocol
from companion.devices.cardreader.reader import READ_TIMEOUT_S
from companion.devices.cardreader.registry import Identifies, make_protocol

DETECT_ORDER = ("pn532", "pico", "rdm6300")
"""The PN532 and the Pico answer at once; an RDM6300 says something only with a card on it."""
SPEAKS_WITH_A_CARD = frozenset({"rdm6300"})
"""The protocols whose device is heard only while a card lies on it."""

FOUND = {
    "pn532": "found: a PN532 acknowledged SAMConfiguration",
    "pico": "found: a Pico reader said hello",
    "rdm6300": "found: an RDM6300 sent a valid frame",
}
NOT_FOUND = {
    "pn532": "no answer to SAMConfiguration",
    "pico": "no hello",
    "rdm6300": "no card seen: place a card to check",
}


def reason(err: BaseException) -> str:
    """A short reason: 'No such file or directory' rather than pyserial's nested message."""
    code = err.args[0] if err.args else None
    if isinstance(code, int) and not isinstance(code, bool):
        return os.strerror(code)
    return str(err)


def probe(
    device: str,
    name: str,
    timeout_s: float,
    *,
    clock_ns: Callable[[], int] = time.monotonic_ns,
) -> tuple[bool, str]:
    """Talks `name` on `device` for at most `timeout_s`: (found, what happened)."""
    protocol = make_protocol(name)
    if not isinstance(protocol, Identifies):
        return False, "cannot tell: the protocol does not say when a device identified itself"
    try:
        port = serial.serial_for_url(
            device, baudrate=protocol.baudrate, timeout=READ_TIMEOUT_S, write_timeout=0.1
        )
    except (serial.SerialException, OSError) as err:
        return False, f"cannot open: {reason(err)}"
    try:
        port.reset_input_buffer()
        return _talk(port, protocol, name, timeout_s, clock_ns)
    except (serial.SerialException, OSError) as err:
        return False, f"port failed: {reason(err)}"
    finally:
        port.close()


def _talk(
    port: Any,
    protocol: ReaderProtocol,
    name: str,
    timeout_s: float,
    clock_ns: Callable[[], int],
) -> tuple[bool, str]:
    assert isinstance(protocol, Identifies)
    deadline = clock_ns() + int(timeout_s * 1e9)
    outgoing = protocol.connected(clock_ns())
    while True:
        if outgoing:
            # A write nothing drains times out; the protocol will try again.
            with contextlib.suppress(serial.SerialTimeoutException):
                port.write(outgoing)
        data = port.read(port.in_waiting or 1)
        now = clock_ns()
        if data:
            protocol.receive(data, now)
        if protocol.identified():
            return True, FOUND[name]
        if now >= deadline:
            return False, NOT_FOUND[name]
        outgoing = protocol.due(now)
