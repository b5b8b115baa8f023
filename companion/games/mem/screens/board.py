"""The MeM board and a player's playing space on the touchscreen (Kivy widgets). They draw
a MemView (companion/games/mem/play/game.py) and say which square or cell a finger touched; what
the touch means is decided elsewhere (companion/games/mem/play/touch.py, then the engine).

    board = MemBoardView(on_square=play.tap_square)
    space = MemSpaceView(side=0, on_cell=play.tap_cell)
    board.show(view); space.show(view)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import NumericProperty
from kivy.uix.widget import Widget

from companion.games.mem.board import SQUARES, geometry
from companion.games.mem.colours import NAME
from companion.games.mem.palette import side_rgb
from companion.games.mem.play.game import MemView
from companion.games.mem.screens.layout import BoardLayout, Rect, SpaceLayout

STONE_RGB: dict[str, tuple[float, float, float]] = {
    "white": (0.97, 0.97, 0.95),
    "black": (0.06, 0.06, 0.07),
    "red": (0.86, 0.12, 0.12),
    "blue": (0.12, 0.33, 0.9),
    "green": (0.1, 0.62, 0.22),
    "yellow": (0.98, 0.86, 0.1),
    "orange": (0.98, 0.52, 0.05),
    "purple": (0.55, 0.2, 0.72),
    "brown": (0.48, 0.28, 0.1),
    "pink": (1.0, 0.55, 0.78),
    "grey": (0.55, 0.56, 0.58),
}
"""The eleven MeM colours (companion/games/mem/colours.py) on the screen."""
COLOUR_ID = {name: colour for colour, name in NAME.items() if colour}
SQUARE_RGB = (0.74, 0.63, 0.46)
"""The board's squares: a light wood, so that black, white and grey stones all show."""
CELL_RGB = (0.24, 0.24, 0.27)
SELECTED_RGB = (0.0, 0.9, 1.0)
HINT_RGB = (1.0, 0.2, 0.85)
TAKEABLE_RGB = (0.2, 0.75, 0.3)
CAPTURE_RGB = (0.95, 0.25, 0.15)
PENDING_RGB = (1.0, 0.6, 0.0)
ALERT_RGB = (0.9, 0.05, 0.05)


def stone_rgb(colour: int) -> tuple[float, float, float]:
    return STONE_RGB.get(NAME.get(colour, ""), (0.5, 0.5, 0.5))


def _stone(rect: Rect, colour: int) -> None:
    """A stone filling most of a square, with a rim that shows it on any background: dark
    around light stones, light around dark ones."""
    x, y, size = rect
    r, g, b = stone_rgb(colour)
    radius = size * 0.4
    cx, cy = x + size / 2, y + size / 2
    Color(r, g, b)
    Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
    light = 0.3 * r + 0.59 * g + 0.11 * b > 0.35
    Color(*((0.1, 0.1, 0.1) if light else (0.92, 0.92, 0.92)))
    Line(circle=(cx, cy, radius), width=1.4)


def _ring(rect: Rect, rgb: tuple[float, float, float], width: float = 2.5) -> None:
    x, y, size = rect
    Color(*rgb)
    Line(rectangle=(x + 1, y + 1, size - 2, size - 2), width=width)


def _cross(rect: Rect) -> None:
    x, y, size = rect
    Color(0.9, 0.1, 0.1)
    Line(points=[x + 4, y + 4, x + size - 4, y + size - 4], width=2)
    Line(points=[x + 4, y + size - 4, x + size - 4, y + 4], width=2)


