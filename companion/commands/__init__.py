"""Sub-commands of `companion`, one module each; every module has `register(subparsers)`.
A game adds commands of its own through its plugin (`commands`)."""

from __future__ import annotations

from types import ModuleType

from companion.commands import (
    app_cmd,
    broker_cmd,
    clock_cmd,
    config_cmd,
    deck_cmd,
    display_cmd,
    doctor_cmd,
    games_cmd,
    print_cmd,
    reader_cmd,
    remote_cmd,
    replay_cmd,
    rules_cmd,
    run_cmd,
    setup_cmd,
    tournament_cmd,
    vision_cmd,
)

COMMAND_MODULES: list[ModuleType] = [
    app_cmd,
    broker_cmd,
    clock_cmd,
    config_cmd,
    deck_cmd,
    display_cmd,
    doctor_cmd,
    games_cmd,
    print_cmd,
    reader_cmd,
    remote_cmd,
    replay_cmd,
    rules_cmd,
    run_cmd,
    setup_cmd,
    tournament_cmd,
    vision_cmd,
]
