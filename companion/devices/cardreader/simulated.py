"""A card reader's simulated twin, complete with its wire: an emulated device behind a socat
pseudo-terminal pair, read by the real reader shell and protocol.

    with SimulatedReader("pn532", cards=range(1, 101)) as reader:
        event = reader.scan(17)        # lays card 17 on the reader; its CardPresented
        reader.tag_of(17)              # the tag the simulation gave card 17

Nothing but the lowest layer is simulated: the bytes the emulator writes are the bytes a
real module sends, and everything above them runs as it does with hardware.
"""

from __future__ import annotations

import queue
from collections.abc import Iterable
from typing import Any

from companion.devices.cardreader.events import CardEvent, CardPresented, CardRemoved
from companion.devices.cardreader.ptypair import PtyPair
from companion.devices.cardreader.reader import CardReader
from companion.devices.cardreader.registry import make_protocol
from vision.common.closing import Closing

# How long each module keeps quiet between sightings, and so how long a card must be gone
# before it counts as removed.
_SILENCE_NS = {"rdm6300": 80_000_000, "pn532": 200_000_000, "pico": 300_000_000}
WAIT_S = 3.0


def simulated_tag(protocol: str, card: int) -> str:
    """A made-up tag id for a card, of the kind the protocol's cards carry."""
    if protocol == "rdm6300":
        return f"E0{card:08X}"  # EM4100: 5 bytes
    return f"04{card:06X}E0A080"  # ISO 14443A: a 7-byte UID, as NTAG cards have


def start_emulator(protocol: str, path: str) -> Any:
    """The emulated module of `protocol` on the device end `path` of a pseudo-terminal pair,
    running: rdm6300, pn532 or pico."""
    if protocol == "rdm6300":
        from companion.devices.cardreader.emulators import Rdm6300Emulator

        return Rdm6300Emulator(path, repeat_s=0.02)
    if protocol == "pn532":
        from companion.devices.cardreader.emulators import Pn532Emulator

        return Pn532Emulator(path)
    if protocol == "pico":
        from companion.devices.cardreader.pico_emulator import PicoEmulator

        return PicoEmulator(path)
    raise ValueError(f"no emulator for {protocol!r}")


class SimulatedReader(Closing):
    def __init__(self, protocol: str, cards: Iterable[int]) -> None:
        if protocol not in _SILENCE_NS:
            raise ValueError(f"no simulated reader for {protocol!r}")
        self.protocol = protocol
        self.tags = {card: simulated_tag(protocol, card) for card in cards}
        self._events: queue.Queue[CardEvent] = queue.Queue()
        self._pair = PtyPair()
        self._emulator: Any = None
        self._reader: CardReader | None = None
        try:
            self._emulator = self._start_emulator(self._pair.device_path)
            self._reader = CardReader(
                self._pair.host_path,
                make_protocol(protocol),
                on_event=self._events.put,
                silence_ns=_SILENCE_NS[protocol],
            )
            self._reader.start()
        except BaseException:
            self.close()
            raise

    def _start_emulator(self, path: str) -> Any:
        return start_emulator(self.protocol, path)

    def tag_of(self, card: int) -> str:
        return self.tags[card]

    def lookup(self, deck_id: str) -> Any:
        """A TagLookup over the simulated tags of one deck."""
        cards = {tag: card for card, tag in self.tags.items()}
        return lambda tag: (deck_id, cards[tag]) if tag in cards else None

    def scan(self, card: int) -> CardPresented | None:
        """Lays `card` on the reader until the reader reports it, then takes it off and waits
        for the removal, so the next scan starts from an empty reader. None if the reader
        never saw it (which would be a fault worth reporting)."""
        self._emulator.present(self.tags[card])
        seen = self._wait(CardPresented, self.tags[card])
        self._emulator.remove()
        self._wait(CardRemoved, self.tags[card])
        return seen if isinstance(seen, CardPresented) else None

    def _wait(self, kind: type, tag: str) -> CardEvent | None:
        try:
            while True:
                event = self._events.get(timeout=WAIT_S)
                if isinstance(event, kind) and event.tag == tag:
                    return event
        except queue.Empty:
            return None

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        if self._emulator is not None:
            self._emulator.close()
            self._emulator = None
        self._pair.close()
