"""Sub-commands of `companion`, one module each; every module has `register(subparsers)`."""

from __future__ import annotations

from types import ModuleType

from companion.commands import config_cmd

COMMAND_MODULES: list[ModuleType] = [config_cmd]
