"""The Standard-mode challenge protocol, outcome by outcome (MW-CH1 .. MW-M3)."""

from __future__ import annotations

import pytest

from companion.games.contract import TABLE, IllegalAction
from companion.games.memwars import actions as A
from companion.games.memwars.state import BOARD, CHALLENGE, Stage

from .helpers import ENGINE, kinds, play, setup


def start(**changes: object):
    return ENGINE.new_game(setup(**changes))


def test_unchallenged_claim_passes_the_turn() -> None:
    state, events = play(start(), A.Claim(0, 13), A.DeclineChallenge(1))
    assert state.places[13].crystals == (0,)
    assert state.turn == 1
    assert "challenge_declined" in kinds(events)


def test_give_up_returns_the_piece_and_replaces_the_challenge_piece() -> None:
    state, _ = play(start(), A.Claim(0, 5), A.Challenge(1), A.GiveUp(0))
    assert state.places[5].crystals == (1, CHALLENGE)
    assert state.places[5].holder == 1
    assert state.sides[0].supply == 100
    assert state.sides[1].challenge_pieces == 13
    assert state.pool == 23
    assert state.turn == 1


def test_forsake_captures_the_challengers_piece_without_replacement() -> None:
    state, _ = play(start(), A.Claim(0, 5), A.Challenge(1), A.Contest(0), A.Forsake(1))
    assert state.places[5].crystals == (0, CHALLENGE)
    assert [c.rule for c in state.sides[0].captures] == ["forsake"]
    assert state.sides[1].challenge_pieces == 12
    assert state.turn == 1


def test_maintain_challenger_right_costs_the_claimant_a_turn() -> None:
    state, events = play(
        start(),
        A.Claim(0, 5),
        A.Challenge(1),
        A.Contest(0),
        A.Maintain(1),
        A.Judge(claimant_correct=False, challenger_correct=True),
    )
    assert state.places[5].holder == 1
    assert state.sides[0].lost_turns == 1
    assert state.turn == 1
    state, events = play(state, A.Claim(1, 6))
    # Ada sits out, so nobody may challenge; Bo plays again after Ada's skipped turn.
    assert state.turn == 1
    assert "turn_skipped" in kinds(events)


def test_maintain_challenger_wrong_gives_the_claimant_another_turn() -> None:
    state, _ = play(
        start(),
        A.Claim(0, 5),
        A.Challenge(1),
        A.Contest(0),
        A.Maintain(1),
        A.Judge(claimant_correct=True, challenger_correct=False),
    )
    assert state.places[5].holder == 0
    assert state.turn == 0
    assert state.sides[1].sitting_out


def test_both_wrong_gives_the_board_the_place_and_both_pieces() -> None:
    state, _ = play(
        start(),
        A.Claim(0, 5),
        A.Challenge(1),
        A.Contest(0),
        A.Maintain(1),
        A.Judge(claimant_correct=False, challenger_correct=False),
    )
    assert state.places[5].crystals == (CHALLENGE,)
    assert state.places[5].holder == BOARD
    assert (state.sides[0].board_retained, state.sides[1].board_retained) == (1, 1)
    assert state.turn == 1


def test_house_rule_both_wrong_costs_the_claimant_a_turn() -> None:
    rules = {"mw.maintainBothWrong.onTurnLosesTurn": True}
    state, _ = play(
        start(house_rules=rules),
        A.Claim(0, 5),
        A.Challenge(1),
        A.Contest(0),
        A.Maintain(1),
        A.Judge(False, False),
    )
    assert state.sides[0].lost_turns == 1


def test_only_the_offered_player_may_challenge_and_the_claimant_never() -> None:
    state, _ = play(start(), A.Claim(0, 5))
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, A.Challenge(0))
    assert err.value.rule == "MW-CH1"


def test_a_challenger_without_challenge_pieces_is_not_offered() -> None:
    state = start(sides=[{"name": "Ada"}, {"name": "Bo"}, {"name": "Cy"}], quadrants=[1, 2])
    # Bo spends every challenge piece on forsaken challenges.
    for place in range(1, 14):
        state, _ = play(state, A.Claim(state.turn, place))
        if state.pending is not None and state.pending.offered_to == 1:
            claimant = state.pending.claimant
            state, _ = play(state, A.Challenge(1), A.Contest(claimant), A.Forsake(1))
        elif state.pending is not None:
            state, _ = play(state, A.DeclineChallenge(state.pending.offered_to))
    assert state.sides[1].challenge_pieces < 13


