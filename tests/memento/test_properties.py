"""Invariants over random legal games under every house rule combination (hypothesis):
stones and markers conserved, states round-trip through JSON, refused actions change
nothing, and replaying the same actions gives the same state."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.contract import Action, IllegalAction
from companion.games.memento import actions as A
from companion.games.memento.plugin import PLUGIN
from companion.games.memento.rules import HOUSE_RULES
from companion.games.memento.setup import MARKERS

from .helpers import ENGINE, NAMES, random_action

RULES = st.fixed_dictionaries(
    {}, optional={rule.key: st.sampled_from(rule.choices) for rule in HOUSE_RULES}
)
STEPS = 60


def _junk(state: Any, rng: random.Random) -> Action:
    """An action picked without regard to the rules (most are illegal)."""
    size = len(state.owners)
    side = rng.randrange(len(state.markers))
    point = rng.randrange(size + 2)
    return rng.choice(
        [
            A.Move(side, point, rng.randrange(size + 2)),
            A.BringIn(side, point, rng.randrange(size)),
            A.Turn(side, rng.randrange(5), rng.choice(["clockwise", "flip1", "up"])),
            A.Split(side, point, ((rng.randrange(size), 1), (rng.randrange(size), 1))),
            A.Place(side, point),
            A.Pass(side),
        ]
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(0, 10**6), RULES)
def test_random_games_keep_the_invariants(players: int, seed: int, rules: dict[str, Any]) -> None:
    data = {"sides": [{"name": n} for n in NAMES[:players]], "seed": seed, "house_rules": rules}
    state = ENGINE.new_game(data)
    rng = random.Random(seed)
    played: list[Action] = []
    total = state.pool
    for step in range(STEPS):
        if ENGINE.is_over(state):
            break
        junk = _junk(state, rng)
        try:
            _after, _ = ENGINE.apply(state, junk)
        except IllegalAction as err:
            assert err.rule.startswith("ML-") and err.explanation
        else:
            assert junk.kind in ENGINE.expected(state).actions  # type: ignore[union-attr]
        action = random_action(state, rng)
        encoded = json.loads(json.dumps(ENGINE.action_to_dict(action)))
        assert ENGINE.action_from_dict(encoded) == action
        before = ENGINE.state_to_dict(state)
        state, events = ENGINE.apply(state, action)
        played.append(action)
        for event in events:
            json.dumps(ENGINE.event_to_dict(event))
        assert state.pool + sum(state.stones) == total
        assert all(0 <= s <= 3 for s in state.stones)
        for side in range(players):
            assert state.markers[side] + state.owners.count(side) == MARKERS
        if step % 5 == 0:
            assert ENGINE.state_to_dict(ENGINE.state_from_dict(before)) == before
            assert ENGINE.state_from_dict(json.loads(json.dumps(before))) is not None
            json.dumps(ENGINE.view(state, "spectator"))
    round_trip = ENGINE.state_from_dict(json.loads(json.dumps(ENGINE.state_to_dict(state))))
    assert round_trip == state
    replay = ENGINE.new_game(data)
    for action in played:
        replay, _ = ENGINE.apply(replay, action)
    assert replay == state
    json.dumps(ENGINE.summary(state))


@pytest.mark.parametrize("setup", PLUGIN.example_setups())
def test_refused_actions_leave_the_state_as_it_was(setup: dict[str, Any]) -> None:
    state = ENGINE.new_game(setup)
    rng = random.Random(5)
    for _ in range(40):
        if ENGINE.is_over(state):
            break
        snapshot = ENGINE.state_to_dict(state)
        for _ in range(5):
            with contextlib.suppress(IllegalAction):
                ENGINE.apply(state, _junk(state, rng))
            assert ENGINE.state_to_dict(state) == snapshot
        state, _ = ENGINE.apply(state, random_action(state, rng))
