"""What a printed card's QR code says, `memdeck:<deck id>:<card number>` (docs/cards.md).

A camera that reads such a code needs no tag map: the code names its deck and card itself.

    parse_card_code("memdeck:mythologies-of-earth:17")   # CardCode("mythologies-of-earth", 17)
    parse_card_code("memdeck:mythologies-of-earth:017")  # None: numbers have no leading zero
    parse_card_code("https://example.org")               # None
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CARD_CODE_PREFIX = "memdeck"
"""The same prefix as `companion.printing.layout.QR_PREFIX`, which prints it; kept apart so
that reading a code does not load the PDF machinery (a test checks the two agree)."""
CARDS_IN_A_DECK = 100
"""The highest card number, `companion.decks.model.PLACES`; kept here because vision never
imports companion (a test checks the two agree)."""

_CARD_CODE = re.compile(
    rf"{CARD_CODE_PREFIX}:(?P<deck>[a-z0-9]+(?:-[a-z0-9]+)*):(?P<number>[1-9][0-9]{{0,2}})"
)
"""The deck id as decks allow it (lowercase letters, digits, single hyphens), a card number
in decimal without leading zeros."""


@dataclass(frozen=True, slots=True)
class CardCode:
    deck: str
    number: int

    @property
    def tag(self) -> str:
        """The code as a tag, what a camera reports for the card: 'memdeck:<deck>:<n>'."""
        return f"{CARD_CODE_PREFIX}:{self.deck}:{self.number}"


def parse_card_code(text: str) -> CardCode | None:
    """The card a printed code names, or None for any other text (strict: no spaces, no
    other case, no leading zeros, numbers 1..100)."""
    match = _CARD_CODE.fullmatch(text)
    if match is None:
        return None
    number = int(match["number"])
    if number > CARDS_IN_A_DECK:
        return None
    return CardCode(match["deck"], number)
