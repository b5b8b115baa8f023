"""A game's card reader and the desk its scans are checked at, built one way for `app`, `run`
and `simulate`: a reader on a serial port (`[reader] port`), or its emulated twin behind a
pseudo-terminal on a simulated table.

    reading = CardReading.open(SerialReader(port, "pn532"), referee, deliver=call_soon)
    parts = parts_of(referee, reading)          # companion/table/wiring.py
    ...
    reading.close()

Scans from a serial reader arrive on its own thread; `deliver` carries each over to the
thread that plays the game (Kivy's, in the app) before the desk checks it against the rules.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.devices.cardreader.events import CardEvent, CardPresented
from companion.errors import UserError
from companion.table.observations import ScanDesk, TagLookup
from vision.common.closing import Closing

if TYPE_CHECKING:
    from companion.devices.cardreader.reader import CardReader
    from companion.devices.cardreader.simulated import SimulatedReader
    from companion.session import Referee

log = logging.getLogger(__name__)

Deliver = Callable[[Callable[[], None]], None]
"""Runs a job on the thread that plays the game."""


@dataclass(frozen=True, kw_only=True)
class SerialReader:
    """A real reader module on a serial port."""

    port: str
    protocol: str
    silence_ms: int = 300
    """How long a card must be unseen to count as taken off."""


@dataclass(frozen=True, kw_only=True)
class EmulatedReader:
    """The reader's simulated twin: any card of the game can be laid on it from the screen
    or by the simulation, and its bytes go through the real protocol."""

    protocol: str = "rdm6300"


ReaderChoice = SerialReader | EmulatedReader


class ReaderUnavailable(UserError):
    """The reader cannot be opened (its twin needs socat, say); the game can go on without."""


def _run_now(job: Callable[[], None]) -> None:
    job()


class CardReading(Closing):
    """One game's reader and scan desk. Close it when the game is put down."""

    def __init__(self, desk: ScanDesk, reader: CardReader | SimulatedReader) -> None:
        self.desk = desk
        self.reader = reader

    @classmethod
    def open(
        cls, choice: ReaderChoice, referee: Referee, *, deliver: Deliver = _run_now
    ) -> CardReading:
        deck_id = str(referee.store.header(referee.game_id).deck.get("id", ""))
        if isinstance(choice, EmulatedReader):
            from companion.devices.cardreader.ptypair import PtyPairError
            from companion.devices.cardreader.simulated import SimulatedReader

            cards = [card.number for card in referee.state.setup.cards]
            try:
                twin = SimulatedReader(choice.protocol, cards)
            except PtyPairError as err:
                raise ReaderUnavailable(
                    f"the emulated card reader needs socat ({err}); `make run` installs it, "
                    "or: sudo apt-get install socat"
                ) from None
            return cls(ScanDesk(referee, deck_id, twin.lookup(deck_id)), twin)

        from companion.devices.cardreader.reader import CardReader
        from companion.devices.cardreader.registry import make_protocol

        desk = ScanDesk(referee, deck_id, _directory(deck_id))

        def heard(event: CardEvent) -> None:
            if isinstance(event, CardPresented):
                deliver(lambda: _check(desk, event))

        reader = CardReader(
            choice.port,
            make_protocol(choice.protocol),
            on_event=heard,
            silence_ns=choice.silence_ms * 1_000_000,
        )
        reader.start()
        return cls(desk, reader)

    @property
    def emulated(self) -> SimulatedReader | None:
        """The twin, when the reader is one: cards are laid on it with `lay`."""
        from companion.devices.cardreader.simulated import SimulatedReader

        return self.reader if isinstance(self.reader, SimulatedReader) else None

    def lay(self, card: int) -> CardPresented | None:
        """Lays card `card` on the emulated reader and waits for the reader to see it (None
        if it did not); the caller hands the sighting to the desk. Blocks for a moment."""
        twin = self.emulated
        if twin is None:
            raise ValueError("cards are laid by hand on a real reader")
        return twin.scan(card)

    def close(self) -> None:
        self.reader.close()


def _check(desk: ScanDesk, event: CardPresented) -> None:
    desk.scanned(event)


def _directory(deck_id: str) -> TagLookup:
    """Every known deck's tags, the game's own deck first: a card of another deck is named
    as such rather than called unknown."""
    from companion.decks.load import bundled_decks, find_deck
    from companion.decks.tagmap import TagDirectory

    decks = []
    for name in [deck_id, *(d for d in bundled_decks() if d != deck_id)]:
        try:
            decks.append(find_deck(name))
        except UserError:
            continue  # the game's deck is no longer installed: the others still name cards
    return TagDirectory(decks).lookup
