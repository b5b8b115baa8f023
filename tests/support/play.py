"""Playing actions through an engine in tests, whatever the game.

Each game's tests/<game>/helpers.py makes its `play` here, so that every game's tests play
the same way:

    play = player(MemWarsEngine())
    state, events = play(state, first_action, second_action)
    kinds(events)       # ['first_player_rolled', ...]
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from companion.games.contract import Action, Event, GameEngine

S = TypeVar("S")


class Play(Protocol[S]):
    def __call__(self, state: S, *actions: Action) -> tuple[S, list[Event]]: ...


def player(engine: GameEngine[S]) -> Play[S]:
    """`play(state, *actions)`: the state after the actions, one after another, through
    `engine`, and every event they caused, in order."""

    def play(state: S, *actions: Action) -> tuple[S, list[Event]]:
        events: list[Event] = []
        for action in actions:
            state, happened = engine.apply(state, action)
            events.extend(happened)
        return state, events

    return play


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]
