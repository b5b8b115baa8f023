"""`companion rules GAME`: every house rule of a game, its default and the question it
settles."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.table import Table

from companion.games import find_plugin, plugin_names


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "rules", help="print a game's house rules with their defaults"
    )
    parser.add_argument("game", choices=plugin_names())
    parser.add_argument("--json", action="store_true", help="print them as JSON")
    parser.set_defaults(run=run)


def _text(value: Any) -> str:
    return json.dumps(value)


def run(args: argparse.Namespace) -> int:
    plugin = find_plugin(args.game)
    rules = plugin.house_rules
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "key": r.key,
                        "settles": r.settles,
                        "default": r.default,
                        "alternatives": list(r.alternatives),
                        "meaning": r.meaning,
                    }
                    for r in rules
                ],
                indent=2,
            )
        )
        return 0
    table = Table(
        title=f'{plugin.title} house rules (set them in a game\'s setup under "house_rules")',
        show_lines=True,
    )
    table.add_column("Key", no_wrap=True)
    table.add_column("Settles")
    table.add_column("Default")
    table.add_column("Alternatives")
    table.add_column("Meaning (default / alternatives)")
    for rule in rules:
        table.add_row(
            rule.key,
            rule.settles,
            _text(rule.default),
            ", ".join(_text(a) for a in rule.alternatives) or rule.span,
            rule.meaning,
        )
    Console(highlight=False, width=160).print(table)
    return 0
