"""The `companion` command. Each sub-command lives in companion/commands/ and registers here;
a game's own commands (`companion mem`, `companion simulate`) come with its plugin.

Errors a user can cause print one line and exit with code 2; nothing prints a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from companion import __version__
from companion.commands import COMMAND_MODULES
from companion.commands.game_commands import game_command_modules
from companion.config import require_config_file
from companion.errors import UserError
from companion.render import plain


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Referee, clock and live stream for physical board games.",
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    parser.add_argument(
        "--config",
        metavar="FILE",
        help="configuration file, which must exist (default: the user config directory, where "
        "a missing file means the defaults; see `companion config path`)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    for module in COMMAND_MODULES:
        module.register(commands)
    for _game, module in game_command_modules():
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse already printed its message
        return int(stop.code) if isinstance(stop.code, int) else 2
    try:
        if args.config:
            require_config_file(Path(args.config))
        result: int = args.run(args)
        return result
    except UserError as err:
        # One line, whatever a file name or a file's text put in the message.
        print(f"companion: error: {plain(err, one_line=True)}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt:
        print("companion: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
