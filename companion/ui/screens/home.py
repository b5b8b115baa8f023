"""Home: the most recent interrupted game to resume or delete."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty

from companion.table.assignment import Assignment
from companion.ui.screens.base import AppScreen


class HomeScreen(AppScreen):
    """Offers the most recent interrupted game to resume, or to delete; once one is
    deleted, the next one is offered."""

    DELETE = "Delete"
    DELETE_AGAIN = "Delete? Tap again"
    DELETE_SECONDS = 5.0
    """How long Delete waits for the second tap that confirms it."""

    subtitle = StringProperty("")
    new_game_text = StringProperty("New game")
    """"New game", or the game a tournament hub assigns this table."""
    resume_text = StringProperty("Nothing to resume")
    can_resume = BooleanProperty(False)
    delete_text = StringProperty(DELETE)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.offered: int | None = None
        """The id of the game the Resume and Delete buttons are for."""
        self._doomed: int | None = None
        """The game a first tap on Delete asked about: a second tap deletes it."""
        self._calm_down: Any = None

    def on_pre_enter(self, *_: Any) -> None:
        self.refresh()

    def on_leave(self, *_: Any) -> None:
        self._disarm()

    def refresh(self) -> None:
        app = self.companion
        games = app.controller.resumable()
        self.resume_text = (
            f"Resume: {games[0].title} (move {games[0].actions})" if games else "Nothing to resume"
        )
        self.can_resume = bool(games)
        self.offered = games[0].id if games else None
        self.subtitle = f"Display page: {app.page_url}" if app.page_url else ""
        assigned = self.assigned()
        self.new_game_text = f"New game: {assigned.text}" if assigned else "New game"
        if self._doomed != self.offered:
            self._disarm()

    def assigned(self) -> Assignment | None:
        """The hub's next game for this table, when there is one still to play."""
        assignment = self.companion.assignment
        if assignment is None or assignment.played or not assignment.names:
            return None
        return assignment

    def new_game(self) -> None:
        """New game: set up as the hub says when it assigns this table a game."""
        assigned = self.assigned()
        if assigned is not None:
            self.companion.screen("new_game").use_assignment(assigned)
        self.manager.current = "new_game"

    def resume(self) -> None:
        games = self.companion.controller.resumable()
        if games:
            self.companion.resume_game(games[0].id)

    def delete(self) -> None:
        """The first tap asks; a second one, on the same game and soon after, deletes it."""
        if self.offered is None:
            return
        if self._doomed != self.offered:
            self._doomed = self.offered
            self.delete_text = self.DELETE_AGAIN
            # A forgotten first tap must not turn a much later tap into a deletion.
            self._calm_down = Clock.schedule_once(lambda _dt: self._disarm(), self.DELETE_SECONDS)
            return
        from contextlib import suppress

        from companion.store import UnknownGame

        self._disarm()
        # Gone already (`companion games delete` on the same store): Home shows what is left.
        with suppress(UnknownGame):
            self.companion.controller.delete_game(self.offered)
        self.refresh()

    def _disarm(self) -> None:
        if self._calm_down is not None:
            self._calm_down.cancel()
            self._calm_down = None
        self._doomed = None
        self.delete_text = self.DELETE
