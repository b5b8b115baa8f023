"""A board as plain shapes, so that one drawing serves every surface: the display page and
the wall draw it in the browser, the touchscreen draws it and finds what a tap hit, and
`companion print board` prints it. A game that gives its board this way needs no drawing
code of its own anywhere.

    Drawing(width=100, height=87, lines=(Line(((0, 87), (50, 0)), "#555555"),),
            spots=(Spot("7", (50, 30), 3.0, fill="#d03030", label="2"),))

Coordinates are in the board's own units, x to the right and y down; colours are CSS hex
strings. A spot with a `key` is a place a tap can name.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Line:
    """A polyline: a printed line of the board."""

    points: tuple[Point, ...]
    colour: str = "#555555"
    width: float = 0.6


@dataclass(frozen=True, slots=True)
class Spot:
    """A round mark: a point of the board, and what stands on it."""

    key: str
    """What a tap on it names ('' for a mark nobody taps)."""
    at: Point
    radius: float
    fill: str = ""
    """'' for none: the board's own point, drawn as a ring."""
    outline: str = "#555555"
    label: str = ""
    """A short text in the middle (a stack's height)."""
    rings: int = 0
    """Extra rings around it: a stack of pieces under its top one."""
    marked: bool = False
    """Highlighted: a place the awaited move may name, or the one chosen."""


@dataclass(frozen=True, slots=True)
class Text:
    at: Point
    text: str
    size: float = 3.0
    colour: str = "#333333"


@dataclass(frozen=True, slots=True)
class Legend:
    """One side's colour, and what it has, in a few words ('4 figures, 5 stones')."""

    colour: str
    text: str


@dataclass(frozen=True, slots=True)
class Drawing:
    width: float
    height: float
    lines: tuple[Line, ...] = ()
    spots: tuple[Spot, ...] = ()
    texts: tuple[Text, ...] = ()
    legend: tuple[Legend, ...] = ()
    """One per side, in seating order: how the pages show the sides of a game they have no
    panels of their own for."""
    background: str = "#ede7da"
    """The board's paper, behind everything: light, so the lines and every colour show."""

    def with_margin(self, margin: float) -> Drawing:
        """The same board with `margin` of its paper all round, so that points on its edge
        are whole."""

        def moved(point: Point) -> Point:
            return (point[0] + margin, point[1] + margin)

        return replace(
            self,
            width=self.width + 2 * margin,
            height=self.height + 2 * margin,
            lines=tuple(
                replace(line, points=tuple(map(moved, line.points))) for line in self.lines
            ),
            spots=tuple(replace(spot, at=moved(spot.at)) for spot in self.spots),
            texts=tuple(replace(text, at=moved(text.at)) for text in self.texts),
        )

    @property
    def reach(self) -> float:
        """How far the spots stand out past their points: the margin a printed board needs."""
        return max((spot.radius * (1 + 0.28 * spot.rings) for spot in self.spots), default=0.0)

    def spot_at(self, point: Point, slack: float = 1.6) -> Spot | None:
        """The tappable spot under `point` (board units), nearest first; a tap a little
        outside a small spot still names it (`slack` times its radius)."""
        best: tuple[float, Spot] | None = None
        for spot in self.spots:
            if not spot.key:
                continue
            dx, dy = point[0] - spot.at[0], point[1] - spot.at[1]
            distance = (dx * dx + dy * dy) ** 0.5
            if distance <= spot.radius * slack and (best is None or distance < best[0]):
                best = (distance, spot)
        return None if best is None else best[1]

    def to_dict(self) -> dict[str, Any]:
        """JSON for the pages: short keys, numbers rounded to what a screen can show."""

        def xy(point: Point) -> list[float]:
            return [round(point[0], 2), round(point[1], 2)]

        return {
            "width": round(self.width, 2),
            "height": round(self.height, 2),
            "background": self.background,
            "lines": [
                {"points": [xy(p) for p in line.points], "colour": line.colour, "width": line.width}
                for line in self.lines
            ],
            "spots": [
                {
                    "key": spot.key,
                    "at": xy(spot.at),
                    "radius": round(spot.radius, 2),
                    "fill": spot.fill,
                    "outline": spot.outline,
                    "label": spot.label,
                    "rings": spot.rings,
                    "marked": spot.marked,
                }
                for spot in self.spots
            ],
            "texts": [
                {"at": xy(t.at), "text": t.text, "size": t.size, "colour": t.colour}
                for t in self.texts
            ],
            "legend": [{"colour": entry.colour, "text": entry.text} for entry in self.legend],
        }
