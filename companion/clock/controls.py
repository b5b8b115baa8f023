"""Time controls as data: what a player's clock allows, from sudden death to byo-yomi.

    TimeControl.sudden_death(300)                      # 5 minutes, no increment
    TimeControl.stages_of(Stage(40, s(5400), s(30)), Stage(None, s(1800), s(30)))
    TimeControl(kind=Kind.HOURGLASS, hourglass_ns=s(180))

Every duration is integer nanoseconds. Strings (PGN TimeControl and the extensions) are
parsed and printed in companion.clock.notation.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

NS_PER_S = 1_000_000_000


def s(seconds: int | float) -> int:
    """Seconds to nanoseconds, exactly for whole and decimal-written values."""
    return round(seconds * NS_PER_S)


class Kind(Enum):
    STAGES = "stages"
    """Sudden death, increments, delays and multi-period controls: one or more stages."""
    HOURGLASS = "hourglass"
    """Sandclock: time the mover uses flows to the opponent (two players)."""
    UPCOUNT = "upcount"
    """A stopwatch per player: counts time used, never flags."""
    UNKNOWN = "unknown"
    """PGN '?': the control is not known; the clock counts up."""
    NONE = "none"
    """PGN '-': no time control; the clock counts up."""


class Delay(Enum):
    NONE = "none"
    FISCHER = "fischer"
    """An increment added after each completed move, while the flag has not fallen."""
    BRONSTEIN = "bronstein"
    """The time used, up to the delay, is given back after the move: never more."""
    SIMPLE = "simple"
    """US delay: the clock waits `delay` before it starts counting down each move."""


@dataclass(frozen=True, slots=True)
class Stage:
    """One period of play: `moves` moves (None: the rest of the game) in `time_ns`, with a
    per-move bonus of kind `bonus` and size `bonus_ns`."""

    moves: int | None
    time_ns: int
    bonus_ns: int = 0
    bonus: Delay = Delay.NONE

    def __post_init__(self) -> None:
        if self.bonus_ns and self.bonus is Delay.NONE:
            object.__setattr__(self, "bonus", Delay.FISCHER)


@dataclass(frozen=True, slots=True)
class ByoYomi:
    """Overtime after the main time: Japanese (`periods` periods of `period_ns`, one move
    each) when `moves` is 1, Canadian (`moves` moves in `period_ns`) when it is more."""

    periods: int
    period_ns: int
    moves: int = 1

    @property
    def canadian(self) -> bool:
        return self.moves > 1


@dataclass(frozen=True, slots=True)
class TimeControl:
    kind: Kind
    stages: tuple[Stage, ...] = ()
    """For STAGES: played in order; the last one repeats (PGN 9.6.1)."""
    hourglass_ns: int = 0
    byo_yomi: ByoYomi | None = None
    move_limit_ns: int | None = None
    """A per-move limit: a move that takes longer is forfeited (MnemoGame's 30 s guess)."""

    @staticmethod
    def sudden_death(seconds: int | float, increment: int | float = 0) -> TimeControl:
        return TimeControl(Kind.STAGES, (Stage(None, s(seconds), s(increment)),))

    @staticmethod
    def stages_of(
        *stages: Stage, byo_yomi: ByoYomi | None = None, move_limit_ns: int | None = None
    ) -> TimeControl:
        return TimeControl(
            Kind.STAGES, tuple(stages), byo_yomi=byo_yomi, move_limit_ns=move_limit_ns
        )

    @property
    def counts_up(self) -> bool:
        return self.kind in (Kind.UPCOUNT, Kind.UNKNOWN, Kind.NONE)

    def stage(self, index: int) -> Stage:
        """The stage a player is in after `index` stage changes; the last one repeats."""
        return self.stages[min(index, len(self.stages) - 1)]

    def starting_time_ns(self) -> int:
        if self.kind is Kind.STAGES:
            return self.stages[0].time_ns
        if self.kind is Kind.HOURGLASS:
            return self.hourglass_ns
        return 0
