"""The frozen state of a MeM game: the board, each player's pattern, pile and lock, and
where the current turn stands. Nothing in MeM is hidden."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.mem.patterns import Cell
from companion.games.mem.setup import Setup

NOBODY = -1


@dataclass(frozen=True, slots=True)
class Side:
    pattern: tuple[Cell, ...] = ()
    """(row, column, colour) in the board's frame, in the order the stones were put down."""
    pile: int = 0
    """Stones in the captured pile (MEM-R8)."""
    lock: tuple[int, int] | None = None
    """The translation a block committed this pattern to (MEM-R10.3b), until a capture."""
    committed: tuple[tuple[int, int], ...] = ()
    """(pattern colour, board colour) pairs fixed under house rule mem.colourMapPersistent."""
    out: bool = False
    """Mini-MEM: this player can take no more turns (MEM-R5)."""


@dataclass(frozen=True, slots=True)
class Pending:
    """A move announced and held while the other player may block it (MEM-R10.3), or a
    question "will you block that stone?" waiting for its answer (MEM-R10.4)."""

    side: int
    square: int
    cell: tuple[int, int] | None
    """Where the stone is to go (board frame); None for a question."""


@dataclass(frozen=True, slots=True)
class Undo:
    """Mini-MEM under mini.pairSelection=FIRST_THEN_UNDO: how to take the turn's first move
    back when no second move can follow (MEM-A07)."""

    square: int
    colour: int
    committed: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    winners: tuple[int, ...]
    """Side indexes; empty for a draw, or for a solitaire game that was not won."""
    reason: str
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class State:
    setup: Setup
    board: tuple[int, ...]
    """32 colours in square order, 0 for an empty square."""
    sides: tuple[Side, ...]
    turn: int
    """The side on turn."""
    turn_number: int = 1
    moves_made: int = 0
    """Moves made in the current turn."""
    captured: bool = False
    """Whether the side on turn has captured this turn."""
    pending: Pending | None = None
    barred: tuple[int, ...] = ()
    """Squares the side on turn may not take this turn: blocked (MEM-R10.3c)."""
    blocked: bool = False
    """The side on turn has been blocked this turn (MEM-A11)."""
    pledged: int | None = None
    """A square the side on turn must take: they asked and were told "no" (MEM-R10.4)."""
    undo: Undo | None = None
    moves: int = 0
    """Moves made in the whole game."""
    outcome: Outcome | None = None

    @property
    def other(self) -> int:
        return (self.turn + 1) % len(self.sides)