class MemBoardView(Widget):
    """The 32 squares and their stones; a tap on a square calls `on_square(square)`."""

    selected = NumericProperty(-1)

    def __init__(self, **kwargs: Any) -> None:
        self.on_square: Callable[[int], None] | None = kwargs.pop("on_square", None)
        super().__init__(**kwargs)
        self.view: MemView | None = None
        # Refusals and hints name squares: each carries its number in a corner.
        self._numbers = [CoreLabel(text=str(n), font_size=10) for n in range(SQUARES)]
        for label in self._numbers:
            label.refresh()
        self.bind(pos=self._redraw, size=self._redraw)

    def layout(self) -> BoardLayout:
        align = self.view.align if self.view is not None else "CENTRED"
        return BoardLayout(self.x, self.y, self.width, self.height, geometry(align))

    def square_centre(self, square: int) -> tuple[float, float]:
        """Where square `square` is drawn, in window coordinates (tests tap there)."""
        x, y, size = self.layout().square_rect(square)
        wx, wy = self.to_window(x + size / 2, y + size / 2)
        return float(wx), float(wy)

    def show(self, view: MemView) -> None:
        self.view = view
        self.selected = view.selected if view.selected is not None else -1
        self._redraw()

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or self.view is None:
            return False
        square = self.layout().square_at(*touch.pos)
        if square is None or self.on_square is None:
            return False
        self.on_square(square)
        return True

    def _redraw(self, *_: Any) -> None:
        self.canvas.clear()
        view = self.view
        if view is None:
            return
        layout = self.layout()
        marks = view.marks
        # Every stone is takeable at the start: marking them all would say nothing.
        stones = {s for s, c in enumerate(view.board) if c}
        show_takeable = marks.takeable != stones
        hinted = view.hint.square if view.hint is not None else None
        # Where the table and the rules disagree, the table is drawn: that is what the
        # players must look at and put right.
        alerts = {int(a.zone): a.seen for a in view.alerts if a.zone.isdigit()}
        with self.canvas:
            for square, colour in enumerate(view.board):
                if square in alerts:
                    seen = alerts[square]
                    colour = COLOUR_ID.get(seen[0], 0) if seen else 0
                rect = layout.square_rect(square)
                x, y, size = rect
                Color(*SQUARE_RGB)
                Rectangle(pos=(x, y), size=(size, size))
                number = self._numbers[square].texture
                Color(0.3, 0.22, 0.12)
                w, h = number.size
                Rectangle(texture=number, pos=(x + 1, y + size - h), size=(w, h))
                if colour:
                    _stone(rect, colour)
                if square in marks.capturable:
                    _ring(rect, CAPTURE_RGB, 2.0)
                elif show_takeable and square in marks.takeable:
                    _ring(rect, TAKEABLE_RGB, 1.6)
                if square == view.pending:
                    _ring(rect, PENDING_RGB, 3.0)
                if square in view.barred:
                    _cross(rect)
                if square == hinted:
                    _ring(rect, HINT_RGB, 3.5)
                if square == view.selected:
                    _ring(rect, SELECTED_RGB, 3.5)
                if square in alerts:
                    _ring(rect, ALERT_RGB, 4.0)


class MemSpaceView(Widget):
    """One player's playing space: their pattern, drawn in their frame colour, with a free
    cell all round; a tap on a cell calls `on_cell(side, (row, col))`."""

    side = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self.on_cell: Callable[[int, tuple[int, int]], None] | None = kwargs.pop("on_cell", None)
        super().__init__(**kwargs)
        self.view: MemView | None = None
        self.bind(pos=self._redraw, size=self._redraw)

    def layout(self) -> SpaceLayout:
        pattern = self.view.patterns[self.side] if self.view is not None else ()
        pad = 4.0
        return SpaceLayout.around(
            self.x + pad,
            self.y + pad,
            self.width - 2 * pad,
            self.height - 2 * pad,
            ((r, c) for r, c, _ in pattern),
        )

    def cell_centre(self, cell: tuple[int, int]) -> tuple[float, float]:
        """Where cell `cell` is drawn, in window coordinates (tests tap there)."""
        x, y, size = self.layout().cell_rect(cell)
        wx, wy = self.to_window(x + size / 2, y + size / 2)
        return float(wx), float(wy)

    def show(self, view: MemView) -> None:
        self.view = view
        self._redraw()

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or self.view is None:
            return False
        cell = self.layout().cell_at(*touch.pos)
        if cell is None or self.on_cell is None:
            return False
        self.on_cell(int(self.side), cell)
        return True

    def _redraw(self, *_: Any) -> None:
        self.canvas.clear()
        view = self.view
        if view is None or self.side >= len(view.patterns):
            return
        side = int(self.side)
        layout = self.layout()
        stones = {(r, c): colour for r, c, colour in view.patterns[side]}
        acting = view.actor == side
        targets = view.marks.targets if acting else frozenset()
        blocking = view.marks.blocking if acting else frozenset()
        hint = view.hint
        hinted = hint.cell if hint is not None and hint.side == side else None
        with self.canvas:
            Color(*side_rgb(side))
            frame = (self.x + 1, self.y + 1, self.width - 2, self.height - 2)
            Line(rectangle=frame, width=2.5 if acting else 1.2)
            for cell in layout.grid():
                rect = layout.cell_rect(cell)
                x, y, size = rect
                if cell in stones:
                    Color(*SQUARE_RGB)
                    Rectangle(pos=(x, y), size=(size, size))
                    _stone(rect, stones[cell])
                else:
                    Color(*CELL_RGB)
                    Rectangle(pos=(x, y), size=(size, size))
                if cell in targets:
                    _ring(rect, TAKEABLE_RGB, 2.2)
                if cell in blocking:
                    _ring(rect, PENDING_RGB, 2.5)
                if cell == hinted:
                    _ring(rect, HINT_RGB, 3.5)
