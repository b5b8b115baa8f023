"""Printable cards: a PDF of a deck's card fronts and backs, for double-sided printing.

    report = write_cards_pdf(deck, Path("cards.pdf"), paper="A4")
    report.pages        # the layout used: pages, slots, cut marks, QR codes
    report.warnings     # e.g. characters the font cannot print, text cut short

Fronts show what the answerer may see: the front text, the points, the quadrant's name, the
deck's title and a QR code saying `memdeck:<deck id>:<card number>`. They never show the
name. Backs show the number, the name and the facts by depth level, with the deck's level
labels. See docs/cards.md for paper, duplex and cutting.
"""

from __future__ import annotations

import io
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color, black, white
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from companion.decks.enroll import cards_in_quadrants
from companion.decks.model import QUADRANT_CORNERS, Card, Deck
from companion.errors import UserError
from companion.printing.fonts import Fonts, Labelled, choose_fonts
from companion.printing.layout import (
    MM,
    PAPERS,
    Page,
    Paper,
    QrCode,
    Rect,
    Slot,
    grid,
    plan_pages,
)
from companion.printing.output import check_writable, write_output
from companion.printing.text import Block, Setting, set_blocks, shorten

PADDING = 4 * MM
"""Space between a card's edge and its content."""
BADGE_RADIUS = 4.25 * MM
FRONT_TEXT_TOP = 18 * MM
"""From the card's top edge to the top of the front text."""
QR_CLEARANCE = 2 * MM
"""Between the QR code's quiet zone and the front text."""
BACK_BODY_TOP = 15 * MM
BACK_BODY_BOTTOM = 8 * MM
FRONT_SIZES = tuple(x / 2 for x in range(22, 13, -1))  # 11 .. 7 pt
BACK_SIZES = tuple(x / 4 for x in range(30, 19, -1))  # 7.5 .. 5 pt

INK = Color(0.1, 0.1, 0.12)
GREY = Color(0.42, 0.42, 0.45)
RULE = Color(0.7, 0.7, 0.72)
ACCENT = Color(0.16, 0.29, 0.48)
MARK = black
MARK_WIDTH = 0.3


@dataclass(frozen=True, slots=True)
class PrintedCards:
    path: Path
    paper: Paper
    cards: int
    pages: tuple[Page, ...]
    fonts: Fonts
    warnings: tuple[str, ...]

    @property
    def sheets(self) -> int:
        return len(self.pages) // 2


def paper_named(name: str) -> Paper:
    """'a4' or 'Letter' (any case) -> the Paper; raises UserError for another name."""
    for key, paper in PAPERS.items():
        if key.lower() == name.lower():
            return paper
    raise UserError(f"unknown paper {name!r} (known: {', '.join(PAPERS)})")


def front_text_box(card: Rect, qr: QrCode) -> Rect:
    """Where a front's text may go: under the header, over the QR code's quiet zone."""
    bottom = qr.quiet_zone.top + QR_CLEARANCE
    top = card.top - FRONT_TEXT_TOP
    return Rect(card.x + PADDING, bottom, card.width - 2 * PADDING, top - bottom)


def back_body_box(card: Rect) -> Rect:
    """Where a back's facts go: under the number and name, over the footer."""
    bottom = card.y + BACK_BODY_BOTTOM
    top = card.top - BACK_BODY_TOP
    return Rect(card.x + PADDING, bottom, card.width - 2 * PADDING, top - bottom)


def write_cards_pdf(
    deck: Deck,
    out: str | Path,
    *,
    paper: str | Paper = "A4",
    quadrants: Collection[int] | None = None,
) -> PrintedCards:
    """Writes the deck's cards (those in `quadrants`, or all) to the PDF `out`, atomically.

    Raises UserError when `out` cannot be written.
    """
    out = Path(out)
    sheet = paper if isinstance(paper, Paper) else paper_named(paper)
    check_writable(out)
    cards = cards_in_quadrants(deck, quadrants)
    fonts = choose_fonts(_texts(deck, cards))
    pages = plan_pages(deck.id, [card.number for card in cards], sheet)
    warnings = list(fonts.warnings)
    data = render_pdf(deck, pages, sheet, fonts, warnings)
    write_output(out, data)
    return PrintedCards(out, sheet, len(cards), tuple(pages), fonts, tuple(warnings))


