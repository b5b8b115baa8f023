"""memento ludis rules, one by one, on hand-set positions (point numbers as in
docs/memento-rules.md: top 0..6, left 7..13, right 14..20, inner 21..27)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.games.contract import BadSetup, IllegalAction
from companion.games.memento import actions as A
from companion.games.memento.board import board_for
from companion.games.memento.legal import legal_actions, move_targets
from companion.games.memento.state import EMPTY

from .helpers import ENGINE, kinds, play, position, setup


def refused(state, action, rule: str) -> None:
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, action)
    assert err.value.rule == rule, err.value


# ------------------------------------------------------------------------ board
def test_the_two_geometries() -> None:
    separate = board_for("SEPARATE", "MEDIANS", "ONE_STEP")
    shared = board_for("SHARED", "MEDIANS", "ONE_STEP")
    assert separate.size == 28 and shared.size == 19
    assert separate.constellations == ((2, 7, 22), (1, 14, 23), (8, 16, 21))
    assert separate.big_corners == (0, 9, 15)
    assert shared.constellations == ((2,), (1,), (7,))
    assert [separate.kinds.count(k) for k in ("corner", "median", "middle")] == [12, 12, 4]
    assert shared.triangles_of[2] == (0, 1, 3)
    # Straight runs across the shared points: the big sides and the long medians.
    assert sorted(len(r) for r in shared.runs).count(5) == 6
    for board in (separate, shared):
        assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in board.xy)
        assert len(set(board.xy)) == board.size


def test_neighbours_and_lines() -> None:
    board = board_for("SEPARATE", "MEDIANS", "ONE_STEP")
    assert board.neighbours[6] == (0, 1, 2, 3, 4, 5)
    assert board.neighbours[0] == (3, 5, 6)
    assert board.neighbours[3] == (0, 1, 6)
    assert (0, 6, 4) in board.runs and (0, 3, 1) in board.runs
    spokes = board_for("SEPARATE", "SPOKES", "ONE_STEP")
    assert spokes.neighbours == board.neighbours
    assert (0, 6, 4) not in spokes.runs and (6, 0) in spokes.runs


def test_transfers_follow_the_opposite_pairs() -> None:
    board = board_for("SEPARATE", "MEDIANS", "ONE_STEP")
    # Apex: the other big corners and the bottom constellation (ML-B4).
    assert board.links[0] == (8, 9, 15, 16, 21)
    # A left-constellation point: the other constellations and the opposite big corner.
    assert board.links[2] == (1, 8, 14, 15, 16, 21, 23)
    assert board.links[3] == ()
    for p in range(board.size):
        for q in board.links[p]:
            assert p in board.links[q]


def test_setup_is_checked() -> None:
    with pytest.raises(BadSetup) as err:
        ENGINE.new_game({"sides": [{"name": "Ada"}]})
    assert err.value.field == "sides"
    with pytest.raises(BadSetup) as err:
        ENGINE.new_game({"sides": [{"name": "A"}, {"name": "B"}], "house_rules": {"ml.x": 1}})
    assert err.value.field == "house_rules.ml.x"
    with pytest.raises(BadSetup) as err:
        ENGINE.new_game(setup(2, first=2))
    assert err.value.field == "first_player"
    assert ENGINE.new_game(setup(4)).pool == 15
    assert ENGINE.new_game(setup(3)).pool == 11


# ---------------------------------------------------------------------- opening
def test_the_starter_opens_with_one_single_anywhere() -> None:
    state = ENGINE.new_game(setup(2, first=1))
    assert ENGINE.expected(state).actions == ("place",)  # type: ignore[union-attr]
    refused(state, A.BringIn(1, 3, 4), "ML-S4")
    state, events = play(state, A.Place(1, 27))
    assert kinds(events) == ["single_placed", "turn_started"]
    assert state.owners[27] == 1 and state.pool == 10 and state.markers == (9, 8)
    refused(state, A.Place(0, 6), "ML-S4")
    assert "place" not in ENGINE.expected(state).actions  # type: ignore[union-attr]


def test_under_everyone_each_player_opens_with_a_placement() -> None:
    state = ENGINE.new_game(setup(3, first=0, ml__opening="EVERYONE"))
    state, _ = play(state, A.Place(0, 6))
    assert ENGINE.expected(state).actions == ("place",)  # type: ignore[union-attr]
    refused(state, A.Place(1, 6), "ML-S4")
    state, _ = play(state, A.Place(1, 13), A.Place(2, 20))
    assert "place" not in ENGINE.expected(state).actions  # type: ignore[union-attr]


def test_the_wrong_player_and_unknown_points_are_refused() -> None:
    state = position({6: (0, 1)})
    refused(state, A.Move(1, 6, 0), "ML-T0")
    refused(state, A.Move(0, 6, 99), "ML-B1")


# ---------------------------------------------------------------------- bring in
def test_bring_in_two_singles() -> None:
    state, events = play(position({6: (0, 1)}), A.BringIn(0, 3, 10))
    assert state.owners[3] == state.owners[10] == 0
    assert state.pool == 8 and state.markers[0] == 6
    assert kinds(events)[0] == "figures_brought_in"


@pytest.mark.parametrize(
    ("first", "second", "rule"),
    [
        (6, 3, "ML-T1"),  # a middle
        (22, 3, "ML-T1"),  # the inner triangle
        (0, 3, "ML-T1"),  # onto a figure
        (3, 3, "ML-T1"),  # the same point twice
    ],
)
def test_bring_in_refusals(first: int, second: int, rule: str) -> None:
    refused(position({0: (1, 1)}), A.BringIn(0, first, second), rule)


def test_bring_in_needs_stones_and_markers() -> None:
    refused(position({6: (1, 1)}, pool=1), A.BringIn(0, 3, 4), "ML-T1")
    state = position({6: (1, 1)})
    refused(replace(state, markers=(1, 8)), A.BringIn(0, 3, 4), "ML-T1")


def test_bring_in_on_entry_corners_only() -> None:
    state = position({6: (1, 1)}, ml__bringIn__points="ENTRY_CORNERS")
    refused(state, A.BringIn(0, 3, 0), "ML-A05")
    after, _ = play(state, A.BringIn(0, 0, 9))
    assert after.owners[0] == after.owners[9] == 0


# ------------------------------------------------------------------- turn
def test_rotating_a_triangle_carries_its_figures() -> None:
    state = position({0: (0, 2), 3: (1, 1), 6: (1, 3)})
    after, _ = play(state, A.Turn(0, 0, "clockwise"))
    assert (after.owners[1], after.stones[1]) == (0, 2)
    assert (after.owners[4], after.stones[4]) == (1, 1)
    assert (after.owners[6], after.stones[6]) == (1, 3)
    back, _ = play(state, A.Turn(0, 0, "anticlockwise"))
    assert back.owners[2] == 0 and back.owners[5] == 1


def test_flipping_a_triangle() -> None:
    state = position({1: (0, 1), 3: (1, 1)}, ml__turn__kind="FLIP")
    refused(state, A.Turn(0, 0, "clockwise"), "ML-A06")
    after, _ = play(state, A.Turn(0, 0, "flip0"))
    # The mirror is the median through the apex: right corner <-> left corner.
    assert after.owners[2] == 0 and after.owners[5] == 1 and after.owners[1] == EMPTY


def test_turn_restrictions() -> None:
    state = position({0: (0, 1), 7: (1, 1)})
    state, _ = play(state, A.Turn(0, 0, "clockwise"))
    refused(state, A.Turn(1, 1, "clockwise"), "ML-T2")  # the previous player turned
    state, _ = play(state, A.Move(1, 7, 10))
    refused(state, A.Turn(0, 1, "clockwise"), "ML-T2")  # twice in a row
    state, _ = play(state, A.Move(0, 1, 3), A.Turn(1, 0, "clockwise"))
    assert state.owners[4] == 0


def test_a_turn_must_change_the_layout() -> None:
    state = position({6: (0, 1), 13: (1, 1)})
    refused(state, A.Turn(0, 2, "clockwise"), "ML-T0")  # an empty triangle
    refused(state, A.Turn(0, 0, "clockwise"), "ML-T0")  # only its middle taken
    same = position({0: (0, 1), 1: (0, 1), 2: (0, 1), 13: (1, 1)})
    refused(same, A.Turn(0, 0, "clockwise"), "ML-T0")


# ------------------------------------------------------------------- movement
def test_a_single_steps_to_a_neighbour_or_across_the_edge() -> None:
    state = position({0: (0, 1), 20: (1, 1)})
    assert move_targets(state, 0) == {3, 5, 6, 8, 9, 15, 16, 21}
    refused(state, A.Move(0, 0, 4), "ML-T3a")
    refused(state, A.Move(0, 20, 17), "ML-T3")


def test_a_free_transfer_adds_a_step() -> None:
    state = position({0: (0, 1), 20: (1, 1)}, ml__wrapCost="FREE")
    targets = move_targets(state, 0)
    # Across to the left triangle's left corner (9), then one step along its lines.
    assert {10, 12, 13, 11} <= targets
    assert 0 not in targets


def test_a_double_slides_along_a_median_until_a_figure() -> None:
    state = position({0: (0, 2), 20: (1, 1)})
    assert {6, 4} <= move_targets(state, 0)
    # With the sides blocked too (4 is also reached along a side and across the edge):
    blocked = position({0: (0, 2), 6: (1, 1), 3: (1, 1), 5: (0, 1)})
    targets = move_targets(blocked, 0)
    assert {3, 5, 6} <= targets and 4 not in targets


def test_a_double_slides_through_a_transfer_without_a_bend() -> None:
    # Own Singles on 0 and 6 leave the Double on 3 one line: towards corner 1.
    state = position({3: (0, 2), 0: (0, 1), 6: (0, 1), 20: (1, 1)})
    # Out at the right constellation (1), in at the inner triangle's left corner 22, and
    # on along its median through the middle 27.
    assert {1, 22, 27, 26} <= move_targets(state, 3)
    blocked = position({3: (0, 2), 0: (0, 1), 6: (0, 1), 1: (0, 1), 20: (1, 1)})
    assert move_targets(blocked, 3) == {0, 1, 6}


def test_a_double_may_stop_on_the_bend_or_must_stop_before_it() -> None:
    # The own Single on 5 leaves corner 1 reachable only along the side 0-3-1.
    figures = {0: (0, 2), 5: (0, 1), 20: (1, 1)}
    on_bend = position(figures)
    before = position(figures, ml__double__cornerStop="BEFORE_BEND")
    assert 1 in move_targets(on_bend, 0)
    assert 1 not in move_targets(before, 0)
    # Crossing the edge is straight, so the slide still passes the corner.
    assert {3, 22, 27} <= move_targets(before, 0)


def test_spokes_bend_at_the_middle() -> None:
    figures = {0: (0, 2), 3: (0, 1), 5: (0, 1), 20: (1, 1)}
    assert 4 in move_targets(position(figures), 0)
    spokes = move_targets(position(figures, ml__lines="SPOKES"), 0)
    assert 6 in spokes and 4 not in spokes


def test_a_tripple_jumps_from_a_middle() -> None:
    state = position({6: (0, 3), 20: (1, 1)})
    assert {13, 20, 27, 0, 9, 15} <= move_targets(state, 6)
    elsewhere = position({3: (0, 3), 20: (1, 1)})
    assert 27 not in move_targets(elsewhere, 3)


# ---------------------------------------------------------------------- beating
@pytest.mark.parametrize(
    ("attacker", "defender", "remove_three", "cap"),
    [(1, 1, 2, 2), (1, 2, 3, 3), (1, 3, 1, 3), (2, 2, 1, 3), (2, 3, 2, 3), (3, 3, 3, 3)],
)
def test_the_beating_table(attacker: int, defender: int, remove_three: int, cap: int) -> None:
    for rule, result in (("REMOVE_THREE", remove_three), ("CAP_AT_THREE", cap)):
        state = position({3: (0, attacker), 6: (1, defender), 20: (1, 1)}, ml__overflow=rule)
        after, events = play(state, A.Move(0, 3, 6))
        assert (after.owners[6], after.stones[6]) == (0, result)
        assert after.pool == state.pool + attacker + defender - result
        assert after.markers[1] == state.markers[1] + 1
        assert "figure_beaten" in kinds(events)


def test_beating_ones_own_figure() -> None:
    state = position({3: (0, 1), 6: (0, 1), 20: (1, 1)})
    after, _ = play(state, A.Move(0, 3, 6))
    assert (after.owners[6], after.stones[6]) == (0, 2) and after.markers[0] == 8


# ------------------------------------------------------------------------ split
def test_splitting_a_double_leaves_its_point_free() -> None:
    state = position({6: (0, 2), 20: (1, 1)})
    after, events = play(state, A.Split(0, 6, ((3, 1), (27, 1))))
    assert after.owners[6] == EMPTY and after.owners[3] == after.owners[27] == 0
    assert after.markers[0] == state.markers[0] - 1
    assert kinds(events)[0] == "figure_split"


def test_split_refusals() -> None:
    state = position({6: (0, 3), 3: (1, 1), 20: (1, 1)})
    refused(state, A.Split(0, 6, ((6, 2), (4, 1))), "ML-T4")  # its own point
    refused(state, A.Split(0, 6, ((3, 2), (4, 1))), "ML-T4")  # not free
    refused(state, A.Split(0, 6, ((4, 2), (4, 1))), "ML-T4")  # one point twice
    refused(state, A.Split(0, 6, ((4, 2), (5, 2))), "ML-T4")  # wrong shape
    refused(state, A.Split(0, 6, ((4, 2), (18, 1))), "ML-A11")  # out of reach
    refused(state, A.Split(0, 20, ((4, 1), (5, 1))), "ML-T4")  # not the player's
    few = replace(state, markers=(1, 7))
    refused(few, A.Split(0, 6, ((4, 1), (5, 1), (0, 1))), "ML-T4")  # 2 markers needed
    single = position({6: (0, 1), 20: (1, 1)})
    refused(single, A.Split(0, 6, ((4, 1), (5, 1))), "ML-T4")


def test_split_reach_original_or_own_type() -> None:
    original = position({6: (0, 3), 20: (1, 1)})
    own = position({6: (0, 3), 20: (1, 1)}, ml__split__reach="OWN_TYPE")
    play(original, A.Split(0, 6, ((4, 2), (27, 1))))  # the Tripple's reach
    refused(own, A.Split(0, 6, ((4, 2), (27, 1))), "ML-A11")  # a Single only steps
    play(own, A.Split(0, 6, ((4, 2), (5, 1))))


# ------------------------------------------------------------------------ wins
def test_four_middles_win() -> None:
    state = position({6: (0, 1), 13: (0, 1), 20: (0, 1), 24: (0, 1), 0: (1, 1)})
    after, events = play(state, A.Move(0, 24, 27))
    assert after.outcome is not None and after.outcome.reason == "four_middles"
    assert kinds(events)[-1] == "game_ended"
    assert ENGINE.expected(after) is None
    refused(after, A.Move(1, 0, 3), "ML-W1")


def test_a_middle_and_its_three_medians_win() -> None:
    state = position({6: (0, 1), 3: (0, 1), 20: (1, 1)})
    after, _ = play(state, A.BringIn(0, 4, 5))
    assert after.outcome is not None
    assert (after.outcome.winner, after.outcome.reason) == (0, "triangle")


def test_a_turn_can_complete_another_players_triangle() -> None:
    # Under SHARED geometry the inner triangle's median points are the outer triangles'
    # bases: turning it carries Bo's figure from 9 onto the top triangle's base 4, and Bo
    # then holds the top middle 6 with its medians 3, 4 and 5.
    figures = {6: (1, 1), 3: (1, 1), 5: (1, 1), 9: (1, 1), 12: (0, 1)}
    state = position(figures, ml__geometry="SHARED")
    after, _ = play(state, A.Turn(0, 3, "clockwise"))
    assert after.outcome is not None
    assert (after.outcome.winner, after.outcome.reason) == (1, "triangle")


def test_the_last_player_with_figures_wins() -> None:
    state = position({3: (0, 1), 6: (1, 1)})
    after, events = play(state, A.Move(0, 3, 6))
    assert "player_out" in kinds(events)
    assert after.outcome is not None and after.outcome.reason == "last_standing"


def test_out_players_are_skipped() -> None:
    state = position({3: (0, 1), 6: (1, 1), 20: (2, 1)}, players=3)
    after, _ = play(state, A.Move(0, 3, 6))
    assert after.out == (False, True, False) and after.outcome is None
    assert after.turn == 2


def test_elimination_waits_for_a_first_figure() -> None:
    state = position({3: (0, 1), 6: (1, 1)}, players=3)
    after, _ = play(state, A.Move(0, 3, 6))
    # Cy never had a figure, so is not out; Bo is.
    assert after.out == (False, True, False) and after.outcome is None


def test_elimination_when_no_return_is_possible() -> None:
    rule = "CANNOT_RETURN"
    state = position({3: (0, 1), 6: (1, 1), 20: (2, 1)}, players=3, ml__elimination=rule)
    after, _ = play(state, A.Move(0, 3, 6))
    assert after.out == (False, False, False)  # the pool can still bring Bo back
    dry = position({3: (0, 1), 6: (1, 1), 20: (2, 1)}, players=3, pool=1, ml__elimination=rule)
    after, _ = play(dry, A.Move(0, 3, 6))
    assert after.out == (False, True, False)


# ------------------------------------------------------------------------ pass
def test_a_player_with_no_action_passes() -> None:
    # Bo never had a figure, the pool is empty and Ada just turned a triangle.
    state = position({0: (0, 3), 1: (0, 3), 2: (0, 3), 3: (0, 2)}, players=2, pool=0)
    refused(state, A.Pass(0), "ML-A10")
    after, _ = play(state, A.Turn(0, 0, "clockwise"))
    assert legal_actions(after) == [A.Pass(1)]
    assert ENGINE.expected(after).actions == ("pass",)  # type: ignore[union-attr]
    after, events = play(after, A.Pass(1))
    assert kinds(events)[0] == "turn_passed" and after.turn == 0


def test_a_player_with_no_action_is_out_under_out() -> None:
    state = position(
        {0: (0, 3), 1: (0, 3), 2: (0, 3), 3: (0, 2)}, players=2, pool=0, ml__noAction="OUT"
    )
    after, events = play(state, A.Turn(0, 0, "clockwise"))
    assert "player_out" in kinds(events)
    assert after.outcome is not None and after.outcome.reason == "last_standing"
