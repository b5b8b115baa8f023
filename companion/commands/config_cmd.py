"""`companion config path|show`: where the configuration lives and what is in force."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.config import default_config_path, load_config


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "config", help="show where the configuration file is and what it sets"
    )
    actions = parser.add_subparsers(dest="config_action", metavar="ACTION")
    actions.required = True
    path = actions.add_parser("path", help="print the configuration file's path")
    path.set_defaults(run=_path)
    show = actions.add_parser("show", help="print the configuration in force, as JSON")
    show.set_defaults(run=_show)


def _config_path(args: argparse.Namespace) -> Path:
    return Path(args.config) if args.config else default_config_path()


def _path(args: argparse.Namespace) -> int:
    print(_config_path(args))
    return 0


def _show(args: argparse.Namespace) -> int:
    config = load_config(_config_path(args))
    shown = config.to_dict()
    for section in shown.values():
        # Secrets stay in the file: showing the configuration must not print them.
        if isinstance(section, dict) and section.get("password"):
            section["password"] = "********"
    print(json.dumps({"source": config.source, **shown}, indent=2))
    return 0
