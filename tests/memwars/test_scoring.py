"""The place-score function, quadrant bonuses and end-of-game scoring under house rules."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.contract import Action
from companion.games.memwars import actions as A
from companion.games.memwars.scoring import SideScore, _leaders, base_value, place_score, score
from companion.games.memwars.setup import parse_setup
from companion.games.memwars.state import BOARD, CHALLENGE, Counter, Place

from .helpers import ENGINE, play, setup


@pytest.mark.parametrize(
    ("stacking", "place", "expected"),
    [
        ("MULTIPLY", 13, 6),
        ("MAX", 13, 3),
        ("ADD", 13, 4),
        ("MULTIPLY", 3, 2),
        ("ADD", 11, 3),
        ("MULTIPLY", 1, 1),
    ],
)
def test_multipliers_stack_by_house_rule(stacking: str, place: int, expected: int) -> None:
    s = parse_setup(
        setup(
            multipliers={"centre_place": 2, "centre_quincunx": 3},
            house_rules={"mw.multipliers.stacking": stacking},
        )
    )
    assert base_value(s, place) == expected


def _place(crystals: tuple[int, ...], *values: int) -> Place:
    return Place(crystals=crystals, counters=tuple(Counter(0, v, True) for v in values))


@pytest.mark.parametrize(
    ("changes", "place", "expected"),
    [
        ({}, _place((0,)), 1),
        ({}, _place((0, CHALLENGE)), 2),
        ({"house_rules": {"mw.placeScore.crystalCount": False}}, _place((0, CHALLENGE)), 1),
        ({"topology": {"kind": "standard"}}, _place((0,), 5), 6),
        (
            {"topology": {"kind": "standard"}, "house_rules": {"mw.topology.takeMode": "REPLACE"}},
            _place((0,), 5),
            5,
        ),
        (
            {"topology": {"kind": "standard", "scoring": "multiply"}},
            _place((0, CHALLENGE), 3, 2),
            10,
        ),
        (
            {
                "topology": {"kind": "standard", "scoring": "multiply"},
                "house_rules": {"mw.topology.multiplyTwoCounters": "PRODUCT"},
            },
            _place((0, CHALLENGE), 3, 2),
            12,
        ),
    ],
)
def test_place_score(changes: dict[str, Any], place: Place, expected: int) -> None:
    assert place_score(parse_setup(setup(**changes)), 2, place) == expected


def test_quadrant_tie_rules() -> None:
    # Claims alternate; turn order decides who takes which place, so read totals off the
    # results rather than assuming them.
    state = ENGINE.new_game(setup())
    for place in range(1, 26):
        side = state.turn
        if place == 1:
            state, _ = play(
                state,
                A.Claim(0, 1),
                A.Challenge(1),
                A.Contest(0),
                A.Maintain(1),
                A.Judge(False, False),
            )
            continue
        state, _ = play(state, A.Claim(side, place), A.DeclineChallenge(1 - side))
    result = state.quadrant_results[0]
    assert result.totals == (12, 12)
    assert result.winners == () and result.rank == -1
    for rule, winners, rank in (("NO_WINNER_RANK_CONSUMED", (), 0), ("SHARED", (0, 1), 0)):
        other = ENGINE.new_game(setup(house_rules={"mw.quadrant.tie": rule}))
        for action in _replay_actions(state):
            other, _ = ENGINE.apply(other, action)
        got = other.quadrant_results[0]
        assert (got.winners, got.rank) == (winners, rank)
        if rule == "SHARED":
            assert [s.quadrant_bonus for s in score(other).sides] == [5, 5]


def _replay_actions(state: Any) -> list[Action]:
    actions: list[Action] = [
        A.Claim(0, 1),
        A.Challenge(1),
        A.Contest(0),
        A.Maintain(1),
        A.Judge(False, False),
    ]
    side = 1
    for place in range(2, 26):
        actions += [A.Claim(side, place), A.DeclineChallenge(1 - side)]
        side = 1 - side
    return actions


@pytest.mark.parametrize("scope", ["ALL_2_2_CAPTURES", "CHALLENGER_WINS_ONLY"])
def test_give_up_to_challenger_captures_and_earns_plus_2(scope: str) -> None:
    # MW-A11 (b): the challenger captures the piece, "which would earn +2 at the end".
    rules = {"mw.giveUp.onTurnPiece": "TO_CHALLENGER", "mw.final.plus2Scope": scope}
    state, _ = play(
        ENGINE.new_game(setup(house_rules=rules)), A.Claim(0, 1), A.Challenge(1), A.GiveUp(0)
    )
    assert [c.rule for c in state.sides[1].captures] == ["give_up"]
    assert score(state).sides[1].captures == 1
    assert score(state).sides[1].capture_points == 2


def test_give_up_to_challenger_unscored_captures_but_earns_nothing() -> None:
    # The literal final scoring: +2 only for rule 2.2 captures, and a give-up is rule 2.1.
    rules = {"mw.giveUp.onTurnPiece": "TO_CHALLENGER_UNSCORED"}
    state, _ = play(
        ENGINE.new_game(setup(house_rules=rules)), A.Claim(0, 1), A.Challenge(1), A.GiveUp(0)
    )
    assert [c.rule for c in state.sides[1].captures] == ["give_up"]
    assert state.sides[0].supply == 99
    assert score(state).sides[1].capture_points == 0


def _claim_every_place(state: Any, places: range) -> Any:
    for place in places:
        side = state.turn
        state, _ = play(state, A.Claim(side, place), A.DeclineChallenge(1 - side))
    return state


def test_first_5_last_1_gives_a_lone_quadrant_won_the_last_bonus() -> None:
    # MW-A26 (b): "The last quadrant won in the game always gets 1", even when it is also
    # the first.
    rules = {"mw.quadrant.bonusLadder": "FIRST_5_LAST_1"}
    state = _claim_every_place(ENGINE.new_game(setup(house_rules=rules)), range(1, 26))
    assert state.outcome is not None
    assert [s.quadrant_bonus for s in score(state).sides] == [1, 0]
    ordinal = _claim_every_place(ENGINE.new_game(setup()), range(1, 26))
    assert [s.quadrant_bonus for s in score(ordinal).sides] == [5, 0]


def test_first_5_last_1_when_the_only_quadrant_won_comes_before_a_tie() -> None:
    # Two quadrants: Ada wins the first 13-12, the second ends level (no winner, no rank).
    rules = {"mw.quadrant.bonusLadder": "FIRST_5_LAST_1"}
    state = _claim_every_place(
        ENGINE.new_game(setup(quadrants=[1, 2], house_rules=rules)), range(1, 26)
    )
    assert [s.quadrant_bonus for s in score(state).sides] == [5, 0]  # not over yet
    state, _ = play(
        state, A.Claim(1, 26), A.Challenge(0), A.Contest(1), A.Maintain(0), A.Judge(False, False)
    )
    state = _claim_every_place(state, range(27, 51))
    assert state.outcome is not None
    results = state.quadrant_results
    assert [(r.winners, r.rank) for r in results] == [((0,), 0), ((), -1)]
    assert [s.quadrant_bonus for s in score(state).sides] == [1, 0]


def test_empty_pool_means_no_replacement_unless_virtual() -> None:
    sides = [{"name": n} for n in ("Ada", "Bo", "Cy", "Di")]
    state = ENGINE.new_game(setup(sides=sides, quadrants=[1, 2]))
    assert state.pool == 2 and state.sides[0].challenge_pieces == 12
    events: list[Any] = []
    for place in range(1, 4):
        claimant = state.turn
        challenger = state.pending.offered_to if state.pending else state.next_side(claimant)
        state, happened = play(
            state, A.Claim(claimant, place), A.Challenge(challenger), A.GiveUp(claimant)
        )
        events += happened
    assert [e.kind for e in events].count("replacement_unavailable") == 1
    assert state.pool == 0


def test_minus3_scope_and_board_score_modes() -> None:
    base = [A.Claim(0, 1), A.Challenge(1), A.Contest(0), A.Maintain(1), A.Judge(False, False)]
    for rules, minus, board in (
        ({}, (-3, -3), 1),
        ({"mw.final.minus3Scope": "ALL_BOARD_PIECES"}, (-6, -6), 1),
        ({"mw.board.scoreMode": "ZERO"}, (-3, -3), 0),
        ({"mw.board.scoreMode": "MIRROR"}, (-3, -3), 5),
    ):
        state, _ = play(ENGINE.new_game(setup(house_rules=rules)), *base)
        breakdown = score(state)
        assert tuple(s.board_penalty for s in breakdown.sides) == minus
        assert breakdown.board == board


def _side(side: int, total: int, won: tuple[int, ...], captures: int) -> SideScore:
    return SideScore(
        side=side,
        places=0,
        place_points=total,
        counter_points=0,
        quadrant_bonus=0,
        quadrants_won=won,
        captures=captures,
        capture_points=0,
        board_pieces=0,
        board_penalty=0,
        pattern_points=0,
        patterns=(),
        total=total,
    )


@pytest.mark.parametrize(
    ("rule", "sides", "board", "leaders"),
    [
        ("SHARED", [_side(0, 10, (1,), 0), _side(1, 10, (), 0)], 0, (0, 1)),
        ("TIEBREAK", [_side(0, 10, (1,), 0), _side(1, 10, (), 3)], 0, (0,)),
        ("TIEBREAK", [_side(0, 10, (1,), 0), _side(1, 10, (2,), 3)], 0, (1,)),
        ("TIEBREAK", [_side(0, 10, (1,), 2), _side(1, 10, (2,), 2)], 0, (0, 1)),
        ("SHARED", [_side(0, 10, (), 0), _side(1, 9, (), 0)], 10, (0,)),
        ("SHARED", [_side(0, 10, (), 0), _side(1, 9, (), 0)], 11, (BOARD,)),
    ],
)
def test_winners(rule: str, sides: list[SideScore], board: int, leaders: tuple[int, ...]) -> None:
    state = ENGINE.new_game(setup(house_rules={"mw.final.playerTie": rule}))
    assert _leaders(state, sides, board, competitive=True) == leaders


def test_a_given_up_place_scores_per_piece_even_without_crystal_counting() -> None:
    rules = {"mw.placeScore.crystalCount": False}
    state, _ = play(
        ENGINE.new_game(setup(house_rules=rules)),
        A.Claim(0, 1),
        A.Challenge(1),
        A.GiveUp(0),
        A.Claim(1, 2),
        A.Challenge(0),
        A.Contest(1),
        A.Forsake(0),
    )
    points = dict((p, pts) for p, pts, _ in score(state).sides[1].place_scores)
    assert points == {1: 2, 2: 1}
