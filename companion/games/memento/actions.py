"""memento ludis actions: one per turn (ML-T0). Points are numbered as in
companion/games/memento/board.py.

    Move(side=0, source=6, target=27)
    Split(side=1, source=4, parts=((3, 1), (5, 1)))      # a Double into two Singles
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.codec import Codec
from companion.games.contract import Action


@dataclass(frozen=True, slots=True)
class Place(Action):
    """The opening: one Single on any empty point (ML-S4, ML-A04)."""

    kind: ClassVar[str] = "place"
    side: int
    point: int


@dataclass(frozen=True, slots=True)
class BringIn(Action):
    """Two new Singles from the pool and the player's markers (ML-T1)."""

    kind: ClassVar[str] = "bring_in"
    side: int
    first: int
    second: int


@dataclass(frozen=True, slots=True)
class Turn(Action):
    """Turn a triangle (ML-T2, ML-A06): 'clockwise' or 'anticlockwise' under ROTATE;
    'flip0', 'flip1' or 'flip2' (the corner whose median is the mirror) under FLIP."""

    kind: ClassVar[str] = "turn"
    side: int
    triangle: int
    direction: str


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Move a figure, beating whatever stands on the target (ML-T3, ML-T3a)."""

    kind: ClassVar[str] = "move"
    side: int
    source: int
    target: int


@dataclass(frozen=True, slots=True)
class Split(Action):
    """Split a Double or a Tripple into new figures on free points (ML-T4): `parts` are
    (point, stones); the first part keeps the figure's own marker."""

    kind: ClassVar[str] = "split"
    side: int
    source: int
    parts: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """No legal action exists (ML-A10, under ml.noAction=PASS)."""

    kind: ClassVar[str] = "pass"
    side: int


ACTIONS: Codec[Action] = Codec("action", [Place, BringIn, Turn, Move, Split, Pass])
