"""The camera's board against the rules': moves proposed, moves under way, and alerts."""

from __future__ import annotations

from companion.games.memwars import actions as A
from companion.games.memwars.board_pieces import (
    PieceColours,
    counters_on_board,
    crystals_on_board,
)
from companion.games.memwars.state import State
from companion.games.memwars.table import changed_counters, changed_zones, check_table

from .helpers import ENGINE, competitive_in_play, play, setup

COLOURS = PieceColours(("red", "blue"), "yellow")


def start() -> State:
    return ENGINE.new_game(setup())


def test_a_table_that_matches_the_rules_asks_nothing() -> None:
    check = check_table(start(), {}, COLOURS)
    assert check.matches


def test_the_player_on_turn_putting_a_crystal_down_is_a_claim() -> None:
    check = check_table(start(), {"13": ("red",)}, COLOURS)
    assert check.proposal == A.Claim(0, 13)
    assert not check.alerts


def test_the_other_sides_crystal_is_a_wrong_move_named_by_the_rules() -> None:
    check = check_table(start(), {"13": ("blue",)}, COLOURS)
    assert check.proposal is None
    (alert,) = check.alerts
    assert (alert.zone, alert.rule, alert.put_right) == ("13", "MW-SM1", False)
    assert "Ada's turn" in alert.explanation


def test_a_crystal_outside_the_quadrants_in_play_quotes_that_rule() -> None:
    (alert,) = check_table(start(), {"80": ("red",)}, COLOURS).alerts
    assert alert.rule == "MW-B13"
    assert "not in play" in alert.text()


def test_two_crystals_at_once_are_two_alerts() -> None:
    check = check_table(start(), {"13": ("red",), "14": ("red",)}, COLOURS)
    assert [a.zone for a in check.alerts] == ["13", "14"]


def test_a_challenge_is_both_pieces_on_the_claimed_place() -> None:
    state, _ = play(start(), A.Claim(0, 5))
    board = {"5": ("red", "blue", "yellow")}
    assert check_table(state, board, COLOURS).proposal == A.Challenge(1)


def test_half_a_challenge_is_a_move_under_way_not_an_alert() -> None:
    state, _ = play(start(), A.Claim(0, 5))
    check = check_table(state, {"5": ("red", "blue")}, COLOURS)
    assert check.waiting_for == A.Challenge(1)
    assert not check.alerts


def test_pieces_the_rules_moved_are_table_work_with_the_moves_rule() -> None:
    before, _ = play(start(), A.Claim(0, 5), A.Challenge(1))
    after, _ = play(before, A.GiveUp(0))
    changed = changed_zones(before, after, COLOURS)
    assert changed == ("5",)
    seen = {"5": ("blue", "red", "yellow")}  # the claimant's crystal is still there
    (alert,) = check_table(after, seen, COLOURS, last_move="give_up", changed=changed).alerts
    assert alert.put_right and alert.rule == "MW-CH6"
    assert "take a red crystal off" in alert.explanation


def test_a_missing_crystal_elsewhere_is_not_table_work() -> None:
    state, _ = play(start(), A.Claim(0, 13), A.DeclineChallenge(1))
    (alert,) = check_table(state, {}, COLOURS, last_move="decline_challenge").alerts
    assert not alert.put_right
    assert alert.expected == ("red",) and alert.seen == ()


# -- topology counters ---------------------------------------------------------------------


def face_down_place(state: State) -> str:
    """A place with one face-down counter on it."""
    return next(z for z, values in counters_on_board(state).items() if values == (None,))


def test_counters_as_the_rules_have_them_ask_nothing() -> None:
    state = competitive_in_play()
    laid = counters_on_board(state)
    assert laid
    assert check_table(state, {}, COLOURS, counters=laid).matches
    # The camera lists a place's counters in any order.
    shuffled = {z: tuple(reversed(v)) for z, v in laid.items()}
    assert check_table(state, {}, COLOURS, counters=shuffled).matches


def test_a_face_down_counter_turned_up_holds_the_game_and_never_says_its_value() -> None:
    state = competitive_in_play()
    zone = face_down_place(state)
    value = state.places[int(zone)].counters[0].value
    seen = {**counters_on_board(state), zone: (value,)}
    (alert,) = check_table(state, {}, COLOURS, counters=seen).alerts
    assert (alert.zone, alert.rule, alert.counters, alert.put_right) == (zone, "MW-T5", True, False)
    assert "a face-down counter was turned face up" in alert.explanation
    assert str(value) not in alert.explanation
    # Put right: turned back face down.
    assert check_table(state, {}, COLOURS, counters=counters_on_board(state)).matches


def test_a_counter_taken_off_a_place_not_won_is_against_the_rules() -> None:
    state = competitive_in_play()
    zone = face_down_place(state)
    seen = {z: v for z, v in counters_on_board(state).items() if z != zone}
    (alert,) = check_table(state, {}, COLOURS, counters=seen).alerts
    assert (alert.zone, alert.rule, alert.put_right) == (zone, "MW-T7", False)
    assert alert.explanation.startswith("a face-down counter was taken off")


def test_a_counter_where_the_rules_have_none_names_the_topology_s_rule() -> None:
    state = competitive_in_play()
    free = next(str(p) for p in range(1, 26) if str(p) not in counters_on_board(state))
    seen = {**counters_on_board(state), free: (3,)}
    (alert,) = check_table(state, {}, COLOURS, counters=seen).alerts
    assert (alert.zone, alert.rule) == (free, "MW-T3")
    assert "3" not in alert.explanation  # a counter from someone's hand: its value is theirs
    flat = start()
    (alert,) = check_table(flat, {}, COLOURS, counters={"4": (None,)}).alerts
    assert alert.rule == "MW-T2"


