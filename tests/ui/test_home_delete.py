"""Deleting an interrupted game from Home: a first tap asks, a second one deletes."""

from __future__ import annotations

import pytest

from companion.ui.screens.home import HomeScreen
from tests.plays import live_of

from .screen import Screen
from .test_app import start, through_setup


def leave_for_home(screen: Screen) -> HomeScreen:
    screen.tap_text("Menu")
    screen.tap_text_in(screen.app.menu, "Home (the game can be resumed)")
    assert screen.current == "home"
    home: HomeScreen = screen.screen()
    return home


def test_a_game_deleted_from_home_is_gone_from_the_store_and_from_home(screen: Screen) -> None:
    store = screen.app.controller.store
    start(screen)
    through_setup(screen)
    game_id = live_of(screen.app.controller).referee.game_id
    moves = screen.view().seq
    home = leave_for_home(screen)
    assert home.resume_text == f"Resume: {store.game(game_id).title} (move {moves})"

    screen.tap(home.ids.delete)
    assert home.ids.delete.text == "Delete? Tap again"
    assert [g.id for g in store.games()] == [game_id]  # asked, not yet deleted
    screen.shot("home-delete-asks")
    screen.tap(home.ids.delete)

    assert store.games() == []
    assert screen.app.controller.resumable() == []
    assert home.resume_text == "Nothing to resume"
    assert home.ids.resume.disabled and home.ids.delete.disabled
    assert home.ids.delete.text == "Delete"
    screen.shot("home-after-delete")


def test_the_next_interrupted_game_is_offered_once_one_is_deleted(screen: Screen) -> None:
    store = screen.app.controller.store
    start(screen)
    older = live_of(screen.app.controller).referee.game_id
    leave_for_home(screen)
    start(screen)
    newer = live_of(screen.app.controller).referee.game_id
    home = leave_for_home(screen)
    assert home.offered == newer
    screen.tap(home.ids.delete)
    screen.tap(home.ids.delete)
    assert [g.id for g in store.games()] == [older]
    assert home.offered == older and home.resume_text.startswith("Resume: ")
    assert home.ids.delete.text == "Delete"  # the older game needs its own two taps
    screen.tap(home.ids.resume)
    assert screen.current == "live"
    assert live_of(screen.app.controller).referee.game_id == older


def test_a_first_tap_left_alone_deletes_nothing(
    screen: Screen, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(HomeScreen, "DELETE_SECONDS", 0.1)
    store = screen.app.controller.store
    start(screen)
    home = leave_for_home(screen)
    screen.tap(home.ids.delete)
    assert screen.until(lambda: home.ids.delete.text == "Delete", timeout=5.0)
    screen.tap(home.ids.delete)  # asks again, rather than deleting
    assert home.ids.delete.text == "Delete? Tap again"
    # Going elsewhere and back forgets the question too.
    screen.tap(home.ids.new_game)
    screen.tap_text("Back")
    assert screen.current == "home" and home.ids.delete.text == "Delete"
    screen.tap(home.ids.delete)
    assert len(store.games()) == 1
