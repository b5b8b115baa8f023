"""The memento ludis board as plain text lines, drawn from a view (view.py: nothing is
hidden), for a terminal (`companion replay RECORD --step`).

Every point stands where the view places it in the big triangle, one text row for each of
its heights, and shows its number while it is empty, or its figure: the owner's letter and
the figure's stones (A2: a Double of the first side). The lines and transfers are not drawn.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable

from companion.games.contract import JSON

_TOKEN = 2
"""Characters per point: a number up to 99, or a letter and a count of stones."""
_MIN_WIDTH = 24
_MAX_WIDTH = 120


def side_letter(side: int) -> str:
    return chr(ord("A") + side) if 0 <= side < 26 else "?"


def text_board(view: JSON) -> tuple[str, ...]:
    points: list[JSON] = view.get("points") or []
    rows: dict[float, list[JSON]] = {}
    for point in points:
        rows.setdefault(round(float(point["y"]), 3), []).append(point)
    scale = _scale(rows.values())
    lines = []
    for y in sorted(rows):
        line = [" "] * (_MAX_WIDTH + _TOKEN + 1)
        for point in sorted(rows[y], key=lambda p: float(p["x"])):
            at = math.floor(float(point["x"]) * scale + 0.5)
            token = _token(point).rjust(_TOKEN)
            line[at : at + _TOKEN] = token
        lines.append("".join(line).rstrip())
    sides = view.get("sides") or []
    named = ", ".join(f"{side_letter(i)} {side.get('name', '')}" for i, side in enumerate(sides))
    lines.append("")
    lines.append(
        f"Figures: {named}, each with its stones (A2: a Double); a number: an empty point."
    )
    for i, side in enumerate(sides):
        out = ", out" if side.get("out") else ""
        lines.append(
            f"{side_letter(i)} {side.get('name', '')}: {_count(side.get('figures', 0), 'figure')}, "
            f"{_count(side.get('stones', 0), 'stone')}, {_count(side.get('markers', 0), 'marker')}"
            f"{out}"
        )
    lines.append(f"Pool: {_count(view.get('pool', 0), 'stone')}.")
    return tuple(lines)


def _token(point: JSON) -> str:
    owner = point.get("owner")
    stones = point.get("stones") or 0
    if owner is None or not stones:
        return str(point.get("point", ""))[-_TOKEN:]
    return side_letter(owner) + (str(stones) if stones < 10 else "+")


def _scale(rows: Iterable[list[JSON]]) -> float:
    """Columns per unit of x: enough that no two points of a row touch."""
    gap = 1.0
    for row in rows:
        xs = sorted(float(p["x"]) for p in row)
        gap = min([gap, *(b - a for a, b in itertools.pairwise(xs) if b > a)])
    width = math.ceil((_TOKEN + 1) / gap)
    return float(min(_MAX_WIDTH, max(_MIN_WIDTH, width)))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")
