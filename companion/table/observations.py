"""Cards scanned at the table, checked against what the rules expect now.

A card reader says only which tag it saw. Which card that is comes from the deck's tag map,
or from the tag itself when a camera read a printed card's code (`memdeck:<deck id>:<n>`);
whether it is welcome comes from the rules (`Expectation.cards`). Every scan gets a verdict
with a sentence a screen can show; nothing is accepted silently, and a card that does not
fit is reported, never turned into a move.

    desk = ScanDesk(referee, deck_id="mythologies-of-earth", lookup=directory.lookup)
    verdict = desk.scanned(CardPresented(tag, t_ns, "rdm6300"))
    verdict.accepted          # True only for a card the rules expect now
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from companion.devices.cardreader.events import CardPresented
from companion.games.contract import Expectation
from companion.session import Referee
from vision.card_code import parse_card_code

log = logging.getLogger(__name__)

TagLookup = Callable[[str], "tuple[str, int] | None"]
"""A tag id to (deck id, card number), or None for a tag no known deck has enrolled."""


def card_of_tag(tag: str, lookup: TagLookup) -> tuple[str, int] | None:
    """(deck id, card number) for a tag: a printed card's code names its card itself, any
    other tag is looked up."""
    code = parse_card_code(tag)
    if code is not None:
        return code.deck, code.number
    return lookup(tag)


class ScanOutcome(Enum):
    EXPECTED = "expected"
    """A card of this game's deck that the rules expect now."""
    NOT_EXPECTED = "not_expected"
    """A card of this game's deck, but not one the rules expect now."""
    NOT_NOW = "not_now"
    """A card of this game's deck while the rules expect no card at all."""
    OTHER_DECK = "other_deck"
    UNKNOWN_TAG = "unknown_tag"


@dataclass(frozen=True, slots=True)
class CardScanned:
    """A card presented to a reader, as the session sees it."""

    tag: str
    t_ns: int
    reader: str


@dataclass(frozen=True, slots=True)
class ScanVerdict:
    scan: CardScanned
    outcome: ScanOutcome
    card: int | None
    """The card number in its deck, when the tag is known."""
    deck: str | None
    expected: tuple[int, ...]
    message: str

    @property
    def accepted(self) -> bool:
        return self.outcome is ScanOutcome.EXPECTED


def check_scan(
    scan: CardScanned, deck_id: str, lookup: TagLookup, expectation: Expectation | None
) -> ScanVerdict:
    """The verdict on one scan. Pure: the rules' expectation and the tag map are passed in."""
    expected = expectation.cards if expectation is not None else ()
    found = card_of_tag(scan.tag, lookup)
    if found is None:
        return ScanVerdict(
            scan,
            ScanOutcome.UNKNOWN_TAG,
            None,
            None,
            expected,
            f"tag {scan.tag} is not enrolled in any deck; enroll it with "
            f"`companion deck enroll {deck_id}`",
        )
    deck, card = found
    if deck != deck_id:
        return ScanVerdict(
            scan,
            ScanOutcome.OTHER_DECK,
            card,
            deck,
            expected,
            f"that is card {card} of deck {deck}, not a card of {deck_id}",
        )
    if not expected:
        return ScanVerdict(
            scan,
            ScanOutcome.NOT_NOW,
            card,
            deck,
            expected,
            f"no card is expected now; card {card} is not taken as a move",
        )
    if card not in expected:
        wanted = " or ".join(f"card {c}" for c in expected)
        return ScanVerdict(
            scan,
            ScanOutcome.NOT_EXPECTED,
            card,
            deck,
            expected,
            f"card {card} is not the card the rules expect now ({wanted})",
        )
    return ScanVerdict(
        scan, ScanOutcome.EXPECTED, card, deck, expected, f"card {card}: the card expected"
    )


Listener = Callable[[ScanVerdict], object]


class ScanDesk:
    """Takes a referee's card scans: checks each, logs it, and tells its listeners (the
    touchscreen lights the place and shows the facts to whoever judges)."""

    def __init__(self, referee: Referee, deck_id: str, lookup: TagLookup) -> None:
        self.referee = referee
        self.deck_id = deck_id
        self.lookup = lookup
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def scanned(self, event: CardPresented) -> ScanVerdict:
        scan = CardScanned(event.tag, event.t_ns, event.reader)
        verdict = check_scan(scan, self.deck_id, self.lookup, self.referee.expected())
        # Which card it was can give away a hidden place: only the outcome at INFO.
        log.info("game %d: card scanned: %s", self.referee.game_id, verdict.outcome.value)
        log.debug("game %d: %s", self.referee.game_id, verdict.message)
        for listener in list(self._listeners):
            try:
                listener(verdict)
            except Exception:
                log.warning("a scan listener failed", exc_info=True)
        return verdict
