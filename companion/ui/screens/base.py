"""What every screen of the app is, and what it may ask of the app that shows it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from kivy.uix.screenmanager import Screen

if TYPE_CHECKING:
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

    def show_clocks(self) -> None:
        """Redraws the clocks, a few times a second; a game without clocks has none."""

    def leave(self) -> None:
        """Home, the game staying in the store to be resumed."""

    def menu(self) -> None:
        """The Menu button: each side's phone page, Home, or back to the game."""
        self.companion.game_menu(self.leave)
