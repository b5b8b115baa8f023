"""Enrolling a deck: reading the RFID tag of every card, in card order, into its tag map.

The core is a pure state machine, `Enrollment`; `run_enrollment` drives it from any stream
of card reader events, and `reader_events` opens a real reader (imported lazily, so the
core needs no serial port).

    enrollment = Enrollment(deck, load_tag_map(deck))
    enrollment.expected()                 # Card 1 (Zeus): the next card to scan
    enrollment.offer("04A224B2C12A81")    # Outcome(kind="accepted", ...)
    enrollment.offer("04A224B2C12A81")    # kind="duplicate", owner=card 1: scan card 2 instead

Only a card's number and name are ever shown, never its facts.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import queue
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Literal

from companion.decks.model import QUADRANT_CORNERS, Card, Deck, normalise_tag
from companion.decks.tagmap import deck_tags, is_tag, tag_kind
from companion.devices.cardreader.events import CardEvent, CardPresented, CardRemoved
from companion.errors import UserError

PROTOCOL_NAMES = ("rdm6300", "pn532", "pico")


# ---- choosing cards ----------------------------------------------------------------------


def parse_quadrants(text: str) -> tuple[int, ...]:
    """'1,2' or 'nw,ne' -> (1, 2); for argparse (raises ArgumentTypeError)."""
    quadrants: list[int] = []
    for part in text.split(","):
        item = part.strip().upper()
        if item in QUADRANT_CORNERS:
            number = QUADRANT_CORNERS.index(item) + 1
        elif item.isdigit() and 1 <= int(item) <= 4:
            number = int(item)
        else:
            raise argparse.ArgumentTypeError(
                f"{part.strip()!r} is not a quadrant: use 1-4 (or NW, NE, SW, SE), "
                "separated by commas"
            )
        if number not in quadrants:
            quadrants.append(number)
    return tuple(sorted(quadrants))


def cards_in_quadrants(deck: Deck, quadrants: Collection[int] | None = None) -> tuple[Card, ...]:
    """The deck's cards lying in `quadrants` (all when None), by number.

    Raises UserError for a quadrant where the deck has no card.
    """
    if quadrants is None:
        return tuple(sorted(deck.cards, key=lambda c: c.number))
    for quadrant in quadrants:
        if not 1 <= quadrant <= 4:
            raise UserError(f"quadrant must be 1-4, got {quadrant}")
        if not any(card.quadrant == quadrant for card in deck.cards):
            raise UserError(
                f"deck {deck.id!r} has no cards in quadrant {quadrant} "
                f"({QUADRANT_CORNERS[quadrant - 1]}, {deck.quadrant_name(quadrant)})"
            )
    return tuple(sorted((c for c in deck.cards if c.quadrant in quadrants), key=lambda c: c.number))


# ---- the state machine -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of a tag offered for the expected card."""

    kind: Literal["accepted", "duplicate", "same"]
    """accepted: the tag is now the card's; duplicate: it is another card's, refused;
    same: the card already had this tag."""
    tag: str
    card: Card
    """The card the tag was offered for (the expected card)."""
    owner: Card | None = None
    """For a duplicate: the card the tag is already on."""
    replaced: tuple[str, ...] = ()
    """For an accepted tag: the card's earlier enrolled tags of the same kind, now forgotten."""

    def message(self) -> str:
        """One line for the enrollment screen: number and name only, never a fact."""
        card = f"card {self.card.number} ({self.card.name})"
        if self.kind == "duplicate":
            assert self.owner is not None
            return (
                f"tag {self.tag} is already card {self.owner.number} ({self.owner.name}); "
                f"scan card {self.card.number}"
            )
        if self.kind == "same":
            return f"{card}: tag {self.tag}, already enrolled"
        was = f" (replaces {', '.join(self.replaced)})" if self.replaced else ""
        return f"{card}: tag {self.tag} saved{was}"


