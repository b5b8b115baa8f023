"""The camera's MeM board against the rules' board (companion/games/mem/table.py): a match,
a stone picked up (legal, or refused with the engine's rule until it is put back), a held
move's stone in the hand, mismatches of every kind, unsure squares, table work after an
action, and the lifts it allows always the squares the engine's expectation names."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.games.mem import actions as A
from companion.games.mem.board import geometry
from companion.games.mem.colours import NAME
from companion.games.mem.play.virtual_table import camera_stones
from companion.games.mem.state import Outcome, State
from companion.games.mem.table import (
    TABLE_RULE,
    StoneAlert,
    TableCheck,
    camera_board,
    changed_squares,
    check_table,
    rules_board,
    table_board,
    take_refusal,
)

from .helpers import ENGINE, agreed, play, random_action, setup, with_patterns

SQ = geometry().square_at
BLOCK = "AA../....../....../AA..B./....../...."


def seen_of(state: State) -> dict[str, tuple[str, ...]]:
    """The rules' board as the camera reports it."""
    return {str(s): (NAME[c],) for s, c in enumerate(state.board) if c}


def without(state: State, *squares: int) -> dict[str, tuple[str, ...]]:
    seen = seen_of(state)
    for square in squares:
        del seen[str(square)]
    return seen


def only_alert(check: TableCheck) -> StoneAlert:
    assert check.taken is None and len(check.alerts) == 1, check
    return check.alerts[0]


def _blockable() -> State:
    return with_patterns(agreed("mem", BLOCK), ((0, 0, 3), (0, 1, 3)), (), turn=1)


# ---------------------------------------------------------------- boards as data
def test_the_boards_as_square_to_colour() -> None:
    state = ENGINE.new_game(setup(seed=3))
    assert rules_board(state) == {s: NAME[c] for s, c in enumerate(state.board)}
    assert camera_board({"4": ("red",), "5": (), "diamond-1": ("blue",), "6": ("b", "a")}) == {
        4: "red",
        6: "a and b",
    }


def test_a_table_that_matches_is_nothing_to_do() -> None:
    state = ENGINE.new_game(setup(seed=3))
    check = check_table(state, seen_of(state))
    assert check == TableCheck() and check.matches


# ------------------------------------------------------------------ picking up
@pytest.mark.parametrize("game", ["mem", "mini", "solitaire"])
def test_a_stone_picked_up_that_may_be_taken_is_taken(game: str) -> None:
    state = ENGINE.new_game(setup(game, seed=3))
    expectation = ENGINE.expected(state)
    assert expectation is not None
    square = expectation.places[0]
    check = check_table(state, without(state, square))
    assert check == TableCheck(taken=square) and not check.matches


def test_a_capture_begins_with_a_stone_of_the_group_picked_up() -> None:
    board = "AA../....../BB..CD/AA..CD/....../...."
    state = ENGINE.new_game(agreed("mem", board))
    state, _ = play(state, A.Move(0, SQ[(3, 0)], 0, 0), A.Move(1, SQ[(2, 4)], 0, 0))
    state, _ = play(state, A.Move(0, SQ[(3, 1)], 0, 1))
    # The move is made: only a capture is left, of the A A or the B B group.
    assert check_table(state, without(state, 0)) == TableCheck(taken=0)
    assert check_table(state, without(state, SQ[(2, 0)])) == TableCheck(taken=SQ[(2, 0)])
    square = SQ[(3, 5)]  # the D left of the C D / C D block: no group Ada may capture
    alert = only_alert(check_table(state, without(state, square)))
    assert (alert.square, alert.rule, alert.seen, alert.expected) == (
        square,
        "MEM-R10.1",
        "",
        "blue",
    )
    assert "this turn has no move left" in alert.explanation
    assert alert.text().startswith(f"Square {square}: the blue stone may not be taken")
    assert not alert.put_right


def test_a_blocked_stone_picked_up_is_refused_until_put_back() -> None:
    state, _ = play(_blockable(), A.Move(1, 1, 0, 0), A.Block(0, 0, 1))
    assert 1 in state.barred
    alert = only_alert(check_table(state, without(state, 1)))
    assert (alert.square, alert.rule) == (1, "MEM-R10.3c")
    assert "blocked" in alert.explanation and alert.text().endswith("(MEM-R10.3c)")
    # Put back where it was: the alert is gone.
    assert check_table(state, seen_of(state)).matches


def test_a_stone_of_a_locked_group_is_refused() -> None:
    state, _ = play(_blockable(), A.Move(1, 1, 0, 0), A.Block(0, 0, 1))
    assert state.sides[0].lock == (0, 1)
    alert = only_alert(check_table(state, without(state, 0)))
    assert (alert.square, alert.rule) == (0, "MEM-R10.3c")
    assert "Ada's pattern" in alert.explanation


