"""What a touch means on the MeM screen, without a screen: taps to actions, the buttons
offered, the highlights, the hint's marks and the lines of the event list."""

from __future__ import annotations

from dataclasses import replace

from companion.games.mem import actions as A
from companion.games.mem.engine import expected
from companion.games.mem.play.touch import (
    Guidance,
    actor_frame,
    button_pressed,
    cell_tapped,
    describe_action,
    describe_event,
    hint_marks,
    how_to,
    marks,
    offered_buttons,
    square_tapped,
)
from companion.games.mem.rules import HouseRules
from tests.mem.helpers import ENGINE, agreed, play, setup, with_patterns

EMPTYISH = "AA../....../....../....../....../AA.."


def test_a_tap_picks_a_stone_up_and_a_second_puts_it_down() -> None:
    state = ENGINE.new_game(agreed("solitaire", EMPTYISH))
    assert square_tapped(state, None, 0) == 0
    assert square_tapped(state, 0, 1) == 1
    assert square_tapped(state, 1, 1) is None
    assert square_tapped(state, None, 5) is None  # an empty square holds nothing to pick up


def test_a_cell_tapped_with_a_stone_picked_up_is_a_move_the_engine_judges() -> None:
    state = ENGINE.new_game(agreed("mem", EMPTYISH))
    expectation = expected(state)
    assert cell_tapped(state, expectation, 28, 0, (0, 0)) == A.Move(0, 28, 0, 0)
    # Any cell makes a move, the wrong player's space too: refusing it is the engine's.
    assert cell_tapped(state, expectation, 28, 1, (2, 2)) == A.Move(1, 28, 2, 2)
    assert isinstance(cell_tapped(state, expectation, None, 0, (0, 0)), Guidance)


def test_the_second_players_cells_are_turned_under_the_owner_frame() -> None:
    data = agreed("mem", EMPTYISH)
    state = ENGINE.new_game(data)
    owner = replace(state, setup=replace(state.setup, rules=HouseRules(orientation_frame="OWNER")))
    assert actor_frame(owner, 1, (1, -2)) == (-1, 2)
    assert actor_frame(owner, 0, (1, -2)) == (1, -2)
    assert actor_frame(state, 1, (1, -2)) == (1, -2)
    assert cell_tapped(owner, expected(owner), 28, 1, (0, 1)) == A.Move(1, 28, 0, -1)


def test_a_held_move_is_blocked_by_a_tap_on_a_pattern_stone() -> None:
    # Bo holds A A, matching both pairs; Ada wants a stone of the top one: the move is held.
    state = with_patterns(agreed("mem", EMPTYISH), (), ((0, 0, 1), (0, 1, 1)))
    state, _ = play(state, A.Move(0, 0, 0, 0))
    expectation = expected(state)
    assert expectation is not None and expectation.actions == ("block", "allow")
    found = marks(state, expectation, None)
    assert found.blocking == {(0, 0)} and found.takeable == {0}
    assert cell_tapped(state, expectation, None, 1, (0, 0)) == A.Block(1, 0, 0)
    # A free cell is no pattern stone: with nothing picked up, only guidance.
    assert isinstance(cell_tapped(state, expectation, None, 1, (1, 1)), Guidance)
    assert [b.key for b in offered_buttons(expectation)] == ["allow"]
    assert button_pressed(state, expectation, None, "allow") == A.Allow(1)
    assert how_to(expectation).startswith("Block")


def test_a_capture_needs_a_stone_of_the_group_picked_up() -> None:
    data = agreed("solitaire", EMPTYISH)
    data["house_rules"] = {"mem.variants.captures": True}
    state, _ = play(ENGINE.new_game(data), A.Move(0, 28, 0, 0), A.Move(0, 29, 0, 1))
    expectation = expected(state)
    assert expectation is not None
    assert [b.key for b in offered_buttons(expectation)] == ["capture", "end_turn"]
    assert marks(state, expectation, None).capturable == {0, 1}
    assert isinstance(button_pressed(state, expectation, None, "capture"), Guidance)
    assert button_pressed(state, expectation, 1, "capture") == A.Capture(0, 1)
    assert button_pressed(state, expectation, None, "end_turn") == A.EndTurn(0)
    assert "ringed in red" in how_to(expectation)
    assert isinstance(button_pressed(state, None, 1, "capture"), Guidance)  # the game is over


def test_the_targets_of_a_stone_picked_up_are_the_rules_own() -> None:
    state = ENGINE.new_game(agreed("solitaire", EMPTYISH))
    expectation = expected(state)
    assert marks(state, expectation, None).targets == frozenset()
    assert marks(state, expectation, 0).targets == {(0, 0)}
    state, _ = play(state, A.Move(0, 28, 0, 0))
    # A second A makes a pair, which must match a pair left on the board: taking the top
    # pair's stone leaves none, taking the bottom one leaves the top pair (side by side).
    assert marks(state, expected(state), 0).targets == frozenset()
    assert marks(state, expected(state), 29).targets == {(0, -1), (0, 1)}


def test_a_hint_is_shown_where_it_acts() -> None:
    state = ENGINE.new_game(setup("mini"))
    move = hint_marks(state, A.Move(state.turn, 3, 0, 0))
    assert (move.square, move.side, move.cell) == (3, state.turn, (0, 0))
    assert move.text.startswith("Hint: the ") and "square 3" in move.text
    assert hint_marks(state, A.Capture(0, 7)).button == "capture"
    assert hint_marks(state, A.EndTurn(1)).text == "Hint for Bo: end the turn."
    assert hint_marks(state, None).square is None


def test_events_and_actions_in_words() -> None:
    names = ("Ada", "Bo")
    moved = {"type": "stone_moved", "side": 0, "square": 4, "colour": 2, "row": 0, "col": 1}
    assert describe_event(moved, names) == "Ada took the black stone from square 4 to (0, 1)."
    captured = {"type": "group_captured", "side": 1, "squares": [1, 2], "pile": 5}
    assert describe_event(captured, names) == "Bo captured 2 stones (pile 5)."
    assert describe_event({"type": "game_started"}, names) == ""
    assert describe_action({"type": "end_turn", "side": 1}, names) == "Bo's end turn"
    assert describe_action({"type": "move", "side": 0, "square": 9}, names) == (
        "Ada's move on square 9"
    )
