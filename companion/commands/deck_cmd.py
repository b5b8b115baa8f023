"""`companion deck validate|list|show|enroll`: check deck files, look inside them, and
read the RFID tags of their cards.

`show --card` prints a card's facts: it is for the deck's owner, never for a screen at the
table. `enroll` shows card numbers and names only (see docs/cards.md).
"""

from __future__ import annotations

import argparse
from typing import Any

from companion.decks import (
    Deck,
    DeckError,
    bundled_decks,
    deck_path,
    enroll,
    find_deck,
    load_deck,
    position,
    validate_deck_file,
)
from companion.decks.enroll import PROTOCOL_NAMES, Enrollment, parse_quadrants
from companion.decks.model import QUADRANT_CORNERS
from companion.decks.tagmap import load_tag_map, save_tag_map, tag_map_path
from companion.errors import UserError
from companion.render import plain


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "deck", help="check deck files and show what is in them"
    )
    actions = parser.add_subparsers(dest="deck_action", metavar="ACTION")
    actions.required = True

    validate = actions.add_parser(
        "validate", help="check deck files and print every problem (exit 2 if any)"
    )
    validate.add_argument("files", nargs="+", metavar="FILE", help="a deck file or bundled id")
    validate.set_defaults(run=_validate)

    listing = actions.add_parser("list", help="list the bundled decks")
    listing.set_defaults(run=_list)

    show = actions.add_parser("show", help="print a deck's summary, or one card in full")
    show.add_argument("deck", metavar="DECK", help="a bundled deck id or a deck file")
    show.add_argument("--card", type=int, metavar="N", help="print card number N in full")
    show.set_defaults(run=_show)

    enrolling = actions.add_parser(
        "enroll",
        help="read the RFID tag of every card with a card reader, into the deck's tag map",
        description="Walks through the deck in card order: place each card on the reader "
        "when asked, then take it off. Tags are saved after every card to the deck's tag map "
        "(see docs/cards.md); Ctrl-C stops, and a later run resumes at the first card "
        "without a tag.",
    )
    enrolling.add_argument("deck", metavar="DECK", help="a bundled deck id or a deck file")
    enrolling.add_argument(
        "--port", required=True, help="the reader's serial port, e.g. /dev/ttyUSB0"
    )
    enrolling.add_argument(
        "--protocol", required=True, choices=PROTOCOL_NAMES, help="the reader's protocol"
    )
    enrolling.add_argument(
        "--from",
        dest="start",
        type=int,
        metavar="N",
        help="start at card N and visit every later card, enrolled or not",
    )
    enrolling.add_argument(
        "--quadrants",
        type=parse_quadrants,
        metavar="Q,Q",
        help="only the cards in these quadrants (1-4 or NW,NE,SW,SE), e.g. 1,2",
    )
    enrolling.set_defaults(run=_enroll)


def _enroll(args: argparse.Namespace) -> int:
    deck = find_deck(args.deck)
    path = tag_map_path(deck)
    enrollment = Enrollment(deck, load_tag_map(deck), start=args.start, quadrants=args.quadrants)
    if enrollment.done:
        print(plain(f"{deck.title}: every chosen card already has a tag (tag map: {path})"))
        print("use --from N to enroll again from card N")
        return 0
    with enroll.reader_events(args.port, args.protocol) as events:
        first = enrollment.expected()
        assert first is not None
        print(
            plain(
                f"Enrolling {deck.title}: {enrollment.remaining} cards to scan, "
                f"from card {first.number}; tags are saved to {path}"
            )
        )
        print("Place each card on the reader when asked, then take it off. Ctrl-C stops.")
        try:
            enroll.run_enrollment(
                enrollment,
                events,
                save=lambda tags: save_tag_map(deck, tags),
                say=lambda line: print(plain(line), flush=True),
            )
        except KeyboardInterrupt:
            print()
            print(f"stopped: {enroll.summary(enrollment)}")
            return 130
    print(f"done: {enroll.summary(enrollment)}")
    return 0


