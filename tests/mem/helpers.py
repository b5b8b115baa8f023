from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.mem.engine import MemEngine
from companion.games.mem.patterns import Cell
from companion.games.mem.players import random_action as random_action
from companion.games.mem.state import Side, State
from tests.support.play import kinds as kinds
from tests.support.play import player

ENGINE = MemEngine()
play = player(ENGINE)
TWO = [{"name": "Ada"}, {"name": "Bo"}]


def setup(game: str = "mem", **changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game": game,
        "sides": [{"name": "Ada"}] if game == "solitaire" else TWO,
        "seed": 1,
    }
    base.update(changes)
    return base


def agreed(game: str, board: str, first: int = 0, **rules: Any) -> dict[str, Any]:
    """A setup with a given board and first player, and house rules by key."""
    house = {"mem.firstPlayer": "AGREED", **{k.replace("__", "."): v for k, v in rules.items()}}
    out = setup(game, board=board, house_rules=house)
    if game == "solitaire":
        del out["house_rules"]["mem.firstPlayer"]
    else:
        out["first_player"] = first
    return out


def with_patterns(
    data: dict[str, Any],
    first: tuple[Cell, ...],
    second: tuple[Cell, ...] = (),
    lock: tuple[int, int] | None = None,
    turn: int = 0,
) -> State:
    """A game from `data` with patterns already built (their stones come from the box, not
    the board), `first` locked at `lock`, `turn` on turn."""
    state = ENGINE.new_game(data)
    sides = (Side(pattern=first, lock=lock), Side(pattern=second))
    return replace(state, sides=sides[: len(state.sides)], turn=turn)
