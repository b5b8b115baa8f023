"""`companion print cards`: a PDF of a deck's cards, fronts and backs, for duplex printing.

The fronts never show a card's name; see docs/cards.md for paper, duplex and cutting.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.decks import find_deck
from companion.decks.enroll import parse_quadrants


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "print", help="make printable things for a deck (cards)"
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
        type=_paper,
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


def _paper(text: str) -> str:
    from companion.printing.layout import PAPERS

    for name in PAPERS:
        if name.lower() == text.lower():
            return name
    raise argparse.ArgumentTypeError(f"{text!r} is not a paper size: use A4 or Letter")


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
