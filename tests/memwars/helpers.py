from __future__ import annotations

from typing import Any

from companion.games.memwars.engine import MemWarsEngine
from tests.support.play import kinds as kinds
from tests.support.play import player

ENGINE = MemWarsEngine()
play = player(ENGINE)


def setup(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "sides": [{"name": "Ada"}, {"name": "Bo"}],
        "quadrants": [1],
        "first_player": 0,
        "north": "top",
        "depth": 1,
        "seed": 1,
    }
    base.update(changes)
    return base


def competitive_in_play(**changes: Any) -> Any:
    """A competitive game past its counter placement: each side in turn lays its first
    counter left on the first free place of the quadrant, one counter a place."""
    from companion.games.memwars import actions as A
    from companion.games.memwars.state import Phase

    state = ENGINE.new_game(setup(topology={"kind": "competitive"}, **changes))
    while state.phase is not Phase.PLAY:
        expectation = ENGINE.expected(state)
        assert expectation is not None and expectation.actions[0] == "place_counter"
        side = expectation.actor
        value = state.sides[side].counters_left[0]
        place = next(p for p in expectation.places if not state.places[p].counters)
        state, _ = play(state, A.PlaceCounter(side, place, value))
    return state
