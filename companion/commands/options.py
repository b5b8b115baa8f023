"""Options more than one command takes."""

from __future__ import annotations

import argparse

from companion.games.memwars.play.simulated_camera import HANDS


def add_local_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--local",
        action="store_true",
        help="serve the display page (and the embedded broker's WebSocket) to this machine "
        "only; by default every device on the network can open it",
    )


def add_quadrants_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--quadrants",
        type=int,
        choices=(1, 2, 3, 4),
        default=4,
        metavar="N",
        help="play on the first N quadrants only, for a shorter game (default: %(default)s)",
    )


def add_camera_options(parser: argparse.ArgumentParser, on: bool) -> None:
    parser.add_argument(
        "--camera",
        action=argparse.BooleanOptionalAction,
        default=on,
        help="film every change to the board with the virtual camera and read it back "
        f"through the board reader, checked against the rules (default: {'on' if on else 'off'})",
    )
    parser.add_argument(
        "--camera-seed",
        type=int,
        metavar="N",
        help="film a harder table, its camera pose, light and sensor drawn from N "
        "(default: the easy table: straight down, even light)",
    )
    parser.add_argument(
        "--camera-hands",
        choices=HANDS,
        default="short",
        help="short: one frame of the hand over the zone, then still frames; full: the "
        "hand's whole reach in and out, several times slower (default: %(default)s)",
    )
    # Not an option: tests set it to see how a mismatch is reported.
    parser.set_defaults(camera_wrong_colour_at=None)
