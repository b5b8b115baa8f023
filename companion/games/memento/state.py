"""The frozen state of a game of memento ludis. Nothing is hidden.

A figure is a stack of stones under one colour marker (ML-S3); the board keeps, for every
point, the marker's owner (EMPTY for none) and the number of stones beneath it (0 for
none). Stones not on the board are in the shared pool; markers not on the board are their
owner's to use.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.memento.setup import Setup

EMPTY = -1
FIGURES = {1: "Single", 2: "Double", 3: "Tripple"}
"""The rule book's names for figures of 1, 2 and 3 stones (its spelling, ML-S3)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: int
    reason: str
    """'four_middles', 'triangle' or 'last_standing' (ML-W1)."""


@dataclass(frozen=True, slots=True)
class State:
    setup: Setup
    owners: tuple[int, ...]
    stones: tuple[int, ...]
    pool: int
    markers: tuple[int, ...]
    """Each player's free colour markers."""
    turn: int
    turn_number: int = 1
    previous: str = ""
    """The kind of the last action anyone took: a triangle may not be turned right after a
    turn (ML-T2)."""
    own_previous: tuple[str, ...] = ()
    """Each player's own last action kind: nobody turns twice in a row (ML-T2)."""
    opened: tuple[bool, ...] = ()
    """Whether each player has made (or is excused from) the opening placement (ML-A04)."""
    fielded: tuple[bool, ...] = ()
    """Whether each player has ever had a figure on the board (ML-A09)."""
    out: tuple[bool, ...] = ()
    actions: int = 0
    """Actions taken so far, passes included."""
    outcome: Outcome | None = None

    def figures_of(self, side: int) -> tuple[int, ...]:
        return tuple(p for p, owner in enumerate(self.owners) if owner == side)

    def stones_of(self, side: int) -> int:
        return sum(s for o, s in zip(self.owners, self.stones, strict=True) if o == side)
