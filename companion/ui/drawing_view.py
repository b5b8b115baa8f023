"""A board given as shapes (companion/games/drawing.py) on the touchscreen: drawn to fit the
widget, and a tap turned into the key of the spot it hit. Whatever the game, nothing about
it is known here.

    view = DrawingView(on_spot=play.tap)
    view.show(drawing)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.uix.widget import Widget

from companion.games.drawing import Drawing, Point

MARKED_RGB = (1.0, 0.75, 0.0)


def rgb(colour: str) -> tuple[float, float, float]:
    """'#rrggbb' as Kivy's 0..1 floats; grey for anything else."""
    text = colour.lstrip("#")
    if len(text) != 6:
        return (0.5, 0.5, 0.5)
    try:
        return (int(text[0:2], 16) / 255, int(text[2:4], 16) / 255, int(text[4:6], 16) / 255)
    except ValueError:
        return (0.5, 0.5, 0.5)


class DrawingView(Widget):
    """Draws a Drawing; a tap on a spot with a key calls `on_spot(key)`."""

    def __init__(self, **kwargs: Any) -> None:
        self.on_spot: Callable[[str], None] | None = kwargs.pop("on_spot", None)
        super().__init__(**kwargs)
        self.drawing: Drawing | None = None
        self.bind(pos=self._redraw, size=self._redraw)

    def show(self, drawing: Drawing) -> None:
        self.drawing = drawing
        self._redraw()

    # -- board units <-> widget ------------------------------------------------------------

    def _fit(self) -> tuple[float, float, float]:
        """Scale and offset that fit the board in the widget, with a margin, y flipped."""
        drawing = self.drawing
        assert drawing is not None
        margin = 0.05
        scale = min(
            self.width / (drawing.width * (1 + 2 * margin)),
            self.height / (drawing.height * (1 + 2 * margin)),
        )
        left = self.x + (self.width - drawing.width * scale) / 2
        top = self.y + (self.height + drawing.height * scale) / 2
        return scale, left, top

    def to_widget_point(self, point: Point) -> tuple[float, float]:
        scale, left, top = self._fit()
        return left + point[0] * scale, top - point[1] * scale

    def spot_centre(self, key: str) -> tuple[float, float]:
        """Where the spot `key` is drawn, in window coordinates (tests tap there)."""
        assert self.drawing is not None
        spot = next(s for s in self.drawing.spots if s.key == key)
        x, y = self.to_widget_point(spot.at)
        wx, wy = self.to_window(x, y)
        return float(wx), float(wy)

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or self.drawing is None:
            return False
        scale, left, top = self._fit()
        at = ((touch.x - left) / scale, (top - touch.y) / scale)
        spot = self.drawing.spot_at(at)
        if spot is not None and self.on_spot is not None:
            self.on_spot(spot.key)
        return True

    # -- drawing ---------------------------------------------------------------------------

    def _redraw(self, *_: Any) -> None:
        self.canvas.clear()
        drawing = self.drawing
        if drawing is None or self.width <= 1 or self.height <= 1:
            return
        scale = self._fit()[0]
        with self.canvas:
            Color(*rgb(drawing.background))
            Rectangle(pos=self.pos, size=self.size)
            for line in drawing.lines:
                Color(*rgb(line.colour))
                points = [c for p in line.points for c in self.to_widget_point(p)]
                Line(points=points, width=max(1.0, line.width * scale * 0.5))
            for spot in drawing.spots:
                x, y = self.to_widget_point(spot.at)
                radius = spot.radius * scale
                for ring in range(spot.rings, 0, -1):
                    Color(*rgb(spot.fill or spot.outline))
                    Line(circle=(x, y, radius * (1 + 0.28 * ring)), width=max(1.0, radius * 0.1))
                Color(*(rgb(spot.fill) if spot.fill else (1.0, 1.0, 1.0)))
                Ellipse(pos=(x - radius, y - radius), size=(2 * radius, 2 * radius))
                if spot.marked:
                    Color(*MARKED_RGB)
                    Line(circle=(x, y, radius + 2), width=max(2.0, radius * 0.22))
                else:
                    Color(*rgb(spot.outline))
                    Line(circle=(x, y, radius), width=max(1.0, radius * 0.1))
                if spot.label:
                    self._text(spot.label, (x, y), max(9, int(radius * 1.2)), (1, 1, 1))
            for text in drawing.texts:
                x, y = self.to_widget_point(text.at)
                self._text(text.text, (x, y), max(9, int(text.size * scale)), rgb(text.colour))

    def _text(
        self, text: str, centre: tuple[float, float], size: int, colour: tuple[float, float, float]
    ) -> None:
        label = CoreLabel(text=text, font_size=size, bold=True)
        label.refresh()
        texture = label.texture
        Color(*colour)
        Rectangle(
            texture=texture,
            pos=(centre[0] - texture.width / 2, centre[1] - texture.height / 2),
            size=texture.size,
        )