def test_a_stone_the_other_pattern_needs_is_refused() -> None:
    board = "A.../....../BB..../....../....../...C"
    state = with_patterns(agreed("mem", board), (), ((0, 0, 5), (0, 1, 5)), turn=0)
    alert = only_alert(check_table(state, without(state, SQ[(2, 1)])))
    assert alert.rule == "MEM-R3" and "Bo's pattern" in alert.explanation


def test_a_stone_that_fits_no_cell_of_the_pattern_is_refused() -> None:
    # Ada holds A A; the only equal pair is B B: the lone A on square 0 fits nowhere.
    board = "A.B./....../BB..../....../....../...."
    state = with_patterns(agreed("mem", board), ((0, 0, 1), (0, 1, 1)), ())
    alert = only_alert(check_table(state, without(state, 0)))
    assert alert.rule == "MEM-R3"
    assert "it fits no cell of Ada's space: with that stone at" in alert.explanation
    assert "pattern would match no group" in alert.explanation


def test_a_stone_picked_up_while_the_other_player_must_decide_is_refused() -> None:
    state, _ = play(_blockable(), A.Move(1, 1, 0, 0))  # held for Ada's block or allow
    alert = only_alert(check_table(state, without(state, SQ[(3, 4)])))
    assert alert.rule == "MEM-R10.3" and "Ada must first block or allow" in alert.explanation


def test_the_held_moves_stone_in_the_hand_is_waiting_not_an_alert() -> None:
    state, _ = play(_blockable(), A.Move(1, 1, 0, 0))
    assert check_table(state, without(state, 1)) == TableCheck(waiting=1)
    asked, _ = play(_blockable(), A.Ask(1, SQ[(3, 0)]))
    assert check_table(asked, without(asked, SQ[(3, 0)])) == TableCheck(waiting=SQ[(3, 0)])


def test_the_table_the_players_lay_leaves_the_held_stone_in_the_hand() -> None:
    state, _ = play(_blockable(), A.Move(1, 1, 0, 0))
    assert 1 in rules_board(state) and 1 not in table_board(state)
    assert check_table(state, camera_stones(table_board(state))) == TableCheck(waiting=1)
    allowed, _ = play(state, A.Allow(0))
    assert table_board(allowed) == rules_board(allowed)


def test_after_a_no_only_the_asked_stone_may_be_taken() -> None:
    state, _ = play(_blockable(), A.Ask(1, SQ[(3, 0)]), A.Allow(0))
    assert check_table(state, without(state, SQ[(3, 0)])) == TableCheck(taken=SQ[(3, 0)])
    alert = only_alert(check_table(state, without(state, SQ[(3, 4)])))
    assert alert.rule == "MEM-R10.4"


def test_a_stone_picked_up_after_the_game_ended_is_refused() -> None:
    state = ENGINE.new_game(setup(seed=3))
    over = replace(state, outcome=Outcome((0,), "nobody_can_act", (1, 0)))
    alert = only_alert(check_table(over, without(over, 5)))
    assert alert.rule == "MEM-R10.5"


def test_the_second_players_cells_are_tried_in_their_own_frame() -> None:
    # Under mem.orientationFrame=OWNER Bo's moves give cells turned half a circle: a stone
    # that only fits on his pattern's right (board frame) is still found takeable.
    board = "AB../....../AB..../....../....../...."
    for frame in ("BOARD", "OWNER"):
        data = agreed("mem", board, mem__orientationFrame=frame)
        state = with_patterns(data, (), ((0, 0, 1),), turn=1)
        assert take_refusal(state, 1) is None, frame
        assert check_table(state, without(state, 1)) == TableCheck(taken=1)


# ------------------------------------------------------------------- mismatches
def test_a_stone_appearing_is_an_alert_naming_both_sides() -> None:
    state, _ = play(_blockable(), A.Move(1, SQ[(3, 4)], 0, 0))
    empty = next(s for s, c in enumerate(state.board) if not c)
    seen = seen_of(state) | {str(empty): ("pink",)}
    alert = only_alert(check_table(state, seen))
    assert (alert.square, alert.seen, alert.expected, alert.rule) == (empty, "pink", "", TABLE_RULE)
    assert alert.explanation == "the camera sees a pink stone, the rules expect no stone"


def test_a_colour_changed_is_an_alert() -> None:
    state = ENGINE.new_game(setup(seed=3))
    expected = NAME[state.board[7]]
    other = "pink" if expected != "pink" else "grey"
    alert = only_alert(check_table(state, seen_of(state) | {"7": (other,)}))
    assert (alert.seen, alert.expected) == (other, expected)
    assert (
        alert.explanation == f"the camera sees a {other} stone, the rules expect a {expected} stone"
    )


def test_several_stones_gone_at_once_are_an_alert_each() -> None:
    state = ENGINE.new_game(setup(seed=3))
    check = check_table(state, without(state, 9, 2))
    assert check.taken is None
    assert [(a.square, a.seen, a.rule) for a in check.alerts] == [
        (2, "", TABLE_RULE),
        (9, "", TABLE_RULE),
    ]
    assert all("the camera sees no stone" in a.explanation for a in check.alerts)