def test_a_standard_card_s_counter_of_another_value_names_the_card_s() -> None:
    state = ENGINE.new_game(setup(topology={"kind": "standard"}))
    laid = counters_on_board(state)
    assert laid["3"] == (5,)
    (alert,) = check_table(state, {}, COLOURS, counters={**laid, "3": (2,)}).alerts
    assert (alert.zone, alert.rule) == ("3", "MW-T2")
    assert "the topology has a face-up 5 here" in alert.explanation


def test_counters_the_holder_took_still_on_the_table_are_table_work() -> None:
    state = competitive_in_play()
    zone = face_down_place(state)
    before, _ = play(state, A.Claim(state.turn, int(zone)))
    after, _ = play(before, A.DeclineChallenge(1 - state.turn))
    moved = changed_counters(before, after)
    assert moved == (zone,)
    seen = counters_on_board(before)  # the counter still lies there, face down
    crystals = crystals_on_board(after, COLOURS)
    check = check_table(
        after,
        crystals,
        COLOURS,
        last_move="decline_challenge",
        counters=seen,
        counters_changed=moved,
    )
    (alert,) = check.alerts
    assert (alert.zone, alert.rule, alert.put_right) == (zone, "MW-T7", True)
    assert alert.text() == f"place {zone}: the rules took the counters off: take them off (MW-T7)"
    assert alert.seen == crystals[zone]  # what the board is drawn with there
    assert check_table(after, crystals, COLOURS, counters=counters_on_board(after)).matches


def test_counters_an_answer_took_are_table_work_under_the_basic_rule() -> None:
    state = ENGINE.new_game(setup(mode="basic", topology={"kind": "standard"}))
    place = str(state.setup.place_of[state.current_card])
    assert place in counters_on_board(state)
    after, _ = play(state, A.Answer(state.turn, True))
    check = check_table(
        after,
        crystals_on_board(after, COLOURS),
        COLOURS,
        last_move="answer",
        counters=counters_on_board(state),
        counters_changed=changed_counters(state, after),
    )
    (alert,) = check.alerts
    assert (alert.zone, alert.rule, alert.put_right) == (place, "MW-T8", True)


def test_a_face_down_counter_laid_before_its_placement_is_touched_is_no_alert() -> None:
    state = ENGINE.new_game(setup(topology={"kind": "competitive"}))
    expectation = ENGINE.expected(state)
    assert expectation is not None and expectation.actions == ("place_counter",)
    place = str(expectation.places[0])
    assert check_table(state, {}, COLOURS, counters={place: (None,)}).alerts == ()
    # Face up, it shows a value the rules hide from everyone: an alert, without the value.
    (alert,) = check_table(state, {}, COLOURS, counters={place: (5,)}).alerts
    assert alert.rule == "MW-T3" and "5" not in alert.explanation
    # Once placed by touch, the counter still in hand is table work under the placement's rule.
    value = state.sides[expectation.actor].counters_left[0]
    after, _ = play(state, A.PlaceCounter(expectation.actor, int(place), value))
    (alert,) = check_table(
        after,
        {},
        COLOURS,
        last_move="place_counter",
        counters={},
        counters_changed=changed_counters(state, after),
    ).alerts
    assert (alert.rule, alert.put_right) == ("MW-T4", True)
    assert alert.explanation == "the rules moved the counters: put a face-down counter here"


def test_without_counters_from_the_camera_they_are_not_checked() -> None:
    state = competitive_in_play()
    assert check_table(state, {}, COLOURS).matches


# -- answers located on the board ------------------------------------------------------------


def review(**house_rules: str) -> State:
    return ENGINE.new_game(
        setup(mode="review", sides=[{"name": "Ada"}], house_rules=dict(house_rules))
    )


def test_a_crystal_put_down_locates_the_answer_and_leaves_the_verdict_to_the_table() -> None:
    state = review()
    check = check_table(state, {"7": ("red",)}, COLOURS)
    assert (check.located, check.proposal, check.alerts) == (7, None, ())
    assert not check.matches
    # Another colour, or two crystals, locate nothing.
    assert check_table(state, {"7": ("blue",)}, COLOURS).alerts
    assert check_table(state, {"7": ("red",), "8": ("red",)}, COLOURS).located == 0
    # After a takeback what lies there is table work, not an answer.
    assert check_table(state, {"7": ("red",)}, COLOURS, propose=False).located == 0


def test_when_only_the_facts_count_nothing_is_located() -> None:
    state = review(**{"mw.review.correctness": "FACTS_ONLY"})
    check = check_table(state, {"7": ("red",)}, COLOURS)
    assert check.located == 0 and check.alerts


def test_a_wrong_located_answer_leaves_its_crystal_as_table_work() -> None:
    state = review()
    right = state.setup.place_of[state.current_card]
    wrong = next(p for p in sorted(state.setup.in_play) if p != right)
    answer = A.Answer(0, True, wrong)
    after, _ = play(state, answer)
    changed = changed_zones(state, after, COLOURS, answer)
    assert str(wrong) in changed
    seen = {str(wrong): ("red",)}
    alerts = check_table(after, seen, COLOURS, last_move="answer", changed=changed).alerts
    taken = next(a for a in alerts if a.zone == str(wrong))
    assert taken.put_right and taken.explanation == "the rules take a red crystal off"
