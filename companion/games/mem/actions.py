"""MeM actions. `side` is the acting player (0 or 1); squares are numbered 0..31 in reading
order; `row`, `col` give a cell of the acting player's playing space, counted from its first
stone at (0, 0) and read in that player's frame (house rule mem.orientationFrame)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.codec import Codec
from companion.games.contract import Action


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Take the stone on `square` and put it at (row, col) of the playing space (MEM-R3)."""

    kind: ClassVar[str] = "move"
    side: int
    square: int
    row: int = 0
    col: int = 0


@dataclass(frozen=True, slots=True)
class Ask(Action):
    """ "Will you block my taking this stone?" (MEM-R10.4)."""

    kind: ClassVar[str] = "ask"
    side: int
    square: int


@dataclass(frozen=True, slots=True)
class Block(Action):
    """ "I block that", pointing at the pattern stone at (row, col) that represents the stone
    asked about or about to be taken (MEM-R10.3a)."""

    kind: ClassVar[str] = "block"
    side: int
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class Allow(Action):
    """No block: the announced move goes ahead, or the asker must take the stone."""

    kind: ClassVar[str] = "allow"
    side: int


@dataclass(frozen=True, slots=True)
class Capture(Action):
    """Capture the isolated group that holds `square` (MEM-R7, MEM-R8)."""

    kind: ClassVar[str] = "capture"
    side: int
    square: int


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn after a move without capturing."""

    kind: ClassVar[str] = "end_turn"
    side: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass: only with no legal move and no legal capture (MEM-R10.1d), or after a block
    under house rule mem.block.afterBlock=MAY_PASS."""

    kind: ClassVar[str] = "pass"
    side: int


@dataclass(frozen=True, slots=True)
class TimeExpired(Action):
    """The game clock: `side`'s time ran out while the rules waited on their decision
    (MEM-A16, house rule mem.timeout). Only in a game set up with a clock (`timer`)."""

    kind: ClassVar[str] = "time_expired"
    side: int


ACTIONS: Codec[Action] = Codec(
    "action", [Move, Ask, Block, Allow, Capture, EndTurn, Pass, TimeExpired]
)