class Enrollment:
    """Walks through a deck's cards in number order, taking one tag for each.

    `existing` is the tag map so far ({tag: card number}, not the deck file's own tags).
    Without `start`, the walk visits the cards that have no tag yet (in the deck file or the
    map), so a run that was stopped resumes where it stopped. With `start`, it visits every
    card numbered `start` or more, tagged or not. `quadrants` limits it to those quadrants.

    A tag new to the deck is accepted for the expected card and replaces that card's earlier
    enrolled tag of the same kind (125 kHz or 13.56 MHz), so re-enrolling a card whose tag
    was changed forgets the old one. A tag already on another card is refused; the card's
    own tag is taken as it is. Tags in the deck file are never removed.
    """

    def __init__(
        self,
        deck: Deck,
        existing: Mapping[str, int] | None = None,
        *,
        start: int | None = None,
        quadrants: Collection[int] | None = None,
    ) -> None:
        self.deck = deck
        self._deck_tags = deck_tags(deck)
        self._map: dict[str, int] = {}
        for tag, number in (existing or {}).items():
            if deck.card(number) is None:
                raise ValueError(f"tag {tag}: deck {deck.id!r} has no card {number}")
            self._map[normalise_tag(tag)] = number
        self.selected = cards_in_quadrants(deck, quadrants)
        if start is not None:
            if deck.card(start) is None:
                raise UserError(f"deck {deck.id!r} has no card {start}")
            self._queue = [card for card in self.selected if card.number >= start]
            if not self._queue:
                raise UserError(f"no card numbered {start} or more in the chosen quadrants")
        else:
            self._queue = [card for card in self.selected if not self.tags_of(card.number)]
        self._next = 0
        self.accepted = 0
        self.same = 0
        self.refused = 0

    # -- what the walk looks like

    def expected(self) -> Card | None:
        """The card to scan next, or None when the walk is over."""
        return self._queue[self._next] if self._next < len(self._queue) else None

    @property
    def done(self) -> bool:
        return self.expected() is None

    def progress(self) -> tuple[int, int]:
        """(where the expected card is among the chosen cards, how many there are): (17, 100).

        (the number of chosen cards, the same) when the walk is over.
        """
        card = self.expected()
        total = len(self.selected)
        if card is None:
            return total, total
        return self.selected.index(card) + 1, total

    @property
    def remaining(self) -> int:
        """How many cards the walk still has to visit, the expected one included."""
        return len(self._queue) - self._next

    def owner_of(self, tag: str) -> Card | None:
        """The card carrying `tag`, in the deck file or the tag map so far."""
        tag = normalise_tag(tag)
        number = self._deck_tags.get(tag, self._map.get(tag))
        return None if number is None else self.deck.card(number)

    def tags_of(self, number: int) -> tuple[str, ...]:
        """Every tag of card `number`: the deck file's, then the tag map's."""
        own = [tag for tag, n in self._deck_tags.items() if n == number]
        enrolled = [tag for tag, n in self._map.items() if n == number and tag not in own]
        return tuple(own + sorted(enrolled))

    def untagged(self) -> tuple[Card, ...]:
        """The chosen cards that have no tag at all, by number."""
        return tuple(card for card in self.selected if not self.tags_of(card.number))

    @property
    def tag_map(self) -> dict[str, int]:
        """The tag map as it now stands ({tag: card number}), ready for save_tag_map."""
        return dict(self._map)

    # -- scanning

    def offer(self, tag: str) -> Outcome:
        """A tag was read while the expected card should be on the reader."""
        card = self.expected()
        if card is None:
            raise RuntimeError("the enrollment is over: every chosen card has been visited")
        tag = normalise_tag(tag)
        if not is_tag(tag):
            raise ValueError(f"{tag!r} is not a tag id")
        owner = self.owner_of(tag)
        if owner is not None and owner.number != card.number:
            self.refused += 1
            return Outcome("duplicate", tag, card, owner=owner)
        self._next += 1
        if owner is not None:
            self.same += 1
            return Outcome("same", tag, card)
        kind = tag_kind(tag)
        replaced = tuple(
            sorted(t for t, n in self._map.items() if n == card.number and tag_kind(t) == kind)
        )
        for old in replaced:
            del self._map[old]
        self._map[tag] = card.number
        self.accepted += 1
        return Outcome("accepted", tag, card, replaced=replaced)


# ---- driving it from a reader ------------------------------------------------------------


def prompt(enrollment: Enrollment) -> str:
    """'[17/100] scan card 17: Hermes'."""
    card = enrollment.expected()
    if card is None:
        return "every card has been visited"
    at, total = enrollment.progress()
    return f"[{at}/{total}] scan card {card.number}: {card.name}"


