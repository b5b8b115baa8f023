"""MeM events: what happened. Everything in MeM is public, so every viewer gets them all.
Cells are in the board's frame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.codec import Codec
from companion.games.contract import Event


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    kind: ClassVar[str] = "game_started"
    game: str
    board: str
    """The starting board as BOARD text."""
    first: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    side: int
    number: int


@dataclass(frozen=True, slots=True)
class MoveAnnounced(Event):
    """The move waits while the other player may block it."""

    kind: ClassVar[str] = "move_announced"
    side: int
    square: int


@dataclass(frozen=True, slots=True)
class BlockAsked(Event):
    kind: ClassVar[str] = "block_asked"
    side: int
    square: int


@dataclass(frozen=True, slots=True)
class BlockDeclined(Event):
    """No block; after a question the asker must take the stone (`forced` when the other
    player could not have blocked it)."""

    kind: ClassVar[str] = "block_declined"
    side: int
    square: int
    forced: bool


@dataclass(frozen=True, slots=True)
class StoneBlocked(Event):
    kind: ClassVar[str] = "stone_blocked"
    side: int
    square: int
    row: int
    col: int
    lock: tuple[int, int] | None
    """The translation the blocker's pattern is now locked to, or None (MEM-A09)."""


@dataclass(frozen=True, slots=True)
class StoneMoved(Event):
    kind: ClassVar[str] = "stone_moved"
    side: int
    square: int
    colour: int
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class MoveTakenBack(Event):
    """Mini-MEM, mini.pairSelection=FIRST_THEN_UNDO: no second move could follow."""

    kind: ClassVar[str] = "move_taken_back"
    side: int
    square: int


@dataclass(frozen=True, slots=True)
class GroupCaptured(Event):
    kind: ClassVar[str] = "group_captured"
    side: int
    squares: tuple[int, ...]
    pattern_stones: int
    pile: int


@dataclass(frozen=True, slots=True)
class PatternDied(Event):
    """The pattern matches nothing left on the board (MEM-R10.2)."""

    kind: ClassVar[str] = "pattern_died"
    side: int


@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    kind: ClassVar[str] = "turn_passed"
    side: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerOut(Event):
    """Mini-MEM: this player cannot take a turn any more; the other plays on (MEM-R5)."""

    kind: ClassVar[str] = "player_out"
    side: int


@dataclass(frozen=True, slots=True)
class FlagFell(Event):
    """The game clock: this player's time ran out (MEM-A16); the game ends."""

    kind: ClassVar[str] = "flag_fell"
    side: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...]


EVENTS: Codec[Event] = Codec(
    "event",
    [
        GameStarted,
        TurnStarted,
        MoveAnnounced,
        BlockAsked,
        BlockDeclined,
        StoneBlocked,
        StoneMoved,
        MoveTakenBack,
        GroupCaptured,
        PatternDied,
        TurnPassed,
        PlayerOut,
        FlagFell,
        GameEnded,
    ],
)