def test_one_gone_and_one_appearing_are_both_alerts() -> None:
    state, _ = play(_blockable(), A.Move(1, SQ[(3, 4)], 0, 0))
    empty = SQ[(3, 4)]
    seen = without(state, 0) | {str(empty): ("blue",)}
    check = check_table(state, seen)
    assert check.taken is None and [a.square for a in check.alerts] == [0, empty]


# ----------------------------------------------------------------------- unsure
def test_unsure_squares_never_raise_alerts() -> None:
    state = ENGINE.new_game(setup(seed=3))
    # An unsure stone never commits: the square may read empty or as it was.
    assert check_table(state, without(state, 9, 2), unsure={"9", "2"}).matches
    assert check_table(state, seen_of(state) | {"4": ("pink",)}, unsure=["4"]).matches
    # The others still count: one gone beside an unsure one is a stone picked up.
    assert check_table(state, without(state, 9, 2), unsure={"9"}) == TableCheck(taken=2)


# -------------------------------------------------------------- after an action
def test_a_stone_moved_by_touch_but_still_on_the_table_is_table_work() -> None:
    before = _blockable()
    after, _ = play(before, A.Move(1, SQ[(3, 4)], 0, 0))
    changed = changed_squares(before, after)
    assert changed == (SQ[(3, 4)],)
    alert = only_alert(check_table(after, seen_of(before), last_action="move", changed=changed))
    assert alert.put_right and alert.rule == "MEM-R3"
    assert alert.explanation == "the rules say: take the black stone off"
    # Without knowing the action, it is a stone that should not be there.
    plain = only_alert(check_table(after, seen_of(before)))
    assert not plain.put_right and plain.rule == TABLE_RULE


def test_a_captured_group_left_on_the_table_is_table_work() -> None:
    board = "AA../....../BB..CD/AA..CD/....../...."
    state = ENGINE.new_game(agreed("mem", board))
    state, _ = play(state, A.Move(0, SQ[(3, 0)], 0, 0), A.Move(1, SQ[(2, 4)], 0, 0))
    before, _ = play(state, A.Move(0, SQ[(3, 1)], 0, 1))
    after, _ = play(before, A.Capture(0, 0))
    changed = changed_squares(before, after)
    assert changed == (0, 1)
    # The stone picked up to capture is off; its neighbour is still on the table.
    check = check_table(after, without(before, 0), last_action="capture", changed=changed)
    alert = only_alert(check)
    assert (alert.square, alert.rule, alert.put_right) == (1, "MEM-R8", True)
    assert check_table(after, without(before, 0, 1), last_action="capture", changed=changed).matches


def test_a_stone_a_takeback_returns_is_table_work() -> None:
    before, _ = play(_blockable(), A.Move(1, SQ[(3, 4)], 0, 0))
    after = _blockable()
    changed = changed_squares(before, after)
    alert = only_alert(check_table(after, seen_of(before), last_action="takeback", changed=changed))
    assert (
        alert.rule == "takeback"
        and alert.explanation == "the rules say: put the black stone back here"
    )


def test_table_work_and_a_stone_picked_up_are_told_apart() -> None:
    before = ENGINE.new_game(setup(seed=3))
    expectation = ENGINE.expected(before)
    assert expectation is not None
    square = expectation.places[0]
    after, _ = play(before, A.Move(expectation.actor, square, 0, 0))
    changed = changed_squares(before, after)
    expectation = ENGINE.expected(after)
    assert expectation is not None and "move" in expectation.actions
    other = next(s for s in expectation.places if s != square)
    check = check_table(after, without(before, other), last_action="move", changed=changed)
    assert check.taken == other
    assert [(a.square, a.put_right) for a in check.alerts] == [(square, True)]


# ------------------------------------------- the engine decides, in every state
@pytest.mark.parametrize("game", ["mem", "solitaire"])
def test_the_stones_a_lift_may_take_are_the_ones_the_engine_expects(game: str) -> None:
    """Over random games: a lift is taken exactly when the square is one the engine's
    expectation names (a legal move's stone or a capturable group's), never otherwise."""
    rng = random.Random(f"table:{game}")
    checked = 0
    for seed in range(6):
        state = ENGINE.new_game(setup(game, seed=seed))
        while not ENGINE.is_over(state) and checked < 400:
            expectation = ENGINE.expected(state)
            assert expectation is not None
            if state.pending is None:
                stones = [s for s, c in enumerate(state.board) if c]
                for square in rng.sample(stones, min(4, len(stones))):
                    taken = check_table(state, without(state, square)).taken == square
                    assert taken == (square in expectation.places), (seed, square)
                    checked += 1
            state, _ = ENGINE.apply(state, random_action(state, rng))
    assert checked >= 200
