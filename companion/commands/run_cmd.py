"""`companion run`: the main job.

Until the touchscreen app exists, the main job is a whole refereed game between simulated
players, on simulated twins of the hardware: the card reader is an emulated module behind a
pseudo-terminal, read by the real reader and checked by the session. `make run` starts it.
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.commands import simulate_cmd


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "run", help="the main job: for now a simulated game on simulated hardware"
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
    parser.add_argument("--delay", type=float, default=0.0, help="seconds between moves")
    parser.add_argument("--seed", type=int, default=simulate_cmd.DEFAULT_SEED)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
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
    )
    return simulate_cmd.run(game)
