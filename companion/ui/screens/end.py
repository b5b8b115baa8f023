"""The end of a game, whatever the game: its result, each side's figures, and how the scores
went or the final board (an EndView, companion/table/views.py)."""

from __future__ import annotations

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.label import Label

from companion.table.views import EndView
from companion.ui.screens.base import AppScreen


class EndScreen(AppScreen):
    result = StringProperty("")
    drawn = BooleanProperty(False)
    """The final board is drawn (a game on a drawn board) instead of the score plot."""

    def show(self, end: EndView) -> None:
        """Any game's end: its result, its figures a column per side, and the scores after
        every move or the final board."""
        self.result = end.result
        grid = self.ids.breakdown
        grid.clear_widgets()
        with_names = bool(end.rows)
        grid.cols = 1 + len(end.names) if with_names else 1
        rows = (("", end.names), *end.rows) if with_names else ((n, ()) for n in end.names)
        for title, values in rows:
            grid.add_widget(Label(text=title, font_size="15sp", halign="left"))
            for value in values:
                grid.add_widget(Label(text=str(value), font_size="15sp", bold=title == "Total"))
        self.drawn = end.drawing is not None
        if end.drawing is not None:
            self.ids.board.show(end.drawing)
        else:
            self.ids.plot.draw_history(end.history, list(end.colours))
