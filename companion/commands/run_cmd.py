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

from companion.commands.options import add_local_option
from companion.games.memwars.command import add_camera_options, add_quadrants_option
from companion.games.memwars.play.simulation import DEFAULT_SEED, SimulationOptions
from companion.launch.main import MainOptions, run_main
from companion.streaming import DISPLAY_PORT


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
        "--reader",
        choices=("rdm6300", "pn532", "pico"),
        default="rdm6300",
        help="which card reader to emulate (default: %(default)s)",
    )
    parser.add_argument(
        "--app",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="open the touchscreen app and play on a simulated table (default: when there "
        "is a screen: a desktop, or the Pi's display); --no-app plays a narrated "
        "game between simulated players in the terminal",
    )
    parser.add_argument("--delay", type=float, default=0.0, help="seconds between moves")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    add_quadrants_option(parser)
    add_camera_options(parser, on=True)
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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return run_main(
        MainOptions(
            config=Path(args.config) if args.config else None,
            app=args.app,
            stream=not args.no_stream,
            local=args.local,
            display_port=args.display_port,
            linger=args.linger,
            game=SimulationOptions(
                seed=args.seed,
                delay=args.delay,
                reader=args.reader,
                quadrants=args.quadrants,
                camera=args.camera,
                camera_seed=args.camera_seed,
                camera_hands=args.camera_hands,
                camera_wrong_colour_at=args.camera_wrong_colour_at,
            ),
        )
    )
