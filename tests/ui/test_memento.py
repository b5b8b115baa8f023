"""memento ludis in the app, by touch on the drawn board offscreen: chosen on New game,
played by taps against the companion to the end, a tap that makes no move refused, a
takeback, and a game resumed from Home."""

from __future__ import annotations

import random

from companion.games import find_plugin
from companion.games.memento.touch import player_colour as _colour
from companion.games.touch import Press, TouchRules
from companion.table.touch_play import TouchPlay
from tests.plays import touch_of

from .screen import Screen

PLUGIN = find_plugin("memento")
_TOUCH = PLUGIN.touch
assert _TOUCH is not None
RULES: TouchRules = _TOUCH


def start_memento(screen: Screen, companion: bool = True, players: str = "2") -> TouchPlay:
    screen.tap_text("New game")
    wizard = screen.screen()
    screen.tap_text("memento ludis")
    assert "Quadrants" not in {getattr(w, "text", "") for w in wizard.walk()}
    assert not wizard.colours
    screen.tap_text(players)
    if companion:
        screen.tap(wizard.ids.opponent_companion)
    screen.type_into(wizard.ids.name_1, "Ada")
    screen.shot("wizard-memento")
    screen.tap_text("Start the game")
    assert screen.current == "touch_live"
    play = touch_of(screen.app.controller)
    assert play is not None
    return play


def tap_path(screen: Screen, play: TouchPlay, rng: random.Random) -> None:
    """Some legal action of the player to move, made by tapping its path on the screen."""
    live = screen.screen("touch_live")
    actions = list(RULES.legal_actions(play.state))
    action = rng.choice(actions)
    path = RULES.paths(play.state, action)[0]
    seq = play.referee.seq
    for tap in path:
        if isinstance(tap, Press):
            button = live.button(tap.label)
            assert button is not None, f"no {tap.label!r} among {live.view.buttons}"
            screen.tap(button)
        else:
            screen.tap_at(*live.ids.board.spot_centre(tap))
    assert play.referee.seq == seq + 1, live.message


def companion_moves(screen: Screen, play: TouchPlay) -> None:
    seq = play.referee.seq
    assert play.step()
    assert screen.until(lambda: play.referee.seq > seq), "the companion did not move"


def test_a_whole_game_against_the_companion_by_touch(screen: Screen) -> None:
    play = start_memento(screen)
    live = screen.screen("touch_live")
    assert play.companion_side == 1
    rng = random.Random(5)
    # The opening, then the companion's reply.
    first = play.referee.expected()
    assert first is not None
    if first.actor == 1:
        companion_moves(screen, play)
    tap_path(screen, play, rng)
    companion_moves(screen, play)
    screen.shot("memento-start")
    # Bring in two, then a point the companion stands on: that makes no move, and is
    # refused without changing anything.
    theirs = next(s.key for s in live.view.drawing.spots if s.fill == _colour(1))
    seq = play.referee.seq
    screen.tap(live.button("Bring in two"))
    screen.tap_at(*live.ids.board.spot_centre(theirs))
    assert play.referee.seq == seq
    assert "not a move" in live.message
    turns = 0
    while not play.referee.is_over and turns < 120:
        expectation = play.referee.expected()
        assert expectation is not None
        if expectation.actor == play.companion_side:
            companion_moves(screen, play)
        else:
            tap_path(screen, play, rng)
            if turns == 1:
                screen.shot("memento-middle")
        turns += 1
    assert play.referee.is_over, "the game did not end"
    assert screen.until(lambda: screen.current == "end")
    end = screen.screen("end")
    assert "wins" in end.result
    screen.shot("memento-end")


def test_a_takeback_against_the_companion_gives_the_players_move_back(screen: Screen) -> None:
    play = start_memento(screen)
    rng = random.Random(2)
    expectation = play.referee.expected()
    assert expectation is not None
    if expectation.actor == 1:
        companion_moves(screen, play)
    tap_path(screen, play, rng)
    companion_moves(screen, play)
    store, game_id = play.referee.store, play.referee.game_id
    standing = [seq for seq, _t, _action in store.actions(game_id)]
    screen.tap(screen.screen("touch_live").button("Take back"))
    assert [seq for seq, _t, _action in store.actions(game_id)] == standing[:-2]
    next_up = play.referee.expected()
    assert next_up is not None and next_up.actor == 0


def test_a_game_between_people_is_resumed_from_home(screen: Screen) -> None:
    play = start_memento(screen, companion=False, players="3")
    rng = random.Random(9)
    for _ in range(3):
        tap_path(screen, play, rng)
    game_id, seq = play.referee.game_id, play.referee.seq
    screen.tap_text("Menu")
    screen.tap_text_in(screen.app.menu, "Home (the game can be resumed)")
    assert screen.current == "home"
    screen.tap_text(screen.screen().resume_text)
    assert screen.current == "touch_live"
    resumed = touch_of(screen.app.controller)
    assert resumed is not None
    assert resumed.referee.game_id == game_id and resumed.referee.seq == seq
    assert len(resumed.view().side_lines) == 3


def test_house_rules_chosen_on_new_game_make_the_game(screen: Screen) -> None:
    screen.tap_text("New game")
    wizard = screen.screen()
    screen.tap_text("memento ludis")
    screen.tap_text("As the book and the rows say (change...)")
    assert screen.current == "all_options"
    rules = screen.screen()
    # Each switch says what its value means, and changes as it is set.
    geometry = rules.meanings["ml.geometry"]
    assert "28 in all" in geometry.text
    screen.tap(rules.toggles["ml.geometry"]["SHARED"])
    assert "19 points" in geometry.text
    screen.tap(rules.toggles["ml.lines"]["SPOKES"])
    screen.tap(rules.toggles["ml.lines"]["MEDIANS"])  # back to the book's: not a change
    screen.shot("house-rules-memento")
    screen.tap(rules.ids.done)
    assert screen.current == "new_game"
    assert wizard.options_button.text == "1 house rule set (change...)"
    # Another game's house rules are its own.
    screen.tap_text("MeM")
    assert wizard.options_button.text == "As the book and the rows say (change...)"
    screen.tap_text("memento ludis")
    screen.tap_text("Start the game")
    play = touch_of(screen.app.controller)
    assert play is not None
    assert play.state.setup.rules.to_dict() == {"ml.geometry": "SHARED"}
    # The shared board is drawn: 19 points, not 28.
    assert len(screen.screen("touch_live").view.drawing.spots) == 19
