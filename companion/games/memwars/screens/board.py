"""The board on the touchscreen: the 100 places where the printed board has them, the crystals
the rules put there, the places the awaited move may name, the place chosen, and alerts.

    board = BoardView()
    board.show(view)                 # a LiveView
    board.bind(chosen=on_choice)     # the place a finger chose (0 for none)

Positions come from the printed board's geometry (vision/boards/memwars.toml), so the
screen and the table agree on where place 17 is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import NumericProperty
from kivy.uix.widget import Widget

from companion.games.memwars.palette import colour_rgb
from companion.games.memwars.play.live import LiveView
from vision.geometry import load_board

MARGIN_MM = 16.0
"""Around the outermost places, so their rings and numbers are not cut."""


def heat_rgb(strength: float) -> tuple[float, float, float]:
    """Red for a card about to be forgotten, through yellow, to green for one well known."""
    s = min(1.0, max(0.0, strength))
    if s < 0.5:
        return (0.9, 0.25 + 1.2 * s, 0.2)
    return (0.9 - 1.4 * (s - 0.5), 0.85, 0.2)


def colour_rgba(name: str) -> tuple[float, float, float, float]:
    return (*colour_rgb(name), 1.0)


class BoardView(Widget):
    chosen = NumericProperty(0)
    """The place a finger chose among those the awaited move may name; 0 for none."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        geometry = load_board()
        self.centres = {p.number: p.centre for p in geometry.places}
        xs = [c[0] for c in self.centres.values()]
        ys = [c[1] for c in self.centres.values()]
        self.area_left, self.area_top = min(xs) - MARGIN_MM, min(ys) - MARGIN_MM
        self.span = max(max(xs) - min(xs), max(ys) - min(ys)) + 2 * MARGIN_MM
        self.place_radius = geometry.place_radius
        self.touch_radius = geometry.zone_radius
        self.view: LiveView | None = None
        self.choosing = False
        """Whether a decision waits for a place: only then do touches choose one."""
        self.heat: dict[int, float | None] | None = None
        """Study: each place's recall strength (0..1, None never studied), drawn as colour."""
        self.focus = 0
        """Study: the place whose card is being recalled."""
        self.on_table: Callable[[int], None] | None = None
        """Set while the simulated table is being laid: touches put crystals there instead."""
        self._numbers = {n: CoreLabel(text=str(n), font_size=11) for n in self.centres}
        for label in self._numbers.values():
            label.refresh()
        self.bind(pos=self._redraw, size=self._redraw, chosen=self._redraw)

    # -- geometry --------------------------------------------------------------------------

    @property
    def scale(self) -> float:
        return float(min(self.width, self.height)) / self.span

    def _origin(self) -> tuple[float, float]:
        side = self.span * self.scale
        return self.x + (self.width - side) / 2, self.y + (self.height - side) / 2

    def place_at(self, number: int) -> tuple[float, float]:
        """Where place `number`'s centre is drawn, in window coordinates."""
        mx, my = self.centres[number]
        ox, oy = self._origin()
        side = self.span * self.scale
        return ox + (mx - self.area_left) * self.scale, oy + side - (
            my - self.area_top
        ) * self.scale

    def place_under(self, x: float, y: float) -> int:
        """The place whose touch zone holds (x, y), or 0."""
        reach = self.touch_radius * self.scale
        best, best_d = 0, reach * reach
        for number in self.centres:
            px, py = self.place_at(number)
            d = (px - x) ** 2 + (py - y) ** 2
            if d <= best_d:
                best, best_d = number, d
        return best

    # -- input -----------------------------------------------------------------------------

    def show(self, view: LiveView, choosing: bool) -> None:
        self.view = view
        self.choosing = choosing
        if not choosing or self.chosen not in view.places:
            self.chosen = 0
        self._redraw()

    def show_heat(self, strengths: dict[int, float | None], focus: int) -> None:
        """The board as a heatmap of recall strength, with `focus` ringed."""
        self.view = None
        self.heat = strengths
        self.focus = focus
        self._redraw()

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or self.view is None:
            return False
        if self.on_table is not None:
            number = self.place_under(*touch.pos)
            if number:
                self.on_table(number)
            return bool(number)
        if not self.choosing:
            return False
        number = self.place_under(*touch.pos)
        if number and number in self.view.places:
            self.chosen = number
            return True
        return False

    # -- drawing ---------------------------------------------------------------------------

    def _redraw(self, *_: Any) -> None:
        self.canvas.clear()
        view = self.view
        scale = self.scale
        ox, oy = self._origin()
        side = self.span * scale
        radius = self.place_radius * scale
        shown = view.alerts if view is not None else ()
        alerts = {a.zone: a.seen for a in shown if not a.put_right}
        # The rules' own move still to be laid: the crystals to lay are drawn, ringed amber.
        work = {a.zone for a in shown if a.put_right}
        open_places = set(view.places) if view is not None and self.choosing else set()
        # A claim being challenged or checked: its place is ringed for everyone to see.
        focus = set(view.places) if view is not None and len(view.places) <= 4 else set()
        with self.canvas:
            Color(0.97, 0.96, 0.92)
            Rectangle(pos=(ox, oy), size=(side, side))
            for number in self.centres:
                x, y = self.place_at(number)
                if self.heat is not None:
                    strength = self.heat.get(number)
                    Color(*(heat_rgb(strength) if strength is not None else (0.85, 0.85, 0.85)))
                    Ellipse(pos=(x - radius, y - radius), size=(radius * 2, radius * 2))
                    if number == self.focus:
                        Color(0.05, 0.05, 0.05)
                        Line(circle=(x, y, radius * 1.5), width=2.5)
                if number in open_places:
                    Color(0.75, 0.93, 0.75)
                    Ellipse(pos=(x - radius * 1.5, y - radius * 1.5), size=(radius * 3, radius * 3))
                elif number in focus:
                    Color(0.1, 0.6, 0.2)
                    Line(circle=(x, y, radius * 1.6), width=2.0)
                faded = view is not None and number in view.out_of_play
                Color(*((0.85, 0.85, 0.83) if faded else (0.55, 0.55, 0.55)))
                Line(circle=(x, y, radius), width=1.0)
                crystals = view.board.get(str(number), ()) if view is not None else ()
                # Where the table and the rules disagree, the table is drawn: that is what
                # the players must look at and put right.
                crystals = alerts.get(str(number), crystals)
                self._crystals(x, y, radius, crystals)
                if not crystals:
                    label = self._numbers[number]
                    Color(*((0.8, 0.8, 0.78) if faded else (0.35, 0.35, 0.35)))
                    w, h = label.texture.size
                    Rectangle(texture=label.texture, pos=(x - w / 2, y - h / 2), size=(w, h))
                if str(number) in alerts:
                    Color(0.9, 0.05, 0.05)
                    Line(circle=(x, y, radius * 1.6), width=2.5)
                elif str(number) in work:
                    Color(0.95, 0.6, 0.1)
                    Line(circle=(x, y, radius * 1.6), width=2.5)
                if number == self.chosen:
                    Color(0.05, 0.05, 0.05)
                    Line(circle=(x, y, radius * 1.45), width=2.0)

    def _crystals(self, x: float, y: float, radius: float, crystals: tuple[str, ...]) -> None:
        # Up to three side by side, as on the table; more are drawn smaller on top.
        n = len(crystals)
        if not n:
            return
        r = radius * (0.8 if n == 1 else 0.55)
        offsets = [0.0] if n == 1 else [(i - (n - 1) / 2) * r * 1.1 for i in range(n)]
        for colour, dx in zip(crystals, offsets, strict=False):
            Color(*colour_rgb(colour))
            Ellipse(pos=(x + dx - r, y - r), size=(2 * r, 2 * r))
            Color(0.2, 0.2, 0.2)
            Line(circle=(x + dx, y, r), width=1.0)
