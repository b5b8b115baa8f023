"""The seams between a game and what serves it: the parts a game is taken up with, handed
across every callback by name.

`app`, `run` and `simulate` each start or resume a game's referee and open its card reader
(companion/table/card_reading.py); `parts_of` adds the game's clock, and whatever serves the game
(the stream, say) is given the lot as one `GameParts`, so that no caller can hand a clock
where scans are expected.

    def stream(parts: GameParts) -> Callable[[], None]: ...   # an OnGame
    put_down = stream(parts_of(referee, reading))
    ...
    put_down()
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.table.game_clock import GameClock

if TYPE_CHECKING:
    from companion.session import Referee
    from companion.table.card_reading import CardReading
    from companion.table.observations import ScanDesk


@dataclass(frozen=True, kw_only=True)
class GameParts:
    """One game as it is played at this table."""

    referee: Referee
    clock: GameClock | None = None
    """The game clock, when the game is timed."""
    scans: ScanDesk | None = None
    """Where card scans are checked against the rules, when a card reader is in use."""
    call_soon: Callable[[Callable[[], None]], None] | None = None
    """Runs a job on the thread that plays the game (the app's clock), for what arrives on
    other threads (a phone's move); None where the game has no such thread to wait for."""


PutDown = Callable[[], None]
"""Called once when the game is put down (finished, or another one taken up)."""

OnGame = Callable[["GameParts"], PutDown]
"""Called with each game taken up; returns what to call when it is put down."""


def together(*listeners: OnGame) -> OnGame:
    """One OnGame that hands each game to every listener, and puts it down from each."""

    def on_game(parts: GameParts) -> PutDown:
        put_downs = [listener(parts) for listener in listeners]

        def put_down() -> None:
            for each in reversed(put_downs):
                each()

        return put_down

    return on_game


def parts_of(
    referee: Referee,
    reading: CardReading | None = None,
    call_soon: Callable[[Callable[[], None]], None] | None = None,
    *,
    timed: bool = True,
) -> GameParts:
    """The parts of the referee's game: its clock (rebuilt from the store, when the game is
    timed and its clock is kept here: `timed` False where it runs elsewhere, at a remote
    game's guest), the desk of its card reader, when it has one, and how to reach its
    thread."""
    return GameParts(
        referee=referee,
        clock=GameClock.attach(referee) if timed else None,
        scans=reading.desk if reading is not None else None,
        call_soon=call_soon,
    )
