"""memento ludis as a person plays it after `make run`: the real `companion run --simulate`
in a real window on a virtual X screen, clicked through a whole game against the companion
on the drawn board, while a phone on the same network watches the display page draw it."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.games import find_plugin
from companion.games.touch import Press, TouchRules
from companion.table.touch_play import TouchPlay
from companion.table.touch_seat import TouchChoices
from tests.plays import touch_of

from .browser import Phone
from .product import RealApp, at, centre, open_real_app, python_module, start_from_home
from .room import Room

MAKE_RUN = python_module("run", "--simulate", "--app")
_TOUCH = find_plugin("memento").touch
assert _TOUCH is not None
RULES: TouchRules = _TOUCH


class TouchTwin:
    """The same app offscreen in the real app's game, replaying what the real one commits: it
    knows where every point and button of the real window is."""

    def __init__(self, screen: Any, real: RealApp, game_id: int) -> None:
        self.screen = screen
        self.real = real
        self.game_id = game_id

    @property
    def play(self) -> TouchPlay:
        play: TouchPlay | None = touch_of(self.screen.app.controller)
        assert play is not None
        return play

    def catch_up(self) -> int:
        referee = self.play.referee
        committed = self.real.actions(self.game_id)
        new = committed[referee.seq :]
        for data in new:
            referee.submit(referee.engine.action_from_dict(data))
        self.screen.frames(3)
        return len(new)

    def where(self, tap: str | Press) -> tuple[int, int]:
        live = self.screen.screen("touch_live")
        if isinstance(tap, Press):
            button = live.button(tap.label)
            assert button is not None, f"no {tap.label!r} among {live.view.buttons}"
            return centre(button)
        return at(live.ids.board.spot_centre(tap))


@pytest.mark.long
def test_a_whole_memento_game_against_the_companion_in_the_real_app(
    screen: Any, x_screen: str, room: Room, tmp_path: Path, shots: Path
) -> None:
    # Where the wizard's buttons are, from the same app laid out offscreen at the same size.
    home = centre(screen.screen("home").ids.new_game)
    screen.tap_text("New game")
    wizard = screen.screen("new_game")
    game = next(w for w in wizard.walk() if getattr(w, "text", "") == "memento ludis")
    picks = [centre(game)]
    screen.tap(game)
    companion = next(w for w in wizard.walk() if getattr(w, "text", "") == "The companion")
    picks.append(centre(companion))
    start = centre(wizard.ids.start)
    screen.tap_text("Back")

    real = open_real_app(room, MAKE_RUN, x_screen, tmp_path)
    try:
        game_id, status, header = start_from_home(
            real, home, picks, start, shots / "memento-real-wizard.png", settle=0.3
        )
        assert status == "playing" and header["game"] == "memento"
        seed = header["setup"]["seed"]
        screen.app.start_game("memento", TouchChoices(game="memento", companion=True, seed=seed))
        twin = TouchTwin(screen, real, game_id)
        assert twin.play.referee.engine.setup_of(twin.play.state) == header["setup"]

        with Phone(room, shots) as phone:
            page = phone.open(f"http://{room.table_address}:8080/", "memento-page")
            page.wait_for_selector("#board .spot", timeout=30_000)
            _play_to_the_end(twin, real, shots)
            page.wait_for_selector("#outcome:not([hidden])", timeout=30_000)
            assert page.inner_text("#outcome").startswith("Game over")
            phone.shot(page, "memento-page-over")
        real.until(lambda: real.games()[0][1] == "finished", 20, "the game to be finished")
        time.sleep(1.0)
        real.shot(shots / "memento-real-end.png")
    finally:
        code, out, err = real.stop()
    assert code == 0, err
    assert "Traceback" not in out + err, out + err


def _play_to_the_end(twin: TouchTwin, real: RealApp, shots: Path) -> None:
    """The person's side by clicks on the real window, a legal action at random each turn;
    the companion plays its own side in the real app."""
    rng = random.Random(3)
    deadline = time.monotonic() + 300
    shot = False
    while not twin.play.referee.is_over:
        assert time.monotonic() < deadline, "the game did not end in 5 minutes"
        twin.catch_up()
        if twin.play.referee.is_over:
            break
        before = twin.play.referee.seq
        expectation = twin.play.referee.expected()
        assert expectation is not None
        if expectation.actor == twin.play.companion_side:
            real.until(_past(real, twin.game_id, before), 30, "the companion")
            twin.catch_up()
            continue
        action = rng.choice(list(RULES.legal_actions(twin.play.state)))
        path = RULES.paths(twin.play.state, action)[0]
        for tap in path[:-1]:
            real.click(twin.where(tap), settle=0.3)
            # The twin taps too, so that it lays out the buttons the next tap needs.
            if isinstance(tap, Press):
                twin.play.press(tap.label)
            else:
                twin.play.tap(tap)
            twin.screen.frames(2)
        real.click(twin.where(path[-1]), settle=0.3)
        real.until(_past(real, twin.game_id, before), 20, "the move clicked")
        twin.play.press("Clear")
        twin.catch_up()
        assert real.actions(twin.game_id)[before] == twin.play.referee.engine.action_to_dict(action)
        if not shot:
            real.shot(shots / "memento-real-play.png")
            shot = True


def _past(real: RealApp, game_id: int, count: int) -> Callable[[], bool]:
    """Whether the real app has committed more than `count` actions."""
    return lambda: len(real.actions(game_id)) > count
