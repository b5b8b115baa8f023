"""Setup steps, Basic, Hybrid, solitaire modes, paths, timers and house rules that change flow."""

from __future__ import annotations

import pytest

from companion.games.contract import TABLE, IllegalAction
from companion.games.memwars import actions as A
from companion.games.memwars.scoring import score
from companion.games.memwars.state import BOARD, CHALLENGE, NOBODY, Phase

from .helpers import ENGINE, kinds, play, setup


def test_setup_runs_roll_orient_depth_shuffle_and_counters_in_order() -> None:
    state = ENGINE.new_game(
        setup(
            first_player=None,
            north=None,
            depth="roll",
            max_depth=3,
            path="random",
            topology={"kind": "competitive"},
        )
    )
    steps = []
    while state.phase is not Phase.PLAY:
        expectation = ENGINE.expected(state)
        assert expectation is not None
        steps.append(expectation.actions[0])
        if expectation.actions[0] == "roll_for_first":
            state, _ = play(state, A.RollForFirst())
        elif expectation.actions[0] == "orient_board":
            assert expectation.actor == state.second_player
            state, _ = play(state, A.OrientBoard(expectation.actor, "left"))
        elif expectation.actions[0] == "roll_depth":
            state, _ = play(state, A.RollDepth())
        elif expectation.actions[0] == "shuffle_deck":
            assert expectation.actor == state.last_player
            state, _ = play(state, A.ShuffleDeck(expectation.actor))
        else:
            side = expectation.actor
            value = state.sides[side].counters_left[0]
            state, _ = play(state, A.PlaceCounter(side, expectation.places[0], value))
    assert steps[:4] == ["roll_for_first", "orient_board", "roll_depth", "shuffle_deck"]
    assert steps[4:] == ["place_counter"] * 6  # one of each value each in one quadrant
    assert 1 <= state.depth <= 3
    assert sorted(state.deck) == list(range(1, 26)) and state.deck != tuple(range(1, 26))


def test_first_player_ties_re_roll_and_the_seed_decides() -> None:
    rolled = set()
    for seed in range(40):
        state = ENGINE.new_game(setup(first_player=None, seed=seed))
        state, events = play(state, A.RollForFirst())
        rounds = events[0].rounds  # type: ignore[attr-defined]
        for earlier in rounds[:-1]:
            assert earlier[0] == earlier[1]
        assert rounds[-1][state.first_player] > rounds[-1][1 - state.first_player]
        again, _ = play(ENGINE.new_game(setup(first_player=None, seed=seed)), A.RollForFirst())
        assert again.first_player == state.first_player
        rolled.add(state.first_player)
    assert rolled == {0, 1}


def test_only_the_second_player_orients_and_edges_are_checked() -> None:
    state = ENGINE.new_game(setup(north=None))
    with pytest.raises(IllegalAction, match="MW-S3"):
        ENGINE.apply(state, A.OrientBoard(0, "top"))
    with pytest.raises(IllegalAction, match="MW-B11"):
        ENGINE.apply(state, A.OrientBoard(1, "north"))


def test_counter_placement_limits() -> None:
    state = ENGINE.new_game(setup(topology={"kind": "competitive"}))
    state, _ = play(state, A.PlaceCounter(1, 5, 5))
    with pytest.raises(IllegalAction, match="MW-T4"):
        ENGINE.apply(state, A.PlaceCounter(1, 6, 3))
    state, _ = play(state, A.PlaceCounter(0, 5, 5))  # one counter per player per place
    with pytest.raises(IllegalAction, match="MW-T6"):
        ENGINE.apply(state, A.PlaceCounter(1, 5, 3))
    with pytest.raises(IllegalAction, match="MW-T3"):
        ENGINE.apply(state, A.PlaceCounter(1, 6, 5))
    with pytest.raises(IllegalAction, match="MW-B13"):
        ENGINE.apply(state, A.PlaceCounter(1, 40, 3))


def test_basic_mode_alternates_answerers_and_marks_misses() -> None:
    state = ENGINE.new_game(setup(mode="basic"))
    expectation = ENGINE.expected(state)
    assert expectation is not None and expectation.actor == TABLE
    assert state.current_card == 1 and state.turn == 0
    state, events = play(state, A.Answer(0, False))
    assert state.places[1].crystals == (CHALLENGE,)
    assert state.lightning == (1,)
    assert state.turn == 1 and state.current_card == 2
    with pytest.raises(IllegalAction, match="MW-BM1"):
        ENGINE.apply(state, A.Answer(0, True))
    with pytest.raises(IllegalAction, match="MW-BM3"):
        ENGINE.apply(state, A.Answer(1, True, 7))
    assert "card_presented" in kinds(events)


