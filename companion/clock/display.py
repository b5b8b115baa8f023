"""How a clock reads: digits for each player, and the states lights and buzzers follow.

format_time(3_725_000_000_000)      # '1:02:05'
format_time(65_000_000_000)         # '1:05'
format_time(9_340_000_000)          # '9.3'  (tenths below the threshold)
"""

from __future__ import annotations

from dataclasses import dataclass

NS_PER_S = 1_000_000_000
DEFAULT_TENTHS_BELOW_NS = 20 * NS_PER_S
DEFAULT_WARNING_AT_NS = 10 * NS_PER_S


def format_time(ns: int, tenths_below_ns: int = DEFAULT_TENTHS_BELOW_NS) -> str:
    """h:mm:ss from an hour up, m:ss below, s.t (tenths) below `tenths_below_ns`.

    Time is shown rounded down, as clocks do: 9.99 s reads 9.9, never 10.0. Negative
    times (an upcount clock never has them; a flagged player's shows 0) read as 0.
    """
    ns = max(0, ns)
    if ns < tenths_below_ns and ns < 60 * NS_PER_S:
        tenths = ns // (NS_PER_S // 10)
        return f"{tenths // 10}.{tenths % 10}"
    seconds = ns // NS_PER_S
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


@dataclass(frozen=True, slots=True)
class PlayerDisplay:
    remaining_ns: int
    """Time left (for an upcount clock: time used)."""
    text: str
    running: bool
    flagged: bool
    warning: bool
    """Under the warning threshold (default 10 s) and not flagged."""
    moves: int
    detail: str = ""
    """Extra state worth showing: a byo-yomi period count, or `delay 3.5` while a simple
    delay runs."""
    delay_ns: int = 0
    """A simple delay still running for this move: the time shown starts counting down
    when it reaches 0. Only the player whose move it is has one."""


@dataclass(frozen=True, slots=True)
class ClockDisplay:
    players: tuple[PlayerDisplay, ...]
    running: int | None
    """The player whose time runs, or None while paused or before the first press."""
    paused: bool
