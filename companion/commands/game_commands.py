"""The games' own command modules (`GamePlugin.commands`), imported when the command line is
built: each may add top-level commands (`register`), printables (`register_print`) and a
terminal game for `companion run` (`add_run_options`, `run_game`)."""

from __future__ import annotations

import importlib
from types import ModuleType

from companion.games import find_plugin, plugin_names


def game_command_modules() -> list[tuple[str, ModuleType]]:
    """(game, module) for every command module of every game, as registered."""
    return [
        (game, importlib.import_module(name))
        for game in plugin_names()
        for name in find_plugin(game).commands
    ]
