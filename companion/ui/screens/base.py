"""What every screen of the app is, and what it may ask of the app that shows it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

if TYPE_CHECKING:
    from companion.remote.at_table import RemoteView
    from companion.table.assignment import Assignment
    from companion.ui.controller import Controller


class Companion(Protocol):
    """The app, as its screens see it: the controller, and how to start or go on a game."""

    controller: Controller
    page_url: str
    assignment: Assignment | None

    def start_game(self, game: str, choices: Any) -> None: ...

    def resume_game(self, game_id: int) -> None: ...

    def screen(self, name: str) -> Any: ...

    def game_menu(self, leave: Any) -> None: ...

    def mirrored_done(self) -> None: ...


class AppScreen(Screen):
    """A screen of the companion app; `companion` is set when the app builds it."""

    companion: Companion


class PlayScreen(AppScreen):
    """A game's live screen (its plugin's `screen`): it follows the play it is given and
    draws each of its views."""

    NAME: ClassVar[str]
    """Its name among the app's screens."""
    layout: ClassVar[Path]
    """Its kv file, loaded when the app is built."""
    widgets: ClassVar[tuple[type, ...]] = ()
    """The widget classes its layout names, registered with Kivy's Factory first."""

    def follow(self, play: Any) -> None:
        """Plays `play` from now on: touches go to it."""

    def show(self, view: Any) -> None:
        """Draws a view of the play."""

    remote = StringProperty("")
    """Remote play: the link in one line, then what to lay for the other table's moves;
    '' for a game played at this table alone."""
    remote_done = BooleanProperty(False)
    """The Done touch is offered: the other table's move is to be laid, and no camera
    checks it."""

    def show_clocks(self) -> None:
        """Redraws the clocks, a few times a second; a game without clocks has none."""

    def show_remote(self, view: RemoteView | None) -> None:
        """Remote play's line and instruction (None: the game is not played remotely)."""
        if view is None:
            self.remote, self.remote_done = "", False
            return
        self.remote = "\n".join(text for text in (view.line, view.instruction) if text)
        self.remote_done = view.confirm

    def leave(self) -> None:
        """Home, the game staying in the store to be resumed."""

    def menu(self) -> None:
        """The Menu button: each side's phone page, Home, or back to the game."""
        self.companion.game_menu(self.leave)
