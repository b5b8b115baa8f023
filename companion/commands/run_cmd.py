"""`companion run`: the main job (companion/launch/main.py), which `make run` starts.

With a screen, it is the touchscreen app on a simulated table: crystals laid by tapping,
filmed by the virtual camera and read back by the real board reader, against a simulated
opponent if you like. Without one (a terminal, `--no-app`), it is a whole refereed game
between simulated players, on simulated twins of the hardware, streamed live: the card
reader is an emulated module behind a pseudo-terminal, read by the real reader and checked
by the session; a virtual camera films every change to the board and the real board reader
reads it back, checked against the rules; the game goes out over MQTT (to the configured
broker, or to an embedded one started here) and the display page is served for anyone to
watch.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.commands.game_commands import game_command_modules
from companion.commands.options import add_local_option
from companion.errors import UserError
from companion.launch.main import MainOptions, TerminalGame, run_main
from companion.streaming import DISPLAY_PORT
from companion.table.setups import find_setup


def terminal_games() -> dict[str, Any]:
    """The games that bring a terminal game, by name, as registered (the flagship first):
    their command modules with `add_run_options(parser)` and `run_game(args)`."""
    return {game: module for game, module in game_command_modules() if hasattr(module, "run_game")}


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "run", help="the main job: for now a simulated game on simulated hardware, streamed"
    )
    parser.add_argument(
        "--simulate",
        action="store_true",
        help="use simulated twins of every device (the only choice for now)",
    )
    parser.add_argument(
        "--app",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="open the touchscreen app and play on a simulated table (default: when there "
        "is a screen: a desktop, or the Pi's display); --no-app plays a narrated "
        "game between simulated players in the terminal",
    )
    games = terminal_games()
    parser.add_argument(
        "--game",
        choices=tuple(games),
        default=next(iter(games), None),
        help="the game played in the terminal (default: %(default)s)",
    )
    for module in games.values():
        module.add_run_options(parser)
    parser.add_argument(
        "--no-stream",
        action="store_true",
        help="do not stream the game (no broker, no display page)",
    )
    add_local_option(parser)
    parser.add_argument(
        "--display-port",
        type=int,
        default=DISPLAY_PORT,
        help="where the display page is served (default: %(default)s)",
    )
    parser.add_argument(
        "--linger",
        type=float,
        default=None,
        metavar="S",
        help="keep the stream and page up S seconds after the game (default: "
        "until Ctrl-C when run from a terminal, none otherwise)",
    )
    parser.add_argument(
        "--setup",
        metavar="NAME|FILE",
        help="a named setup or a setup file: its game is played with its options and house "
        "rules (in the app, New game opens with it)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    games = terminal_games()
    setup_name = args.setup
    args.setup = find_setup(setup_name) if setup_name else None
    if args.setup is not None:
        args.game = args.setup.game
    if args.game not in games and args.setup is None:
        raise UserError("no game brings a terminal game to play")
    # A setup of a game with no terminal game is played in the app only.
    game: TerminalGame | None = games[args.game].run_game(args) if args.game in games else None
    return run_main(
        MainOptions(
            config=Path(args.config) if args.config else None,
            app=args.app,
            stream=not args.no_stream,
            local=args.local,
            display_port=args.display_port,
            linger=args.linger,
            game=game,
            setup=setup_name,
        )
    )
