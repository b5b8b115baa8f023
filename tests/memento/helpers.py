from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.memento.engine import MementoEngine
from companion.games.memento.players import random_action as random_action
from companion.games.memento.setup import MARKERS
from companion.games.memento.state import EMPTY, State
from tests.support.play import kinds as kinds
from tests.support.play import player

ENGINE = MementoEngine()
play = player(ENGINE)
NAMES = ["Ada", "Bo", "Cy", "Di"]


def setup(players: int = 2, first: int = 0, **rules: Any) -> dict[str, Any]:
    """A setup with `first` starting and house rules given by key (dots as `__`)."""
    return {
        "sides": [{"name": n} for n in NAMES[:players]],
        "seed": 1,
        "first_player": first,
        "house_rules": {k.replace("__", "."): v for k, v in rules.items()},
    }


def position(
    figures: dict[int, tuple[int, int]],
    turn: int = 0,
    players: int = 2,
    pool: int | None = None,
    **rules: Any,
) -> State:
    """A game past its opening with `figures` ({point: (owner, stones)}) on the board, the
    pool and markers what the figures leave unless `pool` is given."""
    state = ENGINE.new_game(setup(players, turn, **rules))
    owners = [EMPTY] * len(state.owners)
    stones = [0] * len(state.owners)
    for point, (owner, count) in figures.items():
        owners[point], stones[point] = owner, count
    markers = tuple(MARKERS - owners.count(i) for i in range(players))
    on_board = sum(stones)
    return replace(
        state,
        owners=tuple(owners),
        stones=tuple(stones),
        pool=state.setup.stones - on_board if pool is None else pool,
        markers=markers,
        opened=(True,) * players,
        fielded=tuple(i in owners for i in range(players)),
    )
