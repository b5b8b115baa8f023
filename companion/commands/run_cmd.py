"""`companion run`: the main job.

With a screen, it is the touchscreen app (companion/ui) on a simulated table: crystals laid
by tapping, filmed by the virtual camera and read back by the real board reader, against a
simulated opponent if you like. Without one (a terminal, `--no-app`), it is a whole refereed
game between simulated players, on simulated twins of the hardware, streamed live: the card
reader is an emulated module behind a pseudo-terminal, read by the real reader and checked
by the session; a virtual camera films every change to the board and the real board reader
reads it back, checked against the rules (companion/games/memwars/play/simulated_camera.py);
the game goes out
over MQTT (to the configured broker, or to an embedded one started here) and the display
page is served for anyone to watch. `make run` starts it.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path
from typing import Any

from companion.commands import app_cmd, simulate_cmd
from companion.config import load_config
from companion.streaming import DISPLAY_PORT, Streaming


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
    parser.add_argument("--seed", type=int, default=simulate_cmd.DEFAULT_SEED)
    simulate_cmd.add_quadrants_option(parser)
    simulate_cmd.add_camera_options(parser, on=True)
    parser.add_argument(
        "--no-stream",
        action="store_true",
        help="do not stream the game (no broker, no display page)",
    )
    app_cmd.add_local_option(parser)
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
    if args.app if args.app is not None else app_cmd.has_screen():
        return app_cmd.run(
            argparse.Namespace(
                config=args.config,
                fullscreen=False,
                size="800x480",
                simulate=True,
                no_stream=args.no_stream,
                local=args.local,
                display_port=args.display_port,
                check=False,
                gpio=False,
                camera=None,
                no_reader=True,
            )
        )
    config = load_config(Path(args.config) if args.config else None)
    game = argparse.Namespace(
        config=args.config,
        seed=args.seed,
        mode="standard",
        deck=None,
        recall=(0.85, 0.6),
        delay=args.delay,
        record=None,
        no_store=False,
        quiet=False,
        reader=args.reader,
        quadrants=args.quadrants,
        camera=args.camera,
        camera_seed=args.camera_seed,
        camera_hands=args.camera_hands,
        camera_wrong_colour_at=args.camera_wrong_colour_at,
    )
    if args.no_stream:
        return simulate_cmd.run(game)
    with Streaming(config, args.display_port, local=args.local) as streaming:
        code = simulate_cmd.run(game, attach=streaming.attach)
        linger = (
            args.linger
            if args.linger is not None
            else (float("inf") if sys.stdin.isatty() else 0.0)
        )
        if linger > 0:
            print(
                f"The game is over; the page stays up at {streaming.shown_url} "
                + ("until Ctrl-C." if linger == float("inf") else f"for {linger:g} s."),
                flush=True,
            )
            threading.Event().wait(None if linger == float("inf") else linger)
    return code
