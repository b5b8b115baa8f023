"""PicoProtocol and a DeviceSession joined in-process, on a clock the test moves: the whole
conversation without a port or a thread."""

from __future__ import annotations

from collections.abc import Callable

from companion.devices.cardreader import picowire as wire
from companion.devices.cardreader.events import Observation
from companion.devices.cardreader.pico import PicoProtocol

MS = 1_000_000
BOOT_NS = 400 * MS
"""Host time at which the device booted: device us = (host ns - BOOT_NS) / 1000."""


class Link:
    def __init__(
        self,
        protocol: PicoProtocol | None = None,
        *,
        latency_ns: int = 2 * MS,
        leds: int = 4,
        buzzer: bool = True,
    ) -> None:
        self.protocol = protocol if protocol is not None else PicoProtocol()
        self.info = wire.Hello(wire.VERSION, (1, 0, 0), wire.READER_MFRC522, 4, leds, buzzer)
        self.device = wire.DeviceSession(self.info)
        self.boot_ns = BOOT_NS
        self.t_ns = 1_000 * MS
        self.latency_ns = latency_ns
        self.executed: list[wire.Message] = []
        self.observations: list[Observation] = []
        self.to_device: list[bytes] = []
        """Every chunk the host sent, in order."""
        self.drop_to_device: Callable[[bytes], bool] = lambda data: False
        self.drop_to_host: Callable[[bytes], bool] = lambda data: False

    def device_us(self, t_ns: int | None = None) -> int:
        return ((self.t_ns if t_ns is None else t_ns) - self.boot_ns) // 1000

    def advance(self, ns: int) -> None:
        self.t_ns += ns

    def connect(self) -> list[Observation]:
        return self._deliver_to_device(self.protocol.connected(self.t_ns))

    def pump(self) -> list[Observation]:
        """The host sends what is due; the device answers."""
        return self._deliver_to_device(self.protocol.due(self.t_ns))

    def run(self, ns: int, step_ns: int = 10 * MS) -> list[Observation]:
        got: list[Observation] = []
        end = self.t_ns + ns
        while self.t_ns < end:
            self.advance(step_ns)
            got += self.pump()
        return got

    def from_device(self, data: bytes) -> list[Observation]:
        """Device bytes, stamped at the device's `now`, arriving latency_ns later."""
        if not data or self.drop_to_host(data):
            return []
        got = self.protocol.receive(data, self.t_ns + self.latency_ns)
        self.observations += got
        return got

    def hello(self) -> list[Observation]:
        return self.from_device(self.device.hello(self.device_us()))

    def heartbeat(self, dropped: int = 0) -> list[Observation]:
        return self.from_device(self.device.heartbeat(self.device_us(), dropped))

    def _deliver_to_device(self, data: bytes) -> list[Observation]:
        if not data:
            return []
        self.to_device.append(data)
        if self.drop_to_device(data):
            return []
        actions, reply = self.device.receive(data, self.device_us())
        self.executed += actions
        return self.from_device(reply)

    def identify(self) -> None:
        self.connect()
        assert self.protocol.identified()
