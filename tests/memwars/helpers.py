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
