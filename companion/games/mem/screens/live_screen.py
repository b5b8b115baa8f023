"""The MeM live screen: the board, each player's playing space, whose turn (and each
player's time, with Pause, when a game clock runs), the buttons the rules offer now, the last
refusal and the last events, and with a camera its alerts and Override. It draws what
MemPlay says (companion/games/mem/play/game.py) and hands it every touch; layout is in
live.kv beside it. On the simulated table, "Hands on the table" turns taps on the board into
a hand taking the stone off (or putting it back) for the camera to see.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.button import Button

from companion.games.mem.palette import side_rgb
from companion.games.mem.play.game import MemView
from companion.games.mem.play.table import MemAtTable
from companion.games.mem.screens.board import MemBoardView, MemSpaceView
from companion.ui.buttons import button_for
from companion.ui.screens.base import PlayScreen

BLUE = (0.2, 0.42, 0.72, 1)
RED = (0.72, 0.22, 0.2, 1)
GREY = (0.33, 0.33, 0.36, 1)
HINT_BUTTON = (0.6, 0.15, 0.55, 1)


class MemLiveScreen(PlayScreen):
    NAME = "mem_live"
    layout = Path(__file__).with_name("live.kv")
    widgets = (MemBoardView, MemSpaceView)

    title = StringProperty("")
    prompt = StringProperty("")
    how = StringProperty("")
    message = StringProperty("")
    hint_text = StringProperty("")
    events = StringProperty("")
    header_0 = StringProperty("")
    header_1 = StringProperty("")
    two_players = BooleanProperty(True)
    hints = BooleanProperty(True)
    hinting = BooleanProperty(False)
    can_take_back = BooleanProperty(False)
    alerts = StringProperty("")
    held = BooleanProperty(False)
    watching = BooleanProperty(False)
    """A camera watches the board: Override is offered."""
    has_table = BooleanProperty(False)
    """A simulated table is being filmed: taps can lift its stones."""
    timed = BooleanProperty(False)
    """A game clock runs: each header shows its player's time, and Pause is offered."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.play: MemAtTable | None = None
        self.view: MemView | None = None

    def follow(self, play: MemAtTable) -> None:
        """Plays `play` from now on: touches go to it."""
        self.play = play
        self.has_table = play.table is not None
        if self.ids.table_toggle.state == "down":
            self.ids.table_toggle.state = "normal"
        self.ids.board.on_square = play.tap_square
        for space in (self.ids.space_0, self.ids.space_1):
            space.on_cell = play.tap_cell

    def show(self, view: MemView) -> None:
        self.view = view
        self.title = view.title
        self.prompt = view.prompt
        self.how = view.how
        if view.companion is not None and view.actor == view.companion:
            self.how = "The companion is thinking..." if view.thinking else "The companion decides."
        self.message = view.message
        if view.takeback is not None:
            self.message = f"Take back {view.takeback.what}?"
        self.hints = view.hints
        self.hinting = view.hinting
        self.hint_text = (
            "Searching for a hint..." if view.hinting else (view.hint.text if view.hint else "")
        )
        self.events = "\n".join(view.events)
        self.alerts = "\n".join(a.text for a in view.alerts)
        if view.camera.lost:
            self.alerts = (self.alerts + "\n" if self.alerts else "") + f"Camera {view.camera}"
        self.held = view.held
        self.watching = view.camera.watching
        self.can_take_back = view.can_take_back and view.takeback is None
        self.two_players = len(view.names) > 1
        self.show_clocks()
        self.ids.board.show(view)
        self.ids.space_0.show(view)
        self.ids.space_1.show(view)
        self._show_buttons(view)

    def show_clocks(self) -> None:
        """Each player's header, with their time when a game clock runs (the running one in
        bold, a fallen flag or a move's delay beside it)."""
        view = self.view
        if view is None:
            return
        face = self.companion.controller.clock_face()
        self.timed = bool(face.texts)
        self.ids.pause.text = "Resume" if face.paused else "Pause"
        headers = []
        for side in range(len(view.names)):
            clock = ""
            if side < len(face.texts):
                time = face.texts[side]
                clock = f"  [b]{time}[/b]" if face.running == side else f"  {time}"
                detail = face.details[side] if side < len(face.details) else ""
                if detail:
                    clock += f" [size=12sp]{detail}[/size]"
            headers.append(_header(view, side) + clock)
        self.header_0 = headers[0]
        self.header_1 = headers[1] if len(headers) > 1 else ""

    def pause(self) -> None:
        self.companion.controller.pause()
        self.show_clocks()

    def _show_buttons(self, view: MemView) -> None:
        grid = self.ids.buttons
        grid.clear_widgets()
        if view.takeback is not None:
            name = view.names[view.takeback.agrees]
            grid.add_widget(_button(f"{name} agrees", "agree", BLUE, self._presser))
            grid.add_widget(_button("No", "refuse", RED, self._presser))
            return
        hinted = view.hint.button if view.hint is not None else None
        for spec in view.buttons:
            colour = HINT_BUTTON if spec.key == hinted else (RED if spec.danger else BLUE)
            grid.add_widget(_button(spec.label, spec.key, colour, self._presser))

    def _presser(self, key: str) -> Callable[[Any], None]:
        return lambda _widget: self.press(key)

    def button(self, key: str) -> Button | None:
        """The button that submits `key` (tests find them by key)."""
        return button_for(self.ids.buttons, key)

    def press(self, key: str) -> None:
        if self.play is not None:
            self.play.press(key)

    def lay_table(self, on: bool) -> None:
        """While on, taps on the board are a hand on the simulated table: it takes the stone
        off the square (or puts back the one it took), and the camera reads what it did."""
        if self.play is None:
            return
        tap = self.play.table_tap if on else self.play.tap_square
        self.ids.board.on_square = tap

    def leave(self) -> None:
        # The game stays in the store, playing: Home offers to resume it.
        self.companion.controller.close()
        self.manager.current = "home"


def _header(view: MemView, side: int) -> str:
    turn = "> " if view.actor == side else ""
    notes = f" ({view.notes[side]})" if view.notes[side] else ""
    pattern = len(view.patterns[side])
    return (
        f"{turn}[b]{view.names[side]}[/b]: {view.scores[side]} "
        f"(pattern {pattern}, pile {view.piles[side]}){notes}"
    )


def _button(
    text: str,
    key: str,
    colour: tuple[float, float, float, float],
    presser: Callable[[str], Callable[[Any], None]],
) -> Button:
    widget = Button(
        text=text,
        font_size="17sp",
        size_hint_y=None,
        height="46dp",
        background_normal="",
        background_color=colour,
    )
    widget.decision = key
    widget.bind(on_release=presser(key))
    return widget


def header_colour(side: int) -> tuple[float, float, float, float]:
    return (*side_rgb(side), 1.0)
