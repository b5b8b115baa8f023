"""memento ludis events: what happened. Everything is public, so every viewer gets them all."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.codec import Codec
from companion.games.contract import Event


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    kind: ClassVar[str] = "game_started"
    first: int
    stones: int
    """Stones in the shared pool."""


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    side: int
    number: int


@dataclass(frozen=True, slots=True)
class SinglePlaced(Event):
    kind: ClassVar[str] = "single_placed"
    side: int
    point: int


@dataclass(frozen=True, slots=True)
class FiguresBroughtIn(Event):
    kind: ClassVar[str] = "figures_brought_in"
    side: int
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TriangleTurned(Event):
    kind: ClassVar[str] = "triangle_turned"
    side: int
    triangle: int
    direction: str


@dataclass(frozen=True, slots=True)
class FigureMoved(Event):
    kind: ClassVar[str] = "figure_moved"
    side: int
    source: int
    target: int
    stones: int


@dataclass(frozen=True, slots=True)
class FigureBeaten(Event):
    """The mover's stack lands on `owner`'s figure at `point`: the beaten marker goes back to
    its owner, the stacks merge, and `returned` stones go back to the pool (ML-T3)."""

    kind: ClassVar[str] = "figure_beaten"
    side: int
    point: int
    owner: int
    beaten_stones: int
    stones: int
    """The stack under the winner's marker afterwards."""
    returned: int


@dataclass(frozen=True, slots=True)
class FigureSplit(Event):
    kind: ClassVar[str] = "figure_split"
    side: int
    source: int
    parts: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    kind: ClassVar[str] = "turn_passed"
    side: int


@dataclass(frozen=True, slots=True)
class PlayerOut(Event):
    kind: ClassVar[str] = "player_out"
    side: int
    reason: str
    """'no_stones' (ML-W2) or 'no_action' (ML-A10 reading b)."""


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    winner: int
    reason: str


EVENTS: Codec[Event] = Codec(
    "event",
    [
        GameStarted,
        TurnStarted,
        SinglePlaced,
        FiguresBroughtIn,
        TriangleTurned,
        FigureMoved,
        FigureBeaten,
        FigureSplit,
        TurnPassed,
        PlayerOut,
        GameEnded,
    ],
)
