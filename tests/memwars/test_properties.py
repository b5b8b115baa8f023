"""Invariants over random legal games in every mode (hypothesis)."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.contract import IllegalAction
from companion.games.memwars import actions as A
from companion.games.memwars.players import random_legal_action
from companion.games.memwars.state import CHALLENGE, State

from .helpers import ENGINE

MODES = ["basic", "standard", "hybrid", "study", "review"]


def game_setup(
    mode: str, seed: int, sides: int, quadrants: list[int], rules: dict[str, Any], topology: str
) -> dict[str, Any]:
    names = ["Ada", "Bo", "Cy", "Di"]
    if mode in ("study", "review"):
        side_list: list[dict[str, Any]] = [{"name": "Ada"}]
        topology = "standard" if topology == "competitive" else topology
    else:
        side_list = [{"name": n} for n in names[:sides]]
        if mode == "hybrid":
            for i, side in enumerate(side_list):
                side["mode"] = "standard" if i % 2 == 0 else "basic"
    return {
        "sides": side_list,
        "mode": mode,
        "quadrants": quadrants,
        "seed": seed,
        "depth": "roll",
        "max_depth": 4,
        "timer": True,
        "lightning_rounds": 3,
        "topology": {"kind": topology},
        "house_rules": rules,
        "path": random.Random(seed).choice(["none", "forward", "backward", "random"]),
    }


RULE_CHOICES = st.fixed_dictionaries(
    {},
    optional={
        "mw.giveUp.points": st.sampled_from(["CRYSTALS_AFTER_REMOVAL", "ALL_PIECES"]),
        "mw.forsake.challengePiece": st.sampled_from(["STAYS_ON_PLACE", "TO_ON_TURN_PLAYER_HAND"]),
        "mw.maintain.challengePiece": st.sampled_from(["STAYS_ON_PLACE", "RETURN_OR_POOL"]),
        "mw.pool.emptyReplacement": st.sampled_from(["NONE", "VIRTUAL"]),
        "mw.challenge.offer": st.sampled_from(["NEXT_ELIGIBLE_ONLY", "ROUND_ROBIN"]),
        "mw.basic.challengeMarkers": st.sampled_from(["NEUTRAL_UNLIMITED", "FROM_OWN_13"]),
        "mw.lightning.correct": st.sampled_from(["REPLACE_MARKER", "ADD_PIECE"]),
        "mw.lightning.answerer": st.sampled_from(["ROTATION_CONTINUES", "ORIGINAL_MISSER"]),
        "mw.giveUp.onTurnPiece": st.sampled_from(
            ["RETURN_TO_SUPPLY", "TO_CHALLENGER", "TO_CHALLENGER_UNSCORED"]
        ),
        "mw.standard.allowPass": st.booleans(),
        "mw.review.loop": st.sampled_from(["KEEP_BOARD", "CLEAR_BOARD"]),
        "mw.challengePiecesPerSide": st.sampled_from(["CAPPED", "VIRTUAL_POOL"]),
        "mw.basic.mustLocatePlace": st.booleans(),
    },
)

GAMES = st.builds(
    game_setup,
    mode=st.sampled_from(MODES),
    seed=st.integers(0, 10**6),
    sides=st.integers(2, 4),
    quadrants=st.lists(st.integers(1, 4), min_size=1, max_size=2, unique=True),
    rules=RULE_CHOICES,
    topology=st.sampled_from(["flat", "standard", "competitive"]),
)


def crystals(state: State) -> tuple[list[int], int]:
    """Each colour's 100 and the box's 50 challenge pieces, wherever they are now."""
    n = len(state.sides)
    colours = [
        s.supply - s.virtual_pieces + s.board_retained + len(s.diamonds) for s in state.sides
    ]
    for side in state.sides:
        for capture in side.captures:
            colours[capture.colour] += 1
    challenge = state.pool + sum(s.challenge_pieces for s in state.sides)
    challenge -= state.virtual_challenge_pieces
    for place in state.places[1:]:
        for crystal in place.crystals:
            if crystal == CHALLENGE:
                challenge += 1
            else:
                colours[crystal] += 1
    return colours[:n], challenge


def random_game(setup: dict[str, Any], steps: int = 800) -> list[tuple[State, Any]]:
    rng = random.Random(setup["seed"])
    state = ENGINE.new_game(setup)
    history: list[tuple[State, Any]] = [(state, None)]
    for _ in range(steps):
        expectation = ENGINE.expected(state)
        if expectation is None:
            break
        action = random_legal_action(state, expectation, rng)
        # Time-outs are legal but would cut most games short; take few of them.
        if action.kind == "time_expired" and rng.random() < 0.9:
            continue
        state, _ = ENGINE.apply(state, action)
        history.append((state, action))
    return history


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(GAMES)
def test_crystals_are_conserved(setup: dict[str, Any]) -> None:
    for state, _ in random_game(setup):
        colours, challenge = crystals(state)
        assert colours == [100] * len(state.sides)
        assert challenge == 50


@SETTINGS
@given(GAMES)
def test_replay_is_deterministic_and_round_trips(setup: dict[str, Any]) -> None:
    history = random_game(setup)
    actions = [a for _, a in history[1:]]
    state = ENGINE.new_game(setup)
    for action in actions:
        data = json.loads(json.dumps(ENGINE.action_to_dict(action)))
        state, _ = ENGINE.apply(state, ENGINE.action_from_dict(data))
    final = history[-1][0]
    assert state == final
    assert ENGINE.summary(state) == ENGINE.summary(final)
    restored = ENGINE.state_from_dict(json.loads(json.dumps(ENGINE.state_to_dict(final))))
    assert restored == final
    assert ENGINE.summary(restored) == ENGINE.summary(final)


ANY_ACTION = st.one_of(
    st.builds(A.Claim, st.integers(-1, 4), st.integers(0, 101)),
    st.builds(A.Challenge, st.integers(0, 3), st.booleans()),
    st.builds(A.DeclineChallenge, st.integers(0, 3)),
    st.builds(A.GiveUp, st.integers(0, 3)),
    st.builds(A.Contest, st.integers(0, 3)),
    st.builds(A.Forsake, st.integers(0, 3)),
    st.builds(A.Maintain, st.integers(0, 3)),
    st.builds(A.Judge, st.booleans(), st.booleans()),
    st.builds(A.Answer, st.integers(0, 3), st.booleans(), st.integers(0, 100)),
    st.builds(A.PlaceCounter, st.integers(0, 3), st.integers(0, 101), st.integers(0, 6)),
    st.builds(A.OrientBoard, st.integers(0, 3), st.sampled_from(["top", "north", "left"])),
    st.builds(A.StudyCard, st.integers(0, 3)),
    st.builds(A.Pass, st.integers(0, 3)),
    st.builds(A.TimeExpired, st.integers(0, 3)),
    st.just(A.RollForFirst()),
    st.just(A.RollDepth()),
)


@SETTINGS
@given(GAMES, st.lists(ANY_ACTION, min_size=1, max_size=30), st.integers(0, 400))
def test_an_illegal_action_never_changes_state(
    setup: dict[str, Any], attempts: list[Any], cut: int
) -> None:
    history = random_game(setup)
    state = history[min(cut, len(history) - 1)][0]
    before = ENGINE.state_to_dict(state)
    for action in attempts:
        try:
            ENGINE.apply(state, action)
        except IllegalAction as err:
            assert err.rule.startswith("MW-")
            assert str(err)
        assert ENGINE.state_to_dict(state) == before


@SETTINGS
@given(GAMES)
def test_spectators_never_see_face_down_counters(setup: dict[str, Any]) -> None:
    for state, _ in random_game(setup)[::7]:
        view = ENGINE.view(state, "spectator")
        text = json.dumps(view)
        assert view["deck"] is None
        for place in view["places"]:
            for counter in place["counters"]:
                assert counter["face_up"] or counter["value"] is None
        for side in view["sides"]:
            assert side["counter_values_in_hand"] is None
        assert "counters_left" not in text


@SETTINGS
@given(GAMES)
def test_scores_explain_every_point(setup: dict[str, Any]) -> None:
    final = random_game(setup)[-1][0]
    for side in ENGINE.summary(final)["scores"]["sides"]:
        parts = (
            side["place_points"]
            + side["counter_points"]
            + side["quadrant_bonus"]
            + side["capture_points"]
            + side["board_penalty"]
            + side["pattern_points"]
        )
        assert parts == side["total"]
