"""The live screen of a game played by touch on its drawn board (companion/table/
touch_play.py): the board, whose turn, the buttons the taps so far offer, the last events
and the last refusal. The same screen serves every such game; layout is in kv/touch_live.kv.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.button import Button

from companion.table.touch_play import REFUSE, TouchPlay, TouchView
from companion.ui.buttons import button_for
from companion.ui.drawing_view import DrawingView
from companion.ui.screens.base import PlayScreen

BLUE = (0.2, 0.42, 0.72, 1)
RED = (0.72, 0.22, 0.2, 1)
GREY = (0.33, 0.33, 0.36, 1)
QUIET = frozenset({"Clear", "Hint", "Take back"})
"""The screen's own buttons, drawn apart from the game's."""
MANY = 10
SHORT = 9
"""More buttons than MANY, none longer than SHORT characters, are laid out as keys."""
FIVE_ROWS_OF_KEYS = 30
"""Keys five to a row fill six rows; more go six to a row."""


class TouchLiveScreen(PlayScreen):
    NAME = "touch_live"
    layout = Path(__file__).with_name("kv") / "touch_live.kv"
    widgets = (DrawingView,)

    title = StringProperty("")
    prompt = StringProperty("")
    message = StringProperty("")
    events = StringProperty("")
    sides = StringProperty("")
    clocks = StringProperty("")
    """Each side's time when a game clock runs, the running one in bold."""
    thinking = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.play: TouchPlay | None = None
        self.view: TouchView | None = None

    def follow(self, play: TouchPlay) -> None:
        """Plays `play` from now on: touches go to it."""
        self.play = play
        self.ids.board.on_spot = play.tap

    def show(self, view: TouchView) -> None:
        self.view = view
        self.title = view.title
        # The rules' prompt names whoever must decide; without one, say whose turn it is.
        self.prompt = view.prompt or (f"{view.actor} to play." if view.actor else "")
        if view.takeback is not None:
            self.prompt = "Take back the last move? The other player must agree."
        self.message = view.message
        self.events = "\n".join(view.events)
        self.sides = "\n".join(view.side_lines)
        self.show_clocks()
        self.thinking = view.thinking
        self.ids.board.show(view.drawing)
        grid = self.ids.buttons
        grid.clear_widgets()
        # Many short choices (every letter, for a guess) are keys, five or six to a row, so
        # that all of them fit on the screen.
        keys = len(view.buttons) > MANY and all(len(b) <= SHORT for b in view.buttons)
        grid.cols = (5 if len(view.buttons) <= FIVE_ROWS_OF_KEYS else 6) if keys else 2
        for label in view.buttons:
            colour = RED if label == REFUSE else GREY if label in QUIET else BLUE
            grid.add_widget(self._button(label, colour, "40dp" if keys else "46dp"))

    def show_clocks(self) -> None:
        """Each side's time, with what is left of a per-move limit (a guess's 30 s) or a
        fallen flag beside it; nothing for a game without a clock."""
        view = self.view
        face = self.companion.controller.clock_face()
        if view is None or not face.texts or (face.running is None and not face.paused):
            # No clock, or one that has not started: the first timed decision starts it.
            self.clocks = ""
            return
        lines = []
        for side, name in enumerate(view.names):
            if side >= len(face.texts):
                break
            detail = face.details[side] if side < len(face.details) else ""
            line = f"{name} {face.texts[side]}" + (f" ({detail})" if detail else "")
            lines.append(f"[b]{line}[/b]" if face.running == side else line)
        if face.paused:
            lines.append("paused")
        self.clocks = " · ".join(lines)

    def _button(self, label: str, colour: tuple[float, ...], height: str) -> Button:
        widget = Button(
            text=label,
            font_size="16sp",
            size_hint_y=None,
            height=height,
            halign="center",
            valign="middle",
            background_normal="",
            background_color=colour,
        )
        widget.bind(size=lambda button, size: setattr(button, "text_size", size))
        widget.decision = label
        widget.bind(on_release=self._presser(label))
        return widget

    def _presser(self, label: str) -> Callable[[Any], None]:
        return lambda _widget: self.press(label)

    def press(self, label: str) -> None:
        if self.play is not None:
            self.play.press(label)

    def button(self, label: str) -> Button | None:
        """The button labelled `label` (tests find them by label)."""
        return button_for(self.ids.buttons, label)

    def leave(self) -> None:
        # The game stays in the store, playing: Home offers to resume it.
        self.companion.controller.close()
        self.manager.current = "home"
