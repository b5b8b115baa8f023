"""Plain-English sentences for memento ludis events, for a ticker, a log or a terminal.

Nothing is hidden, so every event may be told in full. Points are named by number and by
place ("point 6, the top triangle's middle").
"""

from __future__ import annotations

from companion.games.contract import Event
from companion.games.memento import events as E
from companion.games.memento.board import TRIANGLES
from companion.games.memento.setup import Setup
from companion.games.memento.state import FIGURES

_REASONS = {
    "four_middles": "holding the middle points of all four triangles",
    "triangle": "holding a middle point and its three median points",
    "last_standing": "being the last player with figures on the board",
}
_DIRECTIONS = {
    "clockwise": "clockwise",
    "anticlockwise": "anticlockwise",
    "flip0": "over its first median",
    "flip1": "over its second median",
    "flip2": "over its third median",
}


def narrate(event: Event, setup: Setup) -> str | None:
    """One sentence for an event, or None for events not worth a line of their own."""
    names = setup.board.names

    def who(side: int) -> str:
        return setup.names[side] if 0 <= side < len(setup.names) else "nobody"

    def at(point: int) -> str:
        return f"point {point}, the {names[point]}" if 0 <= point < len(names) else "nowhere"

    match event:
        case E.GameStarted(first=first, stones=stones):
            return f"memento ludis begins with {stones} stones in the pool: {who(first)} starts."
        case E.TurnStarted(side=side, number=number):
            return f"Turn {number}: {who(side)} to play."
        case E.SinglePlaced(side=side, point=point):
            return f"{who(side)} opens with a Single on {at(point)}."
        case E.FiguresBroughtIn(side=side, points=points):
            where = " and ".join(at(p) for p in points)
            return f"{who(side)} brings in two Singles, on {where}."
        case E.TriangleTurned(side=side, triangle=triangle, direction=direction):
            turn = _DIRECTIONS.get(direction, direction)
            return f"{who(side)} turns the {TRIANGLES[triangle]} triangle {turn}."
        case E.FigureMoved(side=side, source=source, target=target, stones=stones):
            figure = FIGURES.get(stones, "figure")
            return f"{who(side)} moves a {figure} from {at(source)} to {at(target)}."
        case E.FigureBeaten(
            side=side, point=point, owner=owner, beaten_stones=under, stones=stones, returned=back
        ):
            whose = "their own" if owner == side else f"{who(owner)}'s"
            given = f"; {back} stones go back to the pool" if back else ""
            return (
                f"{who(side)} beats {whose} {FIGURES.get(under, 'figure')} on {at(point)}, "
                f"making a {FIGURES.get(stones, 'stack')}{given}."
            )
        case E.FigureSplit(side=side, source=source, parts=parts):
            pieces = ", ".join(f"a {FIGURES.get(s, 'figure')} to {at(p)}" for p, s in parts)
            return f"{who(side)} splits the figure on {at(source)}: {pieces}."
        case E.TurnPassed(side=side):
            return f"{who(side)} cannot act and passes."
        case E.PlayerOut(side=side, reason=reason):
            why = "has no figures left" if reason == "no_stones" else "cannot act"
            return f"{who(side)} {why} and is out of the game."
        case E.GameEnded(winner=winner, reason=reason):
            return f"Game over: {who(winner)} wins by {_REASONS.get(reason, reason)}."
    return None
