"""Time controls as data: what a player's clock allows, from sudden death to byo-yomi.

    TimeControl.sudden_death(300)                      # 5 minutes, no increment
    TimeControl.stages_of(Stage(40, s(5400), s(30)), Stage(None, s(1800), s(30)))
    TimeControl(kind=Kind.HOURGLASS, hourglass_ns=s(180))

Every duration is integer nanoseconds. Strings (PGN TimeControl and the extensions) are
parsed and printed in companion.clock.notation.
"""

from __future__ import annotations

from collections.abc import Sequence
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
    BRONSTEIN = "bronstein"
    """The time used, up to the delay, is given back after the move: never more."""
    SIMPLE = "simple"
    """US delay: the clock waits `delay` before it starts counting down each move."""


@dataclass(frozen=True, slots=True)
class Stage:
    """One period of play: `moves` moves (None: the rest of the game) in `time_ns`, with a
    Fischer increment of `increment_ns` added after each completed move, and a delay of kind
    `delay` and length `delay_ns` on each move. A delay and an increment may go together
    (`300d5+2`, as several federations allow).

        Stage(40, s(5400), s(30))                       # 40/5400+30
        Stage(None, s(300), s(2), s(5), Delay.SIMPLE)   # 300d5+2
    """

    moves: int | None
    time_ns: int
    increment_ns: int = 0
    delay_ns: int = 0
    delay: Delay = Delay.NONE

    def __post_init__(self) -> None:
        if self.delay_ns < 0 or self.increment_ns < 0:
            raise ValueError("a delay or an increment cannot be negative")
        if not self.delay_ns:
            object.__setattr__(self, "delay", Delay.NONE)  # a 0 s delay is no delay
        elif self.delay is Delay.NONE:
            raise ValueError("a delay needs its kind: Delay.SIMPLE or Delay.BRONSTEIN")

    @property
    def grace_ns(self) -> int:
        """How long the clock waits each move before it counts down (a simple delay)."""
        return self.delay_ns if self.delay is Delay.SIMPLE else 0


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

    def problem(self) -> str | None:
        """Why this control cannot be played as written (see `stage_problem`), or None."""
        if self.kind is Kind.HOURGLASS and self.hourglass_ns <= 0:
            return "an hourglass of 0 s leaves no time at all"
        if self.kind is Kind.STAGES:
            found = stage_problem(self.stages, self.byo_yomi)
            return found[1] if found else None
        return None

    def starting_time_ns(self) -> int:
        if self.kind is Kind.STAGES:
            return self.stages[0].time_ns
        if self.kind is Kind.HOURGLASS:
            return self.hourglass_ns
        return 0


def stage_problem(
    stages: Sequence[Stage], byo_yomi: ByoYomi | None = None
) -> tuple[int, str] | None:
    """The first stage that cannot be played as written, and why; None when all can.

    A stage without a number of moves is the rest of the game, so no stage can follow it
    (`300:40/9000` would never reach its second period). And every stage must give time:
    one of 0 s would flag its player the instant their time ran (`40/0`, `0+5`, `0b5`; the
    increment or Bronstein refund comes only after a move). A simple delay is time of its
    own (`0d5` gives 5 s a move), and so is byo-yomi after no main time (`0|5x30`).
    """
    for index, stage in enumerate(stages):
        if stage.moves is None and index < len(stages) - 1:
            return index, (
                "a period without a number of moves lasts the rest of the game, "
                "so it must be the last"
            )
        pure_byo_yomi = byo_yomi is not None and len(stages) == 1
        if stage.time_ns + stage.grace_ns <= 0 and not pure_byo_yomi:
            return index, "a period of 0 s leaves no time at all"
    return None
