"""A MemDeck in memory: frozen cards and the deck that maps them onto the Macunx.

The board has 100 places: 4 quadrants (NW, NE, SW, SE) x 5 quincunxes x 5 places, and
place n = 25(Q-1) + 5(q-1) + p. A card's depth levels are its name (level 1) and then its
facts (levels 2, 3, ...).

    deck = load_deck("mythologies-of-earth.toml")
    deck.card(1).fact(1)          # 'Zeus'
    deck.card_at(26)              # the card the author put on the NE quadrant's first place
    deck.board_map()[0]           # [1, 1, 3]: number, place, points
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

PLACES = 100
QUADRANT_SIZE = 25
QUADRANT_CORNERS = ("NW", "NE", "SW", "SE")

_TAG_SEPARATORS = re.compile(r"[\s:\-]")


def position(place: int) -> tuple[int, int, int]:
    """The (quadrant, quincunx, place-in-quincunx) of a board place, each counted from 1.

    >>> position(1), position(27), position(100)
    ((1, 1, 1), (2, 1, 2), (4, 5, 5))
    """
    if not 1 <= place <= PLACES:
        raise ValueError(f"place must be 1..{PLACES}, got {place}")
    index = place - 1
    return index // 25 + 1, index % 25 // 5 + 1, index % 5 + 1


def normalise_tag(tag: str) -> str:
    """A tag id as decks store it: upper-case hex without separators ('04:a2:..' -> '04A2..')."""
    return _TAG_SEPARATORS.sub("", tag).upper()


@dataclass(frozen=True, slots=True)
class Card:
    number: int
    place: int
    name: str
    front: str
    points: int
    facts: tuple[str, ...]
    image: str | None = None
    """Path relative to the deck file; see `Deck.image_path`."""
    rfid: tuple[str, ...] = ()

    @property
    def depth(self) -> int:
        """How many levels this card has: its name plus its facts."""
        return 1 + len(self.facts)

    @property
    def quadrant(self) -> int:
        return position(self.place)[0]

    def fact(self, level: int) -> str:
        """The answer at depth `level`: 1 is the name, 2 the first fact, and so on."""
        if not 1 <= level <= self.depth:
            raise ValueError(f"card {self.number} has levels 1..{self.depth}, not {level}")
        return self.name if level == 1 else self.facts[level - 2]


@dataclass(frozen=True, slots=True)
class Deck:
    id: str
    title: str
    author: str
    subject: str
    version: str
    mapping: str
    quadrants: tuple[str, ...]
    """Four names, in quadrant order NW, NE, SW, SE."""
    cards: tuple[Card, ...]
    language: str = "en"
    levels: tuple[str, ...] = ()
    prompts: tuple[str, ...] = ()
    description: str = ""
    source: Path | None = None
    """The file the deck was read from; None for a deck built in code."""
    hash: str = ""
    """'sha256:<hex>' of the file's bytes, so a game record names exactly the deck it used."""
    _by_number: dict[int, Card] = field(init=False, repr=False, compare=False)
    _by_place: dict[int, Card] = field(init=False, repr=False, compare=False)
    _by_tag: dict[str, Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Frozen, so the lookup tables are set once here rather than rebuilt on every scan.
        object.__setattr__(self, "_by_number", {c.number: c for c in self.cards})
        object.__setattr__(self, "_by_place", {c.place: c for c in self.cards})
        tags = {normalise_tag(tag): c for c in self.cards for tag in c.rfid}
        object.__setattr__(self, "_by_tag", tags)

    def card(self, number: int) -> Card | None:
        return self._by_number.get(number)

    def card_at(self, place: int) -> Card | None:
        return self._by_place.get(place)

    def card_for_tag(self, tag: str) -> Card | None:
        """The card carrying RFID tag `tag`; case and ':' or '-' separators do not matter."""
        return self._by_tag.get(normalise_tag(tag))

    @property
    def depth(self) -> int:
        """The deepest level every card has (1 + the shortest facts list)."""
        return min((c.depth for c in self.cards), default=0)

    @property
    def max_depth(self) -> int:
        """The deepest level any card has (1 + the longest facts list)."""
        return max((c.depth for c in self.cards), default=0)

    @property
    def places_covered(self) -> tuple[int, ...]:
        return tuple(sorted(self._by_place))

    def places_per_quadrant(self) -> tuple[int, int, int, int]:
        """How many places of each quadrant (NW, NE, SW, SE) have a card, e.g. (25, 25, 0, 0)."""
        counts = [0, 0, 0, 0]
        for place in self._by_place:
            counts[position(place)[0] - 1] += 1
        return counts[0], counts[1], counts[2], counts[3]

    def quadrant_name(self, quadrant: int) -> str:
        """The name of quadrant 1..4 (NW, NE, SW, SE)."""
        if not 1 <= quadrant <= len(self.quadrants):
            raise ValueError(f"quadrant must be 1..{len(self.quadrants)}, got {quadrant}")
        return self.quadrants[quadrant - 1]

    def level_label(self, level: int) -> str:
        """The label of depth `level` ('Name', 'Domain', ...), or 'Level n' when none is given."""
        if 1 <= level <= len(self.levels):
            return self.levels[level - 1]
        return "Name" if level == 1 else f"Level {level}"

    def prompt(self, level: int) -> str | None:
        """The question asked at depth `level` in Basic mode, if the deck gives one."""
        return self.prompts[level - 1] if 1 <= level <= len(self.prompts) else None

    def image_path(self, card: Card) -> Path | None:
        """Where the card's image is on disk: relative to the deck file."""
        if card.image is None:
            return None
        base = self.source.parent if self.source else Path()
        return base / card.image

    def board_map(self) -> list[list[int]]:
        """[[number, place, points], ...] sorted by number: the game engine's setup takes this."""
        return [[c.number, c.place, c.points] for c in sorted(self.cards, key=lambda c: c.number)]
