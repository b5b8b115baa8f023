"""Game engines, found by name.

engine = find_engine("memwars")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.errors import UserError
from companion.games.contract import GameEngine


def _memwars() -> GameEngine[Any]:
    from companion.games.memwars.engine import MemWarsEngine

    return MemWarsEngine()


def _mem() -> GameEngine[Any]:
    from companion.games.mem.engine import MemEngine

    return MemEngine()


_FACTORIES: dict[str, Callable[[], GameEngine[Any]]] = {"memwars": _memwars, "mem": _mem}
_CACHE: dict[str, GameEngine[Any]] = {}


def register_engine(name: str, factory: Callable[[], GameEngine[Any]]) -> None:
    """Adds an engine under `name` (later games, and test doubles)."""
    _FACTORIES[name] = factory
    _CACHE.pop(name, None)


def engine_names() -> list[str]:
    return sorted(_FACTORIES)


def find_engine(name: str) -> GameEngine[Any]:
    """The engine for `name`; a UserError names the games known when there is none."""
    if name not in _FACTORIES:
        raise UserError(f"unknown game {name!r} (known: {', '.join(engine_names())})")
    if name not in _CACHE:
        _CACHE[name] = _FACTORIES[name]()
    return _CACHE[name]
