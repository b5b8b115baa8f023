"""Enrolling a deck's RFID tags from the touchscreen: the configured reader, or a simulated
one whose cards are laid from the screen. The walk itself is companion/decks/enroll.py's,
the same as `companion deck enroll`.

    enrolling = Enrolling.start(config, call_soon=..., on_change=screen.refresh)
    enrolling.desk.enrollment.expected()      # the card to scan
    enrolling.scan_next()                     # on the simulated reader
    enrolling.close()
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.config import Config
from companion.decks import find_deck
from companion.decks.enroll import Enrollment, EnrollmentDesk
from companion.decks.tagmap import load_tag_map, save_tag_map

CallSoon = Callable[[Callable[[], None]], None]


@dataclass
class Enrolling:
    desk: EnrollmentDesk
    deck_title: str
    reader: Any
    simulated: bool
    reader_text: str
    heard: Callable[[Any], None]
    """Hands a reader event to the desk, on the app's thread."""

    @classmethod
    def start(
        cls, config: Config, *, call_soon: CallSoon, on_change: Callable[[], None], simulated: bool
    ) -> Enrolling:
        """On the reader in [reader], or on a simulated one when none is configured (or the
        app plays on a simulated table)."""
        deck = find_deck(config.game.deck)
        enrollment = Enrollment(deck, load_tag_map(deck))
        desk = EnrollmentDesk(enrollment, save=lambda tags: save_tag_map(deck, tags))

        def heard(event: Any) -> None:
            def take() -> None:
                desk.event(event)
                on_change()

            call_soon(take)

        protocol = config.reader.protocol
        if config.reader.port and not simulated:
            from companion.devices.cardreader.reader import CardReader
            from companion.devices.cardreader.registry import make_protocol

            reader: Any = CardReader(config.reader.port, make_protocol(protocol), on_event=heard)
            reader.start()
            return cls(
                desk,
                deck.title,
                reader,
                False,
                f"Reader: {protocol} on {config.reader.port}",
                heard,
            )
        from companion.devices.cardreader.simulated import SimulatedReader

        reader = SimulatedReader("rdm6300", [c.number for c in deck.cards])
        text = "Reader: simulated (rdm6300 behind a pseudo-terminal)"
        return cls(desk, deck.title, reader, True, text, heard)

    def scan_next(self) -> str | None:
        """On the simulated reader: lays the card the walk waits for; None, or why not."""
        if not self.simulated:
            return "no simulated reader"
        card = self.desk.enrollment.expected()
        if card is None:
            return "every card has been visited"
        reader, heard = self.reader, self.heard

        def scan() -> None:
            event = reader.scan(card.number)
            if event is not None:
                heard(event)

        threading.Thread(target=scan, name="enroll-scan", daemon=True).start()
        return None

    def close(self) -> None:
        self.reader.close()
