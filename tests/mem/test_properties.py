"""Invariants over random legal games of every variant and house rule (hypothesis):
conservation of stones, live patterns, codecs that round-trip, views that are JSON."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.mem.legal import is_dead

from .helpers import ENGINE, random_action, setup

RULES = st.fixed_dictionaries(
    {},
    optional={
        "mem.board.align": st.sampled_from(["CENTRED", "FLUSH_LEFT"]),
        "mem.orientationFrame": st.sampled_from(["BOARD", "OWNER"]),
        "mem.colourMapPersistent": st.booleans(),
        "mem.isolation.edge": st.sampled_from(["EDGE_ISOLATES", "EMPTY_SQUARES_ONLY"]),
        "mem.deadPatternExempt": st.booleans(),
        "mini.pairSelection": st.sampled_from(["PAIR", "FIRST_THEN_UNDO"]),
        "mini.cannotMove": st.sampled_from(["FULL_TURN", "ANY_MOVE"]),
        "mem.block.scope": st.sampled_from(["GROUP_LOCK", "STONE_THIS_MOVE"]),
        "mem.block.vsCapture": st.sampled_from(["MOVES_ONLY", "PROTECTS_GROUP"]),
        "mem.block.afterBlock": st.sampled_from(["MUST_MOVE_OTHER", "MAY_PASS"]),
        "mem.tie": st.sampled_from(["DRAW", "MORE_CAPTURED"]),
        "mem.turn.captureThenMove": st.booleans(),
        "mem.variants.captures": st.booleans(),
    },
)


def _round_trip(state: Any) -> None:
    data = json.loads(json.dumps(ENGINE.state_to_dict(state)))
    assert ENGINE.state_from_dict(data) == state


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["solitaire", "mini", "mem"]), st.integers(0, 10**6), RULES)
def test_random_games_keep_the_invariants(game: str, seed: int, rules: dict[str, Any]) -> None:
    state = ENGINE.new_game(setup(game, seed=seed, house_rules=rules))
    rng = random.Random(seed)
    died: set[int] = set()
    steps = 0
    while not ENGINE.is_over(state):
        expectation = ENGINE.expected(state)
        assert expectation is not None
        action = random_action(state, rng)
        assert action.kind in expectation.actions
        encoded = json.loads(json.dumps(ENGINE.action_to_dict(action)))
        assert ENGINE.action_from_dict(encoded) == action
        state, events = ENGINE.apply(state, action)
        for event in events:
            data = ENGINE.event_to_dict(event)
            json.dumps(data)
            if event.kind == "pattern_died":
                died.add(data["side"])
        stones = sum(1 for c in state.board if c)
        held = sum(len(s.pattern) + s.pile for s in state.sides)
        assert stones + held == 32
        for side in range(len(state.sides)):
            # A pattern dies only when a capture takes its last match (MEM-R3, MEM-R10.2).
            assert not is_dead(state, side) or side in died
        steps += 1
        if steps % 7 == 0:
            _round_trip(state)
            json.dumps(ENGINE.view(state, "spectator"))
        assert steps < 200
    _round_trip(state)
    assert ENGINE.expected(state) is None
    summary = ENGINE.summary(state)
    assert summary["phase"] == "over"
    totals = [s["total"] for s in summary["scores"]["sides"]]
    assert totals == list(state.outcome.scores)  # type: ignore[union-attr]
    if game != "solitaire" and summary["outcome"]["winners"]:
        assert totals[summary["outcome"]["winners"][0]] == max(totals)