def render_pdf(
    deck: Deck, pages: list[Page], paper: Paper, fonts: Fonts, warnings: list[str]
) -> bytes:
    """The PDF's bytes; problems (text cut short) are appended to `warnings`."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(paper.width, paper.height), invariant=1)
    canvas.setTitle(f"{deck.title}: cards")
    canvas.setAuthor(deck.author)
    canvas.setSubject(deck.subject)
    canvas.setCreator("companion print cards")
    sheets = len(pages) // 2
    for page in pages:
        draw_page(canvas, deck, page, paper, fonts, warnings, sheets=sheets)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def draw_page(
    canvas: Any,
    deck: Deck,
    page: Page,
    paper: Paper,
    fonts: Fonts,
    warnings: list[str],
    *,
    sheets: int,
) -> None:
    """Draws one page's cut marks and cards on `canvas` (a reportlab Canvas, or anything
    with the same drawing methods)."""
    _draw_cut_marks(canvas, page)
    _draw_page_note(canvas, deck, page, paper, sheets, fonts)
    for slot in page.slots:
        card = deck.card(slot.number)
        if card is None:
            raise ValueError(f"deck {deck.id!r} has no card {slot.number}")
        if page.side == "front":
            _draw_front(canvas, deck, card, slot, fonts, warnings)
        else:
            _draw_back(canvas, deck, card, slot, fonts, warnings)


# ---- drawing -----------------------------------------------------------------------------


def _draw_cut_marks(canvas: Any, page: Page) -> None:
    canvas.setStrokeColor(MARK)
    canvas.setLineWidth(MARK_WIDTH)
    for line in page.cut_marks:
        canvas.line(line.x1, line.y1, line.x2, line.y2)


def _draw_page_note(
    canvas: Any, deck: Deck, page: Page, paper: Paper, sheets: int, fonts: Fonts
) -> None:
    """A line in the bottom margin, when there is room: which sheet and side this is."""
    if grid(paper)[-1][0].y < 9 * MM:  # Letter: too close to the paper's edge
        return
    side = "fronts" if page.side == "front" else "backs (print on the back of the fronts)"
    note = f"{deck.title}  \u00b7  sheet {page.sheet} of {sheets}  \u00b7  {side}"
    _text(canvas, fonts.regular, 6.5, GREY, paper.width / 2, 4.5 * MM, note, "centre")


def _draw_front(
    canvas: Any, deck: Deck, card: Card, slot: Slot, fonts: Fonts, warnings: list[str]
) -> None:
    rect = slot.rect
    assert slot.qr is not None
    top = rect.top - PADDING
    left = rect.x + PADDING
    # Points: a badge in the top right corner, "points" under it.
    cx, cy = rect.right - PADDING - BADGE_RADIUS, top - BADGE_RADIUS
    canvas.setFillColor(ACCENT)
    canvas.circle(cx, cy, BADGE_RADIUS, stroke=0, fill=1)
    points = str(card.points)
    size = 13.0 if len(points) < 3 else 9.0
    _text(canvas, fonts.bold, size, white, cx, cy - 0.36 * size, points, "centre")
    label = "point" if card.points == 1 else "points"
    _text(canvas, fonts.regular, 5.5, GREY, cx, cy - BADGE_RADIUS - 2.0 * MM, label, "centre")
    # The quadrant: its name, and under it the corner of the board.
    room = cx - BADGE_RADIUS - 1.5 * MM - left
    quadrant = deck.quadrant_name(card.quadrant)
    name_size = _shrink(quadrant, fonts.bold, 10.0, 6.5, room)
    _fit_text(canvas, fonts.bold, name_size, ACCENT, left, top - 3.6 * MM, quadrant, room)
    corner = f"quadrant {card.quadrant} \u00b7 {QUADRANT_CORNERS[card.quadrant - 1]}"
    _fit_text(canvas, fonts.regular, 6.0, GREY, left, top - 7.4 * MM, corner, room)
    rule_y = rect.top - 16 * MM
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.5)
    canvas.line(left, rule_y, rect.right - PADDING, rule_y)
    # The front text, as large as fits, each line centred, the block centred in its box.
    box = front_text_box(rect, slot.qr)
    setting = _set(
        [Block(card.front)], box, FRONT_SIZES, fonts, body_font=fonts.regular, heading=False
    )
    if not setting.fits:
        warnings.append(f"card {card.number}: the front text does not fit; it is cut short")
    offset = (box.height - setting.height) / 2
    for line in setting.lines:
        y = box.top - offset - line.y
        _text(canvas, fonts.regular, setting.size, INK, box.x + box.width / 2, y, line.text, "c")
    _draw_qr(canvas, slot.qr)
    # The deck's title at the foot.
    _fit_text(
        canvas,
        fonts.regular,
        6.0,
        GREY,
        rect.x + rect.width / 2,
        rect.y + 3.2 * MM,
        deck.title,
        rect.width - 2 * PADDING,
        "centre",
    )


def _draw_qr(canvas: Any, qr: QrCode) -> None:
    zone = qr.quiet_zone
    canvas.setFillColor(white)
    canvas.rect(zone.x, zone.y, zone.width, zone.height, stroke=0, fill=1)
    canvas.setFillColor(black)
    module = qr.module
    for row, modules in enumerate(qr.matrix):
        y = qr.rect.top - (row + 1) * module
        column = 0
        while column < len(modules):
            if not modules[column]:
                column += 1
                continue
            run = column
            while run < len(modules) and modules[run]:
                run += 1
            # A hair wider and taller, so neighbouring modules leave no white seams.
            canvas.rect(
                qr.rect.x + column * module,
                y - 0.01,
                (run - column) * module + 0.01,
                module + 0.02,
                stroke=0,
                fill=1,
            )
            column = run


def _draw_back(
    canvas: Any, deck: Deck, card: Card, slot: Slot, fonts: Fonts, warnings: list[str]
) -> None:
    rect = slot.rect
    top = rect.top - PADDING
    left = rect.x + PADDING
    # The number, large, and beside it level 1: the name.
    number = str(card.number)
    _text(canvas, fonts.bold, 20.0, ACCENT, left, top - 7.2 * MM, number)
    name_left = left + stringWidth(number, fonts.bold, 20.0) + 3 * MM
    room = rect.right - PADDING - name_left
    _fit_text(canvas, fonts.regular, 6.0, GREY, name_left, top - 2.2 * MM, _label(deck, 1), room)
    name_size = _shrink(card.name, fonts.bold, 11.5, 7.0, room)
    _fit_text(canvas, fonts.bold, name_size, INK, name_left, top - 7.2 * MM, card.name, room)
    rule_y = rect.top - 13 * MM
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.5)
    canvas.line(left, rule_y, rect.right - PADDING, rule_y)
    # The facts, level by level, as large as fits.
    box = back_body_box(rect)
    blocks = [
        Block(card.fact(level), heading=_label(deck, level)) for level in range(2, card.depth + 1)
    ]
    setting = _set(blocks, box, BACK_SIZES, fonts, body_font=fonts.regular, heading=True)
    if not setting.fits:
        warnings.append(f"card {card.number}: the facts do not fit on the back; cut short")
    for line in setting.lines:
        font = fonts.bold if line.heading else fonts.regular
        colour = ACCENT if line.heading else INK
        _text(canvas, font, setting.size, colour, box.x, box.top - line.y, line.text)
    # Where the card goes, at the foot.
    quadrant = deck.quadrant_name(card.quadrant)
    foot = f"{deck.title}  \u00b7  {quadrant}  \u00b7  place {card.place}"
    _fit_text(
        canvas,
        fonts.regular,
        5.5,
        GREY,
        rect.x + rect.width / 2,
        rect.y + 3.2 * MM,
        foot,
        rect.width - 2 * PADDING,
        "centre",
    )


def _label(deck: Deck, level: int) -> str:
    return f"{level} \u00b7 {deck.level_label(level)}"


# ---- text helpers ------------------------------------------------------------------------


def _set(
    blocks: list[Block],
    box: Rect,
    sizes: tuple[float, ...],
    fonts: Fonts,
    *,
    body_font: str,
    heading: bool,
) -> Setting:
    def measure(text: str, size: float, is_heading: bool) -> float:
        font = fonts.bold if is_heading and heading else body_font
        return float(stringWidth(text, font, size))

    return set_blocks(blocks, box.width, box.height, sizes, measure)


def _shrink(text: str, font: str, largest: float, smallest: float, width: float) -> float:
    """The largest size (in half points) from `largest` down at which `text` fits `width`."""
    size = largest
    while size > smallest and stringWidth(text, font, size) > width:
        size -= 0.5
    return size


def _fit_text(
    canvas: Any,
    font: str,
    size: float,
    colour: Color,
    x: float,
    y: float,
    text: str,
    width: float,
    align: str = "left",
) -> None:
    """One line of text, cut short with an ellipsis if it is wider than `width`."""
    text = " ".join(text.split())
    if stringWidth(text, font, size) > width:
        text = shorten(text, width, lambda s: float(stringWidth(s, font, size)))
    _text(canvas, font, size, colour, x, y, text, align)


def _text(
    canvas: Any,
    font: str,
    size: float,
    colour: Color,
    x: float,
    y: float,
    text: str,
    align: str = "left",
) -> None:
    canvas.setFont(font, size)
    canvas.setFillColor(colour)
    if align in ("centre", "c"):
        canvas.drawCentredString(x, y, text)
    else:
        canvas.drawString(x, y, text)


def _texts(deck: Deck, cards: tuple[Card, ...]) -> list[Labelled]:
    texts = [Labelled("the deck title", deck.title)]
    texts += [Labelled("the quadrant names", name) for name in deck.quadrants]
    texts += [Labelled("the level labels", label) for label in deck.levels]
    for card in cards:
        for text in (card.name, card.front, *card.facts):
            texts.append(Labelled(f"card {card.number}", text))
    return texts
