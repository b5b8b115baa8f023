"""`companion remote host|join`: the touchscreen app playing one game with another companion
over a broker both reach (docs/remote-play.md).

    companion remote host ada-basil --sides 0 --setup quick   # New game, then shared
    companion remote host ada-basil --sides 0 --resume 12     # a game taken up again
    companion remote join ada-basil --broker mqtts://broker.example:8883

The broker is the config's [broker] (its URL, login and TLS files) unless `--broker` names
another URL.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.commands.app_cmd import add_app_arguments, options_of
from companion.errors import UserError
from companion.launch.app import run_app
from companion.publish.wire import REMOTE_PREFIX, RemoteTopics
from companion.remote.at_table import RemoteChoice


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "remote", help="play one game with another companion's table, over a broker"
    )
    roles = parser.add_subparsers(dest="role", metavar="ROLE")
    roles.required = True
    host = roles.add_parser("host", help="share a game played here: the other table joins it")
    host.add_argument("match", help="the game's name for both tables (one topic level)")
    host.add_argument(
        "--sides",
        required=True,
        metavar="N[,N...]",
        help="the sides played at this table, from 0 (the other table plays the rest)",
    )
    host.add_argument(
        "--resume", type=int, metavar="GAME_ID", help="share a game of this store again"
    )
    join = roles.add_parser("join", help="join the game another companion hosts")
    join.add_argument("match", help="the name the host gave the game")
    join.add_argument(
        "--timeout",
        type=float,
        default=30.0,
        metavar="S",
        help="how long to wait for the host's invitation (default: %(default)s s)",
    )
    for role in (host, join):
        role.add_argument(
            "--broker",
            metavar="URL",
            help="the broker both companions reach (default: the config's [broker] url)",
        )
        add_app_arguments(role)
        role.set_defaults(run=run)


def remote_of(args: argparse.Namespace) -> RemoteChoice:
    """The choice the command line makes; UserError (exit 2) for a bad match or sides."""
    RemoteTopics(REMOTE_PREFIX, args.match)  # WireError names what is wrong with the name
    if args.role == "join":
        if args.timeout <= 0:
            raise UserError(f"--timeout must be more than 0 seconds, not {args.timeout:g}")
        return RemoteChoice(
            role="join", match=args.match, broker=args.broker, timeout_s=args.timeout
        )
    return RemoteChoice(
        role="host",
        match=args.match,
        broker=args.broker,
        sides=_sides(args.sides),
        resume=args.resume,
    )


def _sides(text: str) -> tuple[int, ...]:
    try:
        sides = tuple(sorted({int(part) for part in text.split(",")}))
    except ValueError:
        sides = ()
    if not sides or sides[0] < 0:
        raise UserError(f"--sides must be side numbers from 0, such as 0 or 0,2, not {text!r}")
    return sides


def run(args: argparse.Namespace) -> int:
    return run_app(options_of(args, remote=remote_of(args)))
