"""What every screen of the app is, and what it may ask of the app that shows it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from kivy.uix.screenmanager import Screen

if TYPE_CHECKING:
    from companion.ui.controller import Controller


class Companion(Protocol):
    """The app, as its screens see it: the controller, and how to start or go on a game."""

    controller: Controller
    page_url: str

    def start_game(self, choices: Any) -> None: ...

    def resume_game(self, game_id: int) -> None: ...

    def decide(self, key: str, place: int) -> None: ...

    def screen(self, name: str) -> Any: ...


class AppScreen(Screen):
    """A screen of the companion app; `companion` is set when the app builds it."""

    companion: Companion
