"""memento ludis on a drawn board (companion/games/touch.py and drawing.py): the board as
shapes, and each legal action as the taps that make it, so the generic touch play, the
display page and `companion print board` need nothing else of the game.

    TOUCH.paths(state, Move(side=0, source=3, target=7))    # (("p3", "p7"),)

Taps: a figure, then where it goes; a figure, a split button, then where each part goes;
"Bring in two", then two points; "Turn a triangle", its middle, then the way to turn it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.games.contract import JSON, Action
from companion.games.drawing import Drawing, Legend, Line, Spot, Text
from companion.games.memento import actions as A
from companion.games.memento.legal import legal_actions
from companion.games.memento.opponent import DEFAULT_STRENGTH, Opponent, hint
from companion.games.touch import Hint, Path, Press

WIDTH = 100.0
HEIGHT = WIDTH * 3**0.5 / 2
"""An equilateral big triangle: the view's unit triangle stretched to these sizes."""
POINT_RADIUS = 2.6
FIGURE_RADIUS = 3.3
LINE_COLOUR = "#5a4a3a"
POINT_OUTLINE = "#5a4a3a"
PLAYER_COLOURS = ("#c8322b", "#2b62c8", "#23914a", "#d89a12")
"""Each seat's colour markers: red, blue, green, amber."""

BRING_IN = "Bring in two"
TURN = "Turn a triangle"
PASS = "Pass"
DIRECTIONS = {
    "clockwise": "Clockwise",
    "anticlockwise": "Anticlockwise",
    "flip0": "Flip on corner 1",
    "flip1": "Flip on corner 2",
    "flip2": "Flip on corner 3",
}


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" + ("" if n == 1 else "s")


def key(point: int) -> str:
    return f"p{point}"


def player_colour(side: int) -> str:
    return PLAYER_COLOURS[side % len(PLAYER_COLOURS)]


def split_label(parts: Sequence[tuple[int, int]]) -> str:
    return "Split " + " + ".join(str(stones) for _, stones in parts)


class MementoTouch:
    players = (2, 4)
    strengths = (1, DEFAULT_STRENGTH, 5)
    option_rows: tuple[tuple[str, str], ...] = ()

    def legal_actions(self, state: Any) -> Sequence[Action]:
        return legal_actions(state)

    def paths(self, state: Any, action: Action) -> tuple[Path, ...]:
        match action:
            case A.Place(point=point):
                return ((key(point),),)
            case A.BringIn(first=first, second=second):
                bring = Press(BRING_IN)
                return ((bring, key(first), key(second)), (bring, key(second), key(first)))
            case A.Turn(triangle=triangle, direction=direction):
                middle = state.setup.board.middles[triangle]
                return ((Press(TURN), key(middle), Press(DIRECTIONS[direction])),)
            case A.Move(source=source, target=target):
                return ((key(source), key(target)),)
            case A.Split(source=source, parts=parts):
                targets = tuple(key(point) for point, _ in parts)
                return ((key(source), Press(split_label(parts)), *targets),)
            case A.Pass():
                return ((Press(PASS),),)
        return ()

    def drawing(self, view: JSON, chosen: Sequence[str], offered: frozenset[str]) -> Drawing:
        points = view["points"]

        def at(point: int) -> tuple[float, float]:
            spot = points[point]
            return (spot["x"] * WIDTH, spot["y"] * HEIGHT)

        # The transfers across the board's edge (ML-B4) are not drawn: a line for each
        # would cover the board in a web. The points they join are the triangles' corners.
        lines = tuple(Line(tuple(at(p) for p in run), LINE_COLOUR, 0.7) for run in view["lines"])
        spots = []
        for spot in points:
            point = int(spot["point"])
            owner = spot["owner"]
            stones = int(spot["stones"])
            marked = key(point) in chosen or key(point) in offered
            if owner is None:
                spots.append(
                    Spot(key(point), at(point), POINT_RADIUS, outline=POINT_OUTLINE, marked=marked)
                )
                continue
            spots.append(
                Spot(
                    key(point),
                    at(point),
                    FIGURE_RADIUS,
                    fill=player_colour(int(owner)),
                    outline="#202020",
                    label=str(stones),
                    rings=stones - 1,
                    marked=marked,
                )
            )
        texts = (Text((WIDTH * 0.12, HEIGHT * 0.06), f"Pool: {view['pool']}", 3.4),)
        legend = tuple(
            Legend(player_colour(i), line.split(": ", 1)[-1])
            for i, line in enumerate(self.side_lines(view))
        )
        return Drawing(WIDTH, HEIGHT, lines, tuple(spots), texts, legend)

    def side_lines(self, view: JSON) -> tuple[str, ...]:
        lines = []
        for side in view["sides"]:
            line = (
                f"{side['name']}: {_count(side['figures'], 'figure')}, "
                f"{_count(side['stones'], 'stone')}, {_count(side['markers'], 'marker')}"
            )
            lines.append(line + (" (out)" if side["out"] else ""))
        return tuple(lines)

    def opponent_move(self, state: Any, strength: int, rng: random.Random) -> Action:
        return Opponent(strength, seed=rng.randrange(1 << 30)).choose(state)

    def hint(self, state: Any) -> Hint:
        found = hint(state)
        return Hint(found.action, found.explanation)

    def setup_for(self, names: Sequence[str], seed: int) -> JSON:
        return {"sides": [{"name": name} for name in names], "seed": seed}

    def game_clock(self, setup: JSON) -> JSON | None:
        return None  # memento ludis is played without a clock


TOUCH = MementoTouch()
