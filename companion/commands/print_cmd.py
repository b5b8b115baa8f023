"""`companion print cards|board|counters`: printable cards, board and topology counters.

`print cards` writes a PDF of a deck's cards, fronts and backs, for duplex printing; the
fronts never show a card's name (docs/cards.md). `print board` writes the board fitted to a
paper size and `print counters` a duplex sheet of the topology counters (docs/board.md).
Both draw with OpenCV, imported only when they run, so the command line starts quickly.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.commands.game_commands import game_command_modules
from companion.decks import find_deck
from companion.decks.enroll import parse_quadrants
from companion.errors import UserError
from companion.games import find_plugin, plugin_names
from companion.games.contract import BadSetup
from companion.games.plugin import GamePlugin
from companion.printing.arguments import paper_name, whole_number

DEFAULT_DECK = "mythologies-of-earth"


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "print", help="make printable things: a deck's cards, the board, topology counters"
    )
    actions = parser.add_subparsers(dest="print_action", metavar="ACTION")
    actions.required = True

    cards = actions.add_parser(
        "cards",
        help="write a PDF of the deck's cards: 9 per page, fronts and backs alternating",
        description="Writes the deck's cards (63 x 88 mm, 9 per page) to a PDF: a page of "
        "fronts, then a page of their backs, and so on. Print it double-sided, flipping on "
        "the long edge, at actual size (100%); see docs/cards.md.",
    )
    cards.add_argument("deck", metavar="DECK", help="a bundled deck id or a deck file")
    cards.add_argument("--out", required=True, metavar="FILE", help="the PDF file to write")
    cards.add_argument(
        "--paper",
        default="A4",
        type=paper_name,
        metavar="A4|Letter",
        help="the paper size (default A4)",
    )
    cards.add_argument(
        "--quadrants",
        type=parse_quadrants,
        metavar="Q,Q",
        help="only the cards in these quadrants (1-4 or NW,NE,SW,SE), e.g. 1,2",
    )
    cards.set_defaults(run=_cards)

    board = actions.add_parser(
        "board",
        help="write the board, fitted to the paper, as a PDF or PNG",
        description="Writes the board (the packaged MemWars board, MeM's with --game mem, or a "
        "board file) scaled to "
        "fit the paper, with the deck's quadrant names, as a one-page PDF or a PNG. On paper "
        "that makes its places too small for the crystals (A4, Letter) it is printed larger "
        "over two or more sheets, to cut and tape together (a PDF only). Print it at "
        "actual size (100%); see docs/board.md.",
    )
    board.add_argument(
        "--paper",
        default="A3",
        metavar="A4|A3|A2|Letter|Tabloid",
        help="the paper (default A3)",
    )
    board.add_argument(
        "--one-sheet",
        action="store_true",
        help="one sheet even when its places are small for the crystals (A4, Letter)",
    )
    board.add_argument(
        "--deck",
        default=DEFAULT_DECK,
        metavar="DECK",
        help=f"a bundled deck id or a deck file, for the quadrant names (default {DEFAULT_DECK})",
    )
    board.add_argument(
        "--game",
        choices=plugin_names(),
        help="the board of this game (default memwars)",
    )
    board.add_argument(
        "--house-rule",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a house rule that changes the board (a game drawn from its shapes), e.g. "
        "ml.geometry=SHARED; `companion rules GAME` lists them",
    )
    board.add_argument("--board", metavar="FILE", help="a board file (default: MemWars)")
    board.add_argument("--out", required=True, metavar="FILE", help="the .pdf or .png to write")
    board.add_argument("--dpi", default="300", metavar="N", help="pixels per inch (default 300)")
    board.set_defaults(run=_board)

    # A game's own printables (MemWars' topology counters, say) come with its plugin.
    for _game, module in game_command_modules():
        add_printables = getattr(module, "register_print", None)
        if add_printables is not None:
            add_printables(actions)


def _cards(args: argparse.Namespace) -> int:
    # Lazily: reportlab takes a while to import and only this command needs it.
    from companion.printing.cards import write_cards_pdf

    deck = find_deck(args.deck)
    report = write_cards_pdf(deck, Path(args.out), paper=args.paper, quadrants=args.quadrants)
    for warning in report.warnings:
        print(f"companion: warning: {warning}", file=sys.stderr)
    cards = "card" if report.cards == 1 else "cards"
    sheets = "sheet" if report.sheets == 1 else "sheets"
    print(
        f"wrote {report.path}: {report.cards} {cards} of {deck.title} on {report.sheets} "
        f"{sheets} ({len(report.pages)} pages: fronts, backs, ...), {report.paper.name}"
    )
    print("print double-sided, flip on the long edge, at actual size (100%, not fit to page)")
    return 0


def _board(args: argparse.Namespace) -> int:
    # Lazily: these draw with OpenCV, which `companion --help` should never wait for.
    from companion.printing.board_print import write_board
    from companion.printing.board_tiles import TiledBoard, board_size
    from vision.geometry import BOARDS_DIR, load_board

    dpi = whole_number(args.dpi, "--dpi")
    if args.game and args.board:
        raise UserError("give --game or --board, not both")
    plugin = find_plugin(args.game) if args.game else None
    if plugin is not None and plugin.board_file is None:
        return _drawn_board(args, plugin, dpi)
    if args.house_rule:
        raise UserError("--house-rule goes with the board of a game drawn from its shapes")
    board_file = plugin.board_file if plugin is not None else None
    board = load_board(BOARDS_DIR / board_file if board_file else args.board)
    # A deck names the quadrants of a game played with one.
    if plugin is None and board.game in plugin_names():
        plugin = find_plugin(board.game)
    # A hand-made board of no known game is taken for one played with a deck.
    uses_deck = plugin.deck if plugin is not None else True
    deck = find_deck(args.deck) if uses_deck else None
    report = write_board(
        board,
        Path(args.out),
        paper=args.paper,
        quadrant_names=None if deck is None else deck.quadrants,
        deck_title=None if deck is None else deck.title,
        dpi=dpi,
        one_sheet=args.one_sheet,
    )
    for warning in report.warnings:
        print(f"companion: warning: {warning}", file=sys.stderr)
    width, height = board_size(report.sheet)
    size = f"{width:.1f} x {height:.1f} mm"
    named = f"the {board.name} board" + ("" if deck is None else f" ({deck.title})")
    what = f"{named}, {report.sheet.label} ({size})"
    if report.kind == "png":
        pixels = f"{report.pixels[0]} x {report.pixels[1]} px"
        print(f"wrote {report.path}: {what}, {pixels} at {dpi} dpi")
    elif isinstance(report.sheet, TiledBoard):
        sheets = report.sheet.sheets
        print(f"wrote {report.path}: {what}, {sheets} pages, one a sheet")
        print(
            "print at actual size (100%, not fit to page) on matte paper; cut each sheet "
            "but the last along its dashed line and join them as their footers say"
        )
        return 0
    else:
        print(f"wrote {report.path}: {what}, one page")
    print("print at actual size (100%, not fit to page) on matte paper, and lay it flat")
    return 0


def _drawn_board(args: argparse.Namespace, plugin: GamePlugin, dpi: int) -> int:
    """A game with no board file: its empty board as its plugin draws it."""
    from companion.printing.drawing_print import write_drawing

    setup = dict(plugin.example_setups()[0])
    setup["house_rules"] = {**setup.get("house_rules", {}), **_house_rules(args.house_rule)}
    try:
        state = plugin.engine.new_game(setup)
    except BadSetup as err:
        raise UserError(f"cannot draw this board: {err}") from None
    drawing = plugin.drawing(plugin.engine.view(state, "spectator"))
    if drawing is None:
        raise UserError(f"{plugin.title} has no board to print")
    report = write_drawing(drawing, Path(args.out), paper=args.paper, title=plugin.title, dpi=dpi)
    for warning in report.warnings:
        print(f"companion: warning: {warning}", file=sys.stderr)
    width, height = report.size_mm
    what = f"the {plugin.title} board, {report.paper.name} ({width:g} x {height:g} mm)"
    if report.kind == "png":
        print(
            f"wrote {report.path}: {what}, {report.pixels[0]} x {report.pixels[1]} px at {dpi} dpi"
        )
    else:
        print(f"wrote {report.path}: {what}, one page")
    print("print at actual size (100%, not fit to page)")
    return 0


def _house_rules(pairs: list[str]) -> dict[str, Any]:
    """KEY=VALUE pairs as house rules: true/false and whole numbers as such, else text."""
    rules: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise UserError(f"--house-rule takes KEY=VALUE, not {pair!r}")
        value: Any = text.strip()
        if value.lower() in ("true", "false"):
            value = value.lower() == "true"
        elif value.lstrip("-").isdigit():
            value = int(value)
        rules[key.strip()] = value
    return rules