def test_basic_lightning_rounds_stop_at_the_agreed_number() -> None:
    state = ENGINE.new_game(setup(mode="basic", lightning_rounds=1))
    for card in range(1, 26):
        state, _ = play(state, A.Answer(state.turn, card != 4))
    assert state.phase is Phase.LIGHTNING and state.round_cards == (4,)
    state, events = play(state, A.Answer(state.turn, False))
    assert state.phase is Phase.OVER
    assert state.places[4].holder == NOBODY  # marked, not held (MW-BM9)
    assert kinds(events)[-1] == "game_ended"


def test_original_misser_answers_lightning_cards() -> None:
    rules = {"mw.lightning.answerer": "ORIGINAL_MISSER"}
    state = ENGINE.new_game(setup(mode="basic", house_rules=rules))
    for card in range(1, 26):
        state, _ = play(state, A.Answer(state.turn, card not in (2, 3)))
    # Card 2 was missed by Bo, card 3 by Ada: each goes back to who missed it.
    assert state.round_cards == (2, 3)
    assert state.turn == 1
    state, _ = play(state, A.Answer(1, True))
    assert state.turn == 0


def test_own_challenge_pieces_mark_basic_misses_and_come_back() -> None:
    rules = {"mw.basic.challengeMarkers": "FROM_OWN_13"}
    state = ENGINE.new_game(setup(mode="basic", house_rules=rules))
    state, _ = play(state, A.Answer(0, False))
    assert state.sides[0].challenge_pieces == 12 and state.pool == 24
    for _ in range(24):
        state, _ = play(state, A.Answer(state.turn, True))
    state, _ = play(state, A.Answer(state.turn, True))  # lightning: card 1 answered
    assert state.sides[0].challenge_pieces == 13
    assert state.phase is Phase.OVER


def test_review_requires_the_place_and_study_walks_the_deck() -> None:
    review = ENGINE.new_game(setup(mode="review", sides=[{"name": "Ada"}]))
    with pytest.raises(IllegalAction, match="MW-SR3"):
        ENGINE.apply(review, A.Answer(0, True))
    review, events = play(review, A.Answer(0, True, 2))
    assert review.places[1].crystals == (CHALLENGE,)  # right facts, wrong place
    study = ENGINE.new_game(setup(mode="study", sides=[{"name": "Ada"}], path="backward"))
    study, events = play(study, *[A.StudyCard(0)] * 25)
    assert [e.card for e in events if e.kind == "card_studied"] == list(range(25, 0, -1))  # type: ignore[attr-defined]
    assert study.phase is Phase.OVER


def test_hybrid_basic_side_skips_claimed_places() -> None:
    sides = [{"name": "Ada", "mode": "standard"}, {"name": "Bo", "mode": "basic"}]
    state = ENGINE.new_game(setup(mode="hybrid", sides=sides))
    state, _ = play(state, A.Claim(0, 1), A.DeclineChallenge(1))
    assert state.turn == 1 and state.current_card == 2
    assert 1 in state.discard


def test_hybrid_checked_at_once() -> None:
    sides = [{"name": "Ada", "mode": "standard"}, {"name": "Bo", "mode": "basic"}]
    rules = {"mw.hybrid.standardClaims": "CHECKED_AT_ONCE"}
    state = ENGINE.new_game(setup(mode="hybrid", sides=sides, house_rules=rules))
    state, _ = play(state, A.Claim(0, 9))
    expectation = ENGINE.expected(state)
    assert expectation is not None and expectation.actions == ("answer",)
    state, _ = play(state, A.Answer(0, False))
    assert state.places[9].crystals == (CHALLENGE,)
    assert state.sides[0].supply == 100
    assert 9 in state.lightning


