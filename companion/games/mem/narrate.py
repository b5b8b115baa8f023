"""Plain-English sentences for MeM events, for a ticker, a log or a terminal.

Nothing in MeM is hidden, so every event may be told in full. Stones are named by their
colour and their square, cells of a playing space as (row, column).
"""

from __future__ import annotations

from collections.abc import Callable

from companion.games.contract import Event
from companion.games.mem import events as E
from companion.games.mem.colours import NAME
from companion.games.mem.setup import TITLES, Game, Setup

_GAMES = {game.value: game for game in Game}


def narrate(event: Event, setup: Setup) -> str | None:
    """One sentence for an event, or None for events not worth a line of their own."""

    def who(side: int) -> str:
        return setup.names[side] if 0 <= side < len(setup.names) else "nobody"

    match event:
        case E.GameStarted(game=game, first=first):
            title = TITLES.get(_GAMES.get(game, setup.game), game)
            if setup.side_count == 1:
                return f"{title} begins: {who(first)} plays alone."
            return f"{title} begins: {who(first)} plays first."
        case E.TurnStarted(side=side, number=number):
            return f"Turn {number}: {who(side)} to play."
        case E.MoveAnnounced(side=side, square=square):
            return (
                f"{who(side)} reaches for the stone on square {square}: "
                f"{who(1 - side)} may block it."
            )
        case E.BlockAsked(side=side, square=square):
            return f"{who(side)} asks {who(1 - side)}: will you block square {square}?"
        case E.BlockDeclined(side=side, square=square, forced=True):
            return f"{who(side)} cannot block square {square}, so {who(1 - side)} must take it."
        case E.BlockDeclined(side=side, square=square):
            return f"{who(side)} does not block square {square}."
        case E.StoneBlocked(side=side, square=square, row=row, col=col, lock=lock):
            locked = f"; {who(side)}'s pattern is now locked to that group" if lock else ""
            stone = f"the pattern stone at ({row}, {col})"
            return f"{who(side)} blocks square {square} with {stone}{locked}."
        case E.StoneMoved(side=side, square=square, colour=colour, row=row, col=col):
            return (
                f"{who(side)} takes the {NAME.get(colour, 'unknown')} stone from square "
                f"{square} to ({row}, {col})."
            )
        case E.MoveTakenBack(side=side, square=square):
            return f"{who(side)}'s stone goes back to square {square}: no second move could follow."
        case E.GroupCaptured(side=side, squares=squares, pattern_stones=pattern, pile=pile):
            return (
                f"{who(side)} captures {_stones(len(squares))} with a pattern of {pattern}: "
                f"{pile} in the pile."
            )
        case E.PatternDied(side=side):
            return f"{who(side)}'s pattern matches nothing on the board any more."
        case E.TurnPassed(side=side, reason=reason):
            return f"{who(side)} passes ({reason})."
        case E.PlayerOut(side=side):
            return f"{who(side)} cannot take a turn any more and is out."
        case E.FlagFell(side=side):
            return f"{who(side)}'s time has run out."
        case E.GameEnded(winners=winners, reason="time", scores=scores) if winners:
            tally = ", ".join(f"{who(i)} {score}" for i, score in enumerate(scores))
            return f"Game over: {' and '.join(who(w) for w in winners)} wins on time ({tally})."
        case E.GameEnded(winners=winners, scores=scores):
            return _ending(setup, winners, scores, who)
    return None


def _stones(count: int) -> str:
    return f"{count} stone{'s' * (count != 1)}"


def _ending(
    setup: Setup, winners: tuple[int, ...], scores: tuple[int, ...], who: Callable[[int], str]
) -> str:
    if setup.game is Game.SOLITAIRE:
        pattern = _stones(scores[0]) if scores else "no stones"
        won = "won" if winners else "not won"
        return f"Game over: {won}, with a pattern of {pattern}."
    tally = ", ".join(f"{who(i)} {score}" for i, score in enumerate(scores))
    if not winners:
        return f"Game over: a draw ({tally})."
    return f"Game over: {' and '.join(who(w) for w in winners)} wins ({tally})."
