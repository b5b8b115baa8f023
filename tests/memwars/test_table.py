"""The camera's board against the rules': moves proposed, moves under way, and alerts."""

from __future__ import annotations

from companion.games.memwars import actions as A
from companion.games.memwars.board_pieces import PieceColours
from companion.games.memwars.state import State
from companion.games.memwars.table import changed_zones, check_table

from .helpers import ENGINE, play, setup

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
