from __future__ import annotations

from typing import Any

from companion.games.contract import Action, Event
from companion.games.memwars.engine import MemWarsEngine
from companion.games.memwars.state import State

ENGINE = MemWarsEngine()


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


def play(state: State, *actions: Action) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for action in actions:
        state, happened = ENGINE.apply(state, action)
        events.extend(happened)
    return state, events


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]