def test_must_differ_refuses_an_identical_statement() -> None:
    state, _ = play(start(), A.Claim(0, 5))
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, A.Challenge(1, differs=False))
    assert err.value.rule == "MW-CH5"
    relaxed = start(house_rules={"mw.challenge.mustDiffer": False})
    relaxed, _ = play(relaxed, A.Claim(0, 5), A.Challenge(1, differs=False))
    assert relaxed.pending is not None and relaxed.pending.stage is Stage.RESPONSE


def test_round_robin_offers_the_challenge_to_the_next_player() -> None:
    sides = [{"name": "Ada"}, {"name": "Bo"}, {"name": "Cy"}]
    state = start(sides=sides, house_rules={"mw.challenge.offer": "ROUND_ROBIN"})
    state, _ = play(state, A.Claim(0, 5), A.DeclineChallenge(1))
    assert state.pending is not None and state.pending.offered_to == 2
    default = start(sides=sides)
    default, _ = play(default, A.Claim(0, 5), A.DeclineChallenge(1))
    assert default.pending is None


def test_judging_is_the_tables_decision_at_each_partys_depth() -> None:
    state = start(depth=2, max_depth=4, sides=[{"name": "Ada", "depth": 3}, {"name": "Bo"}])
    state, events = play(state, A.Claim(0, 5), A.Challenge(1), A.Contest(0), A.Maintain(1))
    expectation = ENGINE.expected(state)
    assert expectation is not None and expectation.actor == TABLE
    maintained = next(e for e in events if e.kind == "challenge_maintained")
    assert (maintained.claimant_depth, maintained.challenger_depth) == (3, 2)  # type: ignore[attr-defined]


def test_a_path_forces_the_place() -> None:
    state = start(path="backward")
    expectation = ENGINE.expected(state)
    assert expectation is not None and expectation.places == (25,)
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, A.Claim(0, 1))
    assert err.value.rule == "MW-P4"


def _bo_loses_a_turn(**changes: object):
    """Bo's challenge of place 5 fails: Bo loses a turn and Ada plays again."""
    state, _ = play(
        start(**changes),
        A.Claim(0, 5),
        A.Challenge(1),
        A.Contest(0),
        A.Maintain(1),
        A.Judge(claimant_correct=True, challenger_correct=False),
    )
    return state


@pytest.mark.parametrize("kind", [A.Challenge, A.DeclineChallenge])
def test_a_barred_player_is_told_the_rule_that_bars_them(kind: type) -> None:
    state = _bo_loses_a_turn()
    state, events = play(state, A.Claim(0, 6))
    assert "challenge_offered" not in kinds(events) and state.turn == 1
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, kind(1))
    assert err.value.rule == "MW-CH2"
    assert "MW-A14" in err.value.explanation and "lost a turn" in err.value.explanation
    assert "place 6" in err.value.explanation


def test_a_barred_player_is_told_why_while_another_is_offered_the_challenge() -> None:
    sides = [{"name": "Ada"}, {"name": "Bo"}, {"name": "Cy"}]
    state = _bo_loses_a_turn(sides=sides)
    state, _ = play(state, A.DeclineChallenge(2)) if state.pending else (state, [])
    # Bo's turn was skipped: Cy plays, and the claim is offered to Ada, not to Bo.
    assert state.turn == 2
    state, _ = play(state, A.Claim(2, 6))
    assert state.pending is not None and state.pending.offered_to == 0
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, A.Challenge(1))
    assert err.value.rule == "MW-CH2" and "MW-A14" in err.value.explanation


def test_a_player_without_challenge_pieces_is_told_so() -> None:
    state = start(quadrants=[1, 2])
    for place in range(1, 27, 2):  # Bo spends all 13 challenge pieces on forsaken challenges
        state, _ = play(
            state,
            A.Claim(0, place),
            A.Challenge(1),
            A.Contest(0),
            A.Forsake(1),
            A.Claim(1, place + 1),
            A.DeclineChallenge(0),
        )
    assert state.sides[1].challenge_pieces == 0 and state.turn == 0
    state, _ = play(state, A.Claim(0, 27))
    assert state.turn == 1
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, A.Challenge(1))
    assert err.value.rule == "MW-CH3" and "challenge piece" in err.value.explanation
