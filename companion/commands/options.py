"""Options more than one command takes."""

from __future__ import annotations

import argparse


def add_local_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--local",
        action="store_true",
        help="serve the display page (and the embedded broker's WebSocket) to this machine "
        "only; by default every device on the network can open it",
    )