def test_timer_per_move_and_flag() -> None:
    with pytest.raises(IllegalAction, match="MW-G7"):
        ENGINE.apply(ENGINE.new_game(setup()), A.TimeExpired(0))
    state = ENGINE.new_game(setup(timer=True))
    state, events = play(state, A.TimeExpired(0))
    assert state.turn == 1 and "turn_passed" in kinds(events)
    state, _ = play(state, A.Claim(1, 3), A.Challenge(0), A.TimeExpired(1))
    assert state.places[3].holder == 0  # a timed-out response gives the place up
    basic = ENGINE.new_game(setup(mode="basic", timer=True))
    basic, _ = play(basic, A.TimeExpired(0))
    assert basic.lightning == (1,)
    flag = ENGINE.new_game(setup(timer=True, house_rules={"mw.timer": "FLAG_LOSES"}))
    flag, events = play(flag, A.TimeExpired(0))
    assert flag.phase is Phase.OVER and flag.outcome is not None
    assert flag.outcome.winners == (1,) and flag.outcome.reason == "flag"


def test_pass_only_under_the_house_rule() -> None:
    with pytest.raises(IllegalAction, match="MW-SM2"):
        ENGINE.apply(ENGINE.new_game(setup()), A.Pass(0))
    state = ENGINE.new_game(setup(house_rules={"mw.standard.allowPass": True}))
    state, _ = play(state, A.Pass(0))
    assert state.turn == 1


def test_over_is_over() -> None:
    state = ENGINE.new_game(setup(mode="study", sides=[{"name": "Ada"}]))
    state, _ = play(state, *[A.StudyCard(0)] * 25)
    assert ENGINE.expected(state) is None
    with pytest.raises(IllegalAction, match="MW-F4"):
        ENGINE.apply(state, A.StudyCard(0))


def test_the_table_is_never_on_the_clock() -> None:
    rules = {"mw.timer": "FLAG_LOSES"}
    state = ENGINE.new_game(setup(timer=True, first_player=None, house_rules=rules))
    with pytest.raises(IllegalAction, match="MW-A33"):
        ENGINE.apply(state, A.TimeExpired(0))
    state, _ = play(state, A.RollForFirst())
    p = state.turn
    state, _ = play(state, A.Claim(p, 1), A.Challenge(1 - p), A.Contest(p), A.Maintain(1 - p))
    with pytest.raises(IllegalAction, match="MW-A33"):
        ENGINE.apply(state, A.TimeExpired(p))


def test_a_hidden_place_is_not_given_away_by_the_prompt() -> None:
    state = ENGINE.new_game(setup(mode="basic", house_rules={"mw.basic.mustLocatePlace": True}))
    expectation = ENGINE.expected(state)
    assert expectation is not None
    assert "card 1" not in expectation.prompt and len(expectation.places) == 25


def test_a_basic_place_still_marked_after_the_lightning_rounds_scores_for_nobody() -> None:
    # MW-BM9: "Places still marked by a challenge piece score for nobody."
    state = ENGINE.new_game(setup(mode="basic", lightning_rounds=1))
    for card in range(1, 26):
        state, _ = play(state, A.Answer(state.turn, card != 4))
    state, _ = play(state, A.Answer(state.turn, False))
    assert state.phase is Phase.OVER and state.places[4].crystals == (CHALLENGE,)
    breakdown = score(state)
    assert (breakdown.board, breakdown.board_places) == (0, 0)
    assert sum(s.places for s in breakdown.sides) == 24
    assert ENGINE.view(state, "spectator")["places"][3]["holder"] == NOBODY


def test_a_hybrid_miss_still_marked_at_the_end_scores_for_nobody() -> None:
    # MW-H4: challenge-marker places count for nobody; only a both-wrong challenge gives the
    # board a place.
    sides = [{"name": "Ada", "mode": "standard"}, {"name": "Bo", "mode": "basic"}]
    state = ENGINE.new_game(setup(mode="hybrid", sides=sides, lightning_rounds=0))
    while state.phase is not Phase.OVER:
        if state.turn == 0:
            place = next(p for p in range(1, 26) if not state.places[p].occupied)
            state, _ = play(state, A.Claim(0, place), A.DeclineChallenge(1))
        else:
            state, _ = play(state, A.Answer(1, state.current_card != 2))
    assert state.places[2].crystals == (CHALLENGE,)
    breakdown = score(state)
    assert (breakdown.board, breakdown.board_places) == (0, 0)
    assert state.outcome is not None and state.outcome.winners != (BOARD,)
