"""The eleven stone colours of MeM and their counts in the box (MEM-C4).

Colour ids run 1..11 in the order of the rule book's counts; 0 is an empty square. Each has
a letter for the BOARD text format and a name for screens.
"""

from __future__ import annotations

from dataclasses import dataclass

EMPTY = 0


@dataclass(frozen=True, slots=True)
class Colour:
    id: int
    letter: str
    name: str
    count: int
    """Stones of this colour in the box."""


COLOURS: tuple[Colour, ...] = (
    Colour(1, "A", "white", 8),
    Colour(2, "B", "black", 7),
    Colour(3, "C", "red", 3),
    Colour(4, "D", "blue", 3),
    Colour(5, "E", "green", 2),
    Colour(6, "F", "yellow", 2),
    Colour(7, "G", "orange", 2),
    Colour(8, "H", "purple", 2),
    Colour(9, "I", "brown", 1),
    Colour(10, "J", "pink", 1),
    Colour(11, "K", "grey", 1),
)
COLOUR_IDS: tuple[int, ...] = tuple(c.id for c in COLOURS)
BY_LETTER = {c.letter: c.id for c in COLOURS}
LETTER = {EMPTY: ".", **{c.id: c.letter for c in COLOURS}}
NAME = {EMPTY: "empty", **{c.id: c.name for c in COLOURS}}
BOX: tuple[int, ...] = tuple(c.id for c in COLOURS for _ in range(c.count))
"""The 32 stones of the box, by colour id."""

assert len(BOX) == 32