class EnrollmentDesk:
    """Takes card reader events one at a time for an Enrollment: the lines to show for each.

    After a card is taken, the next one is only read once that card has been removed (or
    another card is presented), so a card lying on the reader is not offered again for the
    next card. Saves the tag map after every newly accepted tag.

        desk = EnrollmentDesk(enrollment, save=lambda tags: save_tag_map(deck, tags))
        desk.event(CardPresented(tag, t_ns, "rdm6300"))   # ['  card 1 (Zeus): tag ... saved',
                                                          #  '[2/100] scan card 2: Hera']
    """

    def __init__(self, enrollment: Enrollment, *, save: Callable[[dict[str, int]], object]) -> None:
        self.enrollment = enrollment
        self.save = save
        self.last = ""
        """The last outcome's message, for a screen."""
        self._waiting_for_removal: str | None = None

    def event(self, event: CardEvent) -> list[str]:
        enrollment = self.enrollment
        if enrollment.done:
            return []
        if isinstance(event, CardRemoved):
            if event.tag == self._waiting_for_removal:
                self._waiting_for_removal = None
            return []
        if not isinstance(event, CardPresented):
            return []
        tag = normalise_tag(event.tag)
        if tag == self._waiting_for_removal or not is_tag(tag):
            return []
        self._waiting_for_removal = None
        outcome = enrollment.offer(tag)
        self.last = outcome.message()
        lines = ["  " + self.last]
        if outcome.kind == "accepted":
            self.save(enrollment.tag_map)
        if outcome.kind != "duplicate":
            self._waiting_for_removal = tag
            if not enrollment.done:
                lines.append(prompt(enrollment))
        return lines


def run_enrollment(
    enrollment: Enrollment,
    events: Iterable[CardEvent],
    *,
    save: Callable[[dict[str, int]], object],
    say: Callable[[str], object] = print,
) -> None:
    """Takes a tag for each card from `events` until the walk is over or the events end."""
    if enrollment.done:
        return
    say(prompt(enrollment))
    desk = EnrollmentDesk(enrollment, save=save)
    for event in events:
        for line in desk.event(event):
            say(line)
        if enrollment.done:
            return


def summary(enrollment: Enrollment) -> str:
    """One line on what was done and what is left."""
    parts = [f"{enrollment.accepted} tag{'' if enrollment.accepted == 1 else 's'} saved"]
    if enrollment.same:
        parts.append(f"{enrollment.same} already enrolled")
    if enrollment.refused:
        parts.append(f"{enrollment.refused} scan{'' if enrollment.refused == 1 else 's'} refused")
    untagged = enrollment.untagged()
    chosen = len(enrollment.selected)
    if not untagged:
        left = f"all {chosen} cards have a tag"
    else:
        first = untagged[0]
        left = (
            f"{len(untagged)} of {chosen} cards have no tag yet "
            f"(the first is card {first.number}: {first.name}); run again to resume"
        )
    return f"{', '.join(parts)}; {left}"


@contextlib.contextmanager
def reader_events(
    port: str, protocol: str, *, poll_s: float = 0.2
) -> Iterator[Iterator[CardEvent]]:
    """Opens a card reader on `port` and yields its events as a (blocking) iterator.

    Raises UserError when the protocol is unknown or unavailable, or the port cannot be
    opened; the reader is closed when the `with` block ends.
    """
    # Lazily: the serial layer is only needed once a reader is really used.
    from companion.devices.cardreader.reader import CardReader
    from companion.devices.cardreader.registry import make_protocol

    inbox: queue.Queue[CardEvent] = queue.Queue()
    reader = CardReader(port, make_protocol(protocol), on_event=inbox.put)
    try:
        reader.start()
    except UserError:
        _close_quietly(reader)
        raise
    except Exception as err:  # serial.SerialException (an OSError), ...: one line, exit 2
        _close_quietly(reader)
        raise UserError(f"cannot open the card reader on {port}: {_reason(err)}") from None

    def events() -> Iterator[CardEvent]:
        while True:
            try:
                yield inbox.get(timeout=poll_s)
            except queue.Empty:
                continue

    try:
        yield events()
    finally:
        reader.close()


def _reason(err: BaseException) -> str:
    errno = getattr(err, "errno", None)
    if isinstance(errno, int) and errno > 0:
        return os.strerror(errno)
    return str(err) or type(err).__name__


def _close_quietly(reader: object) -> None:
    close = getattr(reader, "close", None)
    if close is not None:
        with contextlib.suppress(Exception):
            close()
