"""The seams between a game and what serves it: the parts a game is taken up with, handed
across every callback by name.

`app`, `run` and `simulate` each build a game's referee, and with it (when the game has them)
its clock and its card-scan desk; whatever serves the game (the stream, say) is given the
lot as one `GameParts`, so that no caller can hand a clock where scans are expected.

    def stream(parts: GameParts) -> Callable[[], None]: ...   # an OnGame
    put_down = stream(GameParts(referee=referee, clock=clock, scans=desk))
    ...
    put_down()
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.clock.game import GameClock
    from companion.observations import ScanDesk
    from companion.session import Referee


@dataclass(frozen=True, kw_only=True)
class GameParts:
    """One game as it is played at this table."""

    referee: Referee
    clock: GameClock | None = None
    """The game clock, when the game is timed."""
    scans: ScanDesk | None = None
    """Where card scans are checked against the rules, when a card reader is in use."""


PutDown = Callable[[], None]
"""Called once when the game is put down (finished, or another one taken up)."""

OnGame = Callable[["GameParts"], PutDown]
"""Called with each game taken up; returns what to call when it is put down."""
