"""Setting the camera up: the preview with the board found, the colours to calibrate, the
pieces to lay, Calibrate."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, ListProperty, StringProperty

from companion.ui.screens.base import AppScreen
from companion.ui.screens.pictures import texture_of

PREVIEW_SECONDS = 0.4


class CameraScreen(AppScreen):
    """The camera's picture with the markers and places drawn over it, the board to calibrate
    for (MemWars or MeM), the pieces to lay, and the calibration; the preview refreshes while
    the screen is shown. What it says comes from companion/table/camera_setup.py."""

    status = StringProperty("")
    instructions = StringProperty("")
    result = StringProperty("")
    result_colour = ListProperty([1, 1, 1, 1])
    simulated = BooleanProperty(False)
    colour_choices = BooleanProperty(False)
    """The board lets a game choose its colours: the colour row is shown."""
    board = StringProperty("memwars")
    """The game whose board is calibrated for."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._refresh: Any = None
        self.toggles: dict[str, Any] = {}
        """The board row's buttons, by game: one for every game the camera reads."""
        self.colour_toggles: dict[str, Any] = {}
        """The colour row's buttons, by colour: those the board allows a game to choose
        (a MemWars side's); empty for a board whose colours are all calibrated."""

    def on_pre_enter(self, *_: Any) -> None:
        if not self.toggles:
            self._board_row()
        self.board = self.companion.controller.camera_board
        self._mark(self.board)
        if self._set_up(self.board):
            self._refresh = Clock.schedule_interval(lambda _dt: self.refresh(), PREVIEW_SECONDS)

    def _board_row(self) -> None:
        from kivy.factory import Factory

        from companion.table.camera_setup import camera_games

        row = self.ids.boards
        for title, game in camera_games():
            button = Factory.Choice(text=title, group="camera-board")
            button.bind(on_release=self._chooser(game))
            self.toggles[game] = button
            row.add_widget(button)

    def _chooser(self, game: str) -> Any:
        return lambda _button: self.choose(game)

    def _mark(self, game: str) -> None:
        for name, button in self.toggles.items():
            button.state = "down" if name == game else "normal"

    def choose(self, game: str) -> None:
        """A tap on the board row: the plan and the preview become that board's."""
        self.board = game
        self._mark(game)
        self._set_up(game)

    def _set_up(self, game: str) -> bool:
        from companion.errors import UserError

        try:
            setup = self.companion.controller.choose_camera_board(game)
        except UserError as err:  # the camera given cannot be opened
            self.status, self.instructions, self.result = str(err), "", ""
            return False
        self._colour_row(setup)
        self.instructions = setup.instructions
        self.simulated = self.companion.controller.simulated_camera is not None
        self.result = ""
        self.refresh()
        return True

    def _colour_row(self, setup: Any) -> None:
        """Toggles for the colours a game of this board may choose, down for those the
        calibration will learn: the colours of the games to be played are chosen."""
        from kivy.factory import Factory

        row = self.ids.colours
        row.clear_widgets()
        self.colour_toggles = {}
        choices = setup.profile.choices if setup.profile is not None else ()
        self.colour_choices = bool(choices)
        for name in choices:
            button = Factory.ColourChoice(text=name)
            button.state = "down" if name in setup.colours else "normal"
            button.bind(on_release=lambda _button: self.choose_colours())
            self.colour_toggles[name] = button
            row.add_widget(button)

    def choose_colours(self) -> None:
        """A tap on the colour row: the plan becomes that of the colours now down."""
        chosen = [name for name, button in self.colour_toggles.items() if button.state == "down"]
        setup = self.companion.controller.choose_camera_colours(chosen)
        self.instructions = setup.instructions
        self.result = ""
        self.refresh()

    def on_leave(self, *_: Any) -> None:
        if self._refresh is not None:
            self._refresh.cancel()
            self._refresh = None
        self.companion.controller.close_camera_setup()

    def refresh(self) -> None:
        from companion.errors import UserError

        try:
            picture, self.status = self.companion.controller.camera_setup().preview()
        except UserError as err:  # the camera stopped (unplugged, say)
            self.status = str(err)
            return
        if picture is not None:
            self.ids.preview.texture = texture_of(picture)

    def lay_plan(self) -> None:
        self.companion.controller.lay_calibration_plan()
        self.refresh()

    def calibrate(self) -> None:
        from companion.table.camera_setup import outcome_text

        setup = self.companion.controller.camera_setup()
        outcome = setup.calibrate()
        if outcome.picture is not None:
            self.ids.preview.texture = texture_of(outcome.picture)
        self.result = outcome_text(outcome, setup.profile)
        self.result_colour = [0.5, 1, 0.5, 1] if outcome.saved else [1, 0.45, 0.4, 1]

    def leave(self) -> None:
        self.manager.current = "home"
