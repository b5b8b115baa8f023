"""`companion app`: the touchscreen app (Kivy), full screen on the Pi's 7" display or in a
window elsewhere (companion/launch/app.py). Games are streamed (embedded broker unless one is
configured) and the display page is served; Settings shows its address as text and as a QR
code.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path
from typing import Any

from companion.commands.options import add_local_option
from companion.errors import UserError
from companion.launch.app import AppOptions, run_app
from companion.remote.at_table import RemoteChoice
from companion.streaming import DISPLAY_PORT

SIZE = re.compile(r"^(\d{3,4})x(\d{3,4})$")


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "app", help="the touchscreen app: new games, live refereeing, scores"
    )
    add_app_arguments(parser)
    parser.set_defaults(run=run)


def add_app_arguments(parser: argparse.ArgumentParser) -> None:
    """The app's options (`companion app`, and `companion remote`, which runs it too)."""
    parser.add_argument("--fullscreen", action="store_true", help="fill the screen (a kiosk)")
    parser.add_argument(
        "--size",
        default="800x480",
        help="window size WIDTHxHEIGHT (default: %(default)s, the official Pi display)",
    )
    parser.add_argument(
        "--simulate",
        action="store_true",
        help="play on a simulated table filmed by the virtual camera (no hardware needed)",
    )
    parser.add_argument(
        "--camera",
        metavar="SPEC",
        help="the camera over the table: 0, /dev/video2, picamera, a video or a folder of "
        "pictures (default: none, or the simulated table with --simulate)",
    )
    parser.add_argument(
        "--no-reader",
        action="store_true",
        help="do not read cards on the reader in [reader] port (it is used when one is set)",
    )
    parser.add_argument("--no-stream", action="store_true", help="no broker, no display page")
    add_local_option(parser)
    parser.add_argument(
        "--gpio",
        action="store_true",
        help="the clock's buttons and LEDs and the buzzer on the Pi's GPIO ([pins]): buttons "
        "press the game clock, LEDs show whose time runs, the buzzer beeps on every alert",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="start, draw the first frame, say how long that took, and exit (a quick check "
        "that the app runs on this machine)",
    )
    parser.add_argument(
        "--display-port",
        type=int,
        default=DISPLAY_PORT,
        help="where the display page is served (default: %(default)s)",
    )
    parser.add_argument(
        "--setup",
        metavar="NAME|FILE",
        help="open New game with a named setup or a setup file: its game, options and house "
        "rules (`companion setup --help`)",
    )


def options_of(args: argparse.Namespace, remote: RemoteChoice | None = None) -> AppOptions:
    match = SIZE.match(args.size)
    if match is None:
        raise UserError(f"--size must look like 800x480, not {args.size!r}")
    return AppOptions(
        config=Path(args.config) if args.config else None,
        fullscreen=args.fullscreen,
        size=(int(match.group(1)), int(match.group(2))),
        simulate=args.simulate,
        camera=args.camera,
        reader=not args.no_reader,
        stream=not args.no_stream,
        local=args.local,
        gpio=args.gpio,
        check=args.check,
        display_port=args.display_port,
        setup=args.setup,
        remote=remote,
    )


def run(args: argparse.Namespace) -> int:
    return run_app(options_of(args))
