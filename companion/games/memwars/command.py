"""`companion simulate`: two simulated players play a whole MemWars game, refereed, stored and
narrated in the terminal (companion/games/memwars/play/simulation.py)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.games.memwars.play.choices import MODES
from companion.games.memwars.play.simulated_camera import HANDS
from companion.games.memwars.play.simulation import (
    DEFAULT_SEED,
    SimulationOptions,
    run_simulation,
)
from companion.printing.arguments import length_mm, whole_number


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "simulate", help="watch two simulated players play a whole refereed game"
    )
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help="random seed (default: %(default)s)"
    )
    parser.add_argument("--mode", choices=MODES, default="standard")
    parser.add_argument(
        "--deck", help="bundled deck id or deck file (default: from the configuration)"
    )
    parser.add_argument(
        "--recall",
        type=float,
        nargs=2,
        default=(0.85, 0.6),
        metavar=("A", "B"),
        help="how often each simulated player recalls a card (default: 0.85 0.6)",
    )
    parser.add_argument(
        "--delay",
        type=float,
        default=0.0,
        help="at least this many seconds from one move to the next",
    )
    parser.add_argument("--record", metavar="FILE", help="also write the game record to FILE")
    parser.add_argument(
        "--no-store",
        action="store_true",
        help="keep the game in a throw-away store instead of the user's",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the final scores")
    parser.add_argument(
        "--reader",
        choices=("rdm6300", "pn532", "pico"),
        help="scan every card the rules ask for on an emulated reader of this kind, behind a "
        "pseudo-terminal, through the real reader and the session's card check",
    )
    add_quadrants_option(parser)
    add_camera_options(parser, on=False)
    parser.set_defaults(run=run)


def options_of(args: argparse.Namespace) -> SimulationOptions:
    return SimulationOptions(
        config=Path(args.config) if args.config else None,
        seed=args.seed,
        mode=args.mode,
        deck=args.deck,
        recall=tuple(args.recall),
        delay=args.delay,
        record=args.record,
        no_store=args.no_store,
        quiet=args.quiet,
        reader=args.reader,
        quadrants=args.quadrants,
        **camera_options(args),
    )


def camera_options(args: argparse.Namespace) -> dict[str, Any]:
    """The virtual camera's options (`add_camera_options`), as SimulationOptions fields."""
    return {
        "camera": args.camera,
        "camera_seed": args.camera_seed,
        "camera_hands": args.camera_hands,
        "camera_wrong_colour_at": args.camera_wrong_colour_at,
    }


def run(args: argparse.Namespace) -> int:
    return run_simulation(options_of(args))


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """`companion run`'s options for MemWars' terminal game."""
    parser.add_argument(
        "--reader",
        choices=("rdm6300", "pn532", "pico"),
        default="rdm6300",
        help="which card reader to emulate (default: %(default)s)",
    )
    parser.add_argument("--delay", type=float, default=0.0, help="seconds between moves")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    add_quadrants_option(parser)
    add_camera_options(parser, on=True)


def run_game(args: argparse.Namespace) -> SimulationOptions:
    """`companion run`'s terminal game: a whole MemWars game between simulated players,
    with the options and house rules of `--setup` when one is given."""
    setup = args.setup
    return SimulationOptions(
        options=setup.options if setup is not None else {},
        house_rules=setup.house_rules if setup is not None else {},
        seed=args.seed,
        delay=args.delay,
        reader=args.reader,
        quadrants=args.quadrants,
        **camera_options(args),
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


def register_print(actions: Any) -> None:
    """`companion print counters`: MemWars' topology counters."""
    counters = actions.add_parser(
        "counters",
        help="write the 36 topology counters, pips and logo side, for duplex printing",
        description="Writes the topology counters (12 each of 5, 3 and 2) on one sheet: a page "
        "of pip faces, then a page of logo rings to print on its back (flip on the long edge). "
        "A .png is the page of fronts. Print at actual size (100%); see docs/board.md.",
    )
    counters.add_argument(
        "--paper", default="A4", metavar="A4|Letter", help="the paper (default A4)"
    )
    counters.add_argument("--out", required=True, metavar="FILE", help="the .pdf or .png to write")
    counters.add_argument(
        "--size", metavar="MM", help="a counter's side (default: the board's, 11 mm)"
    )
    counters.add_argument("--dpi", default="300", metavar="N", help="pixels per inch (default 300)")
    counters.set_defaults(run=_counters)


def _counters(args: argparse.Namespace) -> int:
    from companion.games.memwars.printing.counter_print import write_counters
    from vision.geometry import load_board

    dpi = whole_number(args.dpi, "--dpi")
    # The counters are the size the board is drawn for, unless asked otherwise.
    size = load_board().counter_size if args.size is None else length_mm(args.size, "--size")
    report = write_counters(Path(args.out), paper=args.paper, size=size, dpi=dpi)
    for warning in report.warnings:
        print(f"companion: warning: {warning}", file=sys.stderr)
    sheet = report.sheet
    what = f"{len(sheet.tiles)} topology counters (12 each of 5, 3 and 2), {sheet.size:g} mm"
    if report.kind == "png":
        print(f"wrote {report.path}: the fronts of {what}, {sheet.paper.name}, {dpi} dpi")
        return 0
    print(f"wrote {report.path}: {what}, on one sheet of {sheet.paper.name} (fronts, backs)")
    print("print double-sided, flip on the long edge, at actual size (100%, not fit to page)")
    return 0
