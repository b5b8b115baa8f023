"""Games, found by name: each is a plugin (companion/games/plugin.py) in its own package.

plugin = find_plugin("memwars")
engine = find_engine("memwars")          # the same as find_plugin("memwars").engine
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from companion.errors import UserError
from companion.games.contract import GameEngine
from companion.games.plugin import GamePlugin

_PLUGINS: dict[str, str] = {
    "memwars": "companion.games.memwars.plugin",
    "mem": "companion.games.mem.plugin",
    "memento": "companion.games.memento.plugin",
    "mnemo": "companion.games.mnemo.plugin",
}
"""Each game's name and the module whose PLUGIN it is: the one line a new game adds."""

_ENGINES: dict[str, Callable[[], GameEngine[Any]]] = {}
"""Engines without a plugin: test doubles."""
_CACHE: dict[str, GameEngine[Any]] = {}


def register_engine(name: str, factory: Callable[[], GameEngine[Any]]) -> None:
    """Adds a bare engine under `name` (test doubles; a game adds a plugin instead)."""
    _ENGINES[name] = factory
    _CACHE.pop(name, None)


def plugin_names() -> list[str]:
    """The games with a plugin, in the order they are registered (the flagship first): what
    the UI, the commands and the camera offer."""
    return list(_PLUGINS)


def engine_names() -> list[str]:
    return sorted({*_PLUGINS, *_ENGINES})


def find_plugin(name: str) -> GamePlugin:
    """The plugin of game `name`; a UserError names the games known when there is none."""
    module = _PLUGINS.get(name)
    if module is None:
        raise UserError(f"unknown game {name!r} (known: {', '.join(plugin_names())})")
    plugin: GamePlugin = importlib.import_module(module).PLUGIN
    return plugin


def find_engine(name: str) -> GameEngine[Any]:
    """The engine for `name`; a UserError names the games known when there is none."""
    if name not in _CACHE:
        if name in _ENGINES:
            _CACHE[name] = _ENGINES[name]()
        elif name in _PLUGINS:
            _CACHE[name] = find_plugin(name).engine
        else:
            raise UserError(f"unknown game {name!r} (known: {', '.join(engine_names())})")
    return _CACHE[name]