def summary(deck: Deck) -> str:
    """'100 cards, depth 5, 25+25+25+25 places'."""
    per_quadrant = "+".join(str(n) for n in deck.places_per_quadrant())
    return f"{len(deck.cards)} cards, depth {deck.depth}, {per_quadrant} places"


def _validate(args: argparse.Namespace) -> int:
    status = 0
    for name in args.files:
        try:
            path = deck_path(name)
        except DeckError:
            path = None
        problems = validate_deck_file(path if path is not None else name)
        if problems:
            status = 2
            for problem in problems:
                print(plain(problem))
        else:
            print(plain(f"{name}: ok ({summary(load_deck(path or name))})"))
    return status


def _list(args: argparse.Namespace) -> int:
    bundled = bundled_decks()
    if not bundled:
        print("no bundled decks")
        return 0
    status = 0
    rows: list[tuple[str, str, str, str]] = [("ID", "TITLE", "CARDS", "DEPTH")]
    for deck_id, path in bundled.items():
        try:
            deck = load_deck(path)
        except DeckError as err:
            status = 2
            rows.append((deck_id, plain(f"(invalid: {err})", one_line=True), "-", "-"))
            continue
        rows.append(
            (deck_id, plain(deck.title, one_line=True), str(len(deck.cards)), str(deck.depth))
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print(
            "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip()
        )
    return status


def _show(args: argparse.Namespace) -> int:
    deck = find_deck(args.deck)
    if args.card is None:
        print(plain(_deck_text(deck)))
        return 0
    card = deck.card(args.card)
    if card is None:
        numbers = [c.number for c in deck.cards]
        raise UserError(
            f"deck {deck.id!r} has no card {args.card} (its cards are {_ranges(numbers)})"
        )
    quadrant, quincunx, spot = position(card.place)
    lines = [
        f"Card {card.number}: {card.name}",
        f"  place:   {card.place} (quadrant {quadrant} {QUADRANT_CORNERS[quadrant - 1]} "
        f"'{deck.quadrant_name(quadrant)}', quincunx {quincunx}, place {spot})",
        f"  points:  {card.points}",
        f"  front:   {card.front}",
    ]
    for level in range(1, card.depth + 1):
        lines.append(f"  {level}. {deck.level_label(level)}: {card.fact(level)}")
    if card.image is not None:
        lines.append(f"  image:   {card.image}")
    if card.rfid:
        lines.append(f"  rfid:    {', '.join(card.rfid)}")
    print(plain("\n".join(lines)))
    return 0


def _deck_text(deck: Deck) -> str:
    lines = [
        f"{deck.title} ({deck.id} {deck.version}, {deck.language})",
        f"  author:    {deck.author}",
        f"  subject:   {deck.subject}",
        f"  mapping:   {deck.mapping}",
        "  quadrants: "
        + ", ".join(
            f"{corner} {name}"
            for corner, name in zip(QUADRANT_CORNERS, deck.quadrants, strict=True)
        ),
        f"  cards:     {summary(deck)}",
    ]
    if deck.levels or deck.prompts:
        lines.append("  levels:")
        for level in range(1, max(len(deck.levels), len(deck.prompts)) + 1):
            prompt = deck.prompt(level)
            asked = f"  ({prompt})" if prompt else ""
            lines.append(f"    {level}. {deck.level_label(level)}{asked}")
    if deck.description:
        about = deck.description.strip().replace("\n", "\n" + " " * 13)
        lines.append(f"  about:     {about}")
    lines.append(f"  file:      {deck.source}")
    lines.append(f"  hash:      {deck.hash}")
    return "\n".join(lines)


def _ranges(numbers: list[int]) -> str:
    """[1, 2, 3, 7] -> '1-3, 7'."""
    spans: list[list[int]] = []
    for n in sorted(numbers):
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)
