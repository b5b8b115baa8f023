"""The shape every reader protocol has: a sans-I/O state machine.

A protocol never touches a port. The reader shell gives it the bytes that arrived and the
time, and asks what to send; the protocol answers with observations and bytes. That makes
every protocol testable byte for byte without a device, and lets one shell drive them all.

    protocol = Rdm6300()
    protocol.connected(t_ns)          # bytes to send once the port is open (wake-up, ...)
    protocol.receive(data, t_ns)      # -> [TagSeen(...), BadFrame(...)]
    protocol.due(t_ns)                # bytes to send now (a poll, a retry), or b""
"""

from __future__ import annotations

from typing import Protocol

from companion.devices.cardreader.events import Observation


class ReaderProtocol(Protocol):
    name: str
    """'rdm6300', 'pn532' or 'pico'."""
    baudrate: int

    def connected(self, t_ns: int) -> bytes:
        """The port has just been (re)opened: what to send first. Resets parsing state."""
        ...

    def receive(self, data: bytes, t_ns: int) -> list[Observation]:
        """Bytes from the device; partial frames are kept for the next call."""
        ...

    def due(self, t_ns: int) -> bytes:
        """Bytes the protocol wants sent at `t_ns` (a poll, a retry after a timeout)."""
        ...
