"""Every side's score over the game, one line per side, for the end screen.

plot = ScorePlot()
plot.draw_history([(0, 0), (3, 0), (3, 5)], [(0.85, 0.15, 0.15), (0.15, 0.35, 0.9)])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.uix.widget import Widget

PAD = 28.0


class ScorePlot(Widget):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.history: list[tuple[int, ...]] = []
        self.colours: list[tuple[float, float, float]] = []
        self.bind(pos=self._redraw, size=self._redraw)

    def draw_history(
        self, history: Sequence[tuple[int, ...]], colours: Sequence[tuple[float, float, float]]
    ) -> None:
        self.history = list(history)
        self.colours = list(colours)
        self._redraw()

    def points(self, side: int) -> list[float]:
        """The polyline of one side, in window coordinates (x0, y0, x1, y1, ...)."""
        history = [(0,) * len(self.colours), *self.history]
        top = max(1, *(max(h) for h in history if h))
        low = min(0, *(min(h) for h in history if h))
        steps = max(1, len(history) - 1)
        width, height = self.width - 2 * PAD, self.height - 2 * PAD
        out: list[float] = []
        for i, scores in enumerate(history):
            out.append(self.x + PAD + width * i / steps)
            out.append(self.y + PAD + height * (scores[side] - low) / (top - low))
        return out

    def _redraw(self, *_: Any) -> None:
        self.canvas.clear()
        with self.canvas:
            Color(0.12, 0.12, 0.14)
            Rectangle(pos=self.pos, size=self.size)
            Color(0.5, 0.5, 0.5)
            Line(
                points=[
                    self.x + PAD,
                    self.top - PAD,
                    self.x + PAD,
                    self.y + PAD,
                    self.right - PAD,
                    self.y + PAD,
                ],
                width=1,
            )
            if not self.colours:
                return
            for side, colour in enumerate(self.colours):
                Color(*colour)
                Line(points=self.points(side), width=2)
            top = max(1, *(max(h) for h in self.history if h)) if self.history else 1
            label = CoreLabel(text=str(top), font_size=12)
            label.refresh()
            Color(0.8, 0.8, 0.8)
            w, h = label.texture.size
            Rectangle(texture=label.texture, pos=(self.x + 2, self.top - PAD - h / 2), size=(w, h))
