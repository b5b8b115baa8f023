"""Where everything goes on a sheet of cards: pure geometry, no drawing.

Cards are standard poker cards, 63 x 88 mm, nine to a page (3 x 3) on A4 or Letter,
centred, with a 3 mm gutter between them so each card has cut marks at all four corners
that stay outside every card. Pages alternate fronts and backs; a back page mirrors the
column order of its front page, so printed double-sided with a flip on the long edge each
back lands behind its front.

All lengths are PDF points (1/72 inch); y grows upwards from the bottom of the page, as in
reportlab.

    pages = plan_pages(deck.id, [1, 2, ..., 100], PAPERS["A4"])
    pages[0].side, pages[0].slots[0].rect, pages[0].slots[0].qr.payload
    # 'front', Rect(x=..., y=..., width=178.6, height=249.4), 'memdeck:<deck id>:1'
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

import segno

MM = 72 / 25.4
"""One millimetre in points."""

CARD_WIDTH = 63 * MM
CARD_HEIGHT = 88 * MM
COLUMNS = 3
ROWS = 3
PER_PAGE = COLUMNS * ROWS
GUTTER = 3 * MM
"""Space between neighbouring cards, where their cut marks go."""
MARK_GAP = 0.5 * MM
"""Space between a card's corner and its cut marks, so a mark never touches the card."""
MARK_LENGTH = 5 * MM
"""The longest a cut mark gets (in the page margin; in a gutter it spans the gutter)."""

QR_SIZE = 15 * MM
"""The QR symbol's side, without its quiet zone."""
QR_QUIET_MODULES = 4
"""The quiet zone (a white border) the QR standard asks for, in modules."""
QR_BOTTOM = 7.5 * MM
"""From the card's bottom edge to the bottom of the QR symbol."""
QR_ERROR = "m"
"""Error correction level M: about 15 % of the symbol can be damaged and still read."""
QR_PREFIX = "memdeck"

Side = Literal["front", "back"]


@dataclass(frozen=True, slots=True)
class Paper:
    name: str
    width: float
    height: float


PAPERS: dict[str, Paper] = {
    "A4": Paper("A4", 210 * MM, 297 * MM),
    "Letter": Paper("Letter", 8.5 * 72, 11 * 72),
}


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height

    def inset(self, by: float) -> Rect:
        return Rect(self.x + by, self.y + by, self.width - 2 * by, self.height - 2 * by)

    def contains(self, other: Rect, tolerance: float = 1e-6) -> bool:
        return (
            other.x >= self.x - tolerance
            and other.y >= self.y - tolerance
            and other.right <= self.right + tolerance
            and other.top <= self.top + tolerance
        )

    def overlaps(self, other: Rect) -> bool:
        """Whether the two share any area (touching edges do not count)."""
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.top
            and other.y < self.top
        )


@dataclass(frozen=True, slots=True, order=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float

    def touches(self, rect: Rect) -> bool:
        """Whether this (horizontal or vertical) segment reaches into or onto `rect`."""
        left, right = sorted((self.x1, self.x2))
        bottom, top = sorted((self.y1, self.y2))
        return left <= rect.right and rect.x <= right and bottom <= rect.top and rect.y <= top

    @property
    def length(self) -> float:
        return abs(self.x2 - self.x1) + abs(self.y2 - self.y1)


@dataclass(frozen=True, slots=True)
class QrCode:
    payload: str
    matrix: tuple[tuple[bool, ...], ...]
    """Rows of modules from the top, True for dark; without the quiet zone."""
    rect: Rect
    """Where the symbol goes, without the quiet zone."""

    @property
    def module(self) -> float:
        return self.rect.width / len(self.matrix)

    @property
    def quiet_zone(self) -> Rect:
        """The symbol and its quiet zone: nothing else may be drawn in here."""
        return self.rect.inset(-QR_QUIET_MODULES * self.module)


@dataclass(frozen=True, slots=True)
class Slot:
    """One card on one page."""

    number: int
    """The card's number."""
    row: int
    """0 is the top row."""
    column: int
    """0 is the left column, as the page is seen from its printed side."""
    rect: Rect
    qr: QrCode | None
    """The machine-readable code, on fronts only."""


@dataclass(frozen=True, slots=True)
class Page:
    side: Side
    sheet: int
    """Counted from 1; a sheet is printed front and back, so it has two pages."""
    slots: tuple[Slot, ...]
    cut_marks: tuple[Line, ...]


def qr_payload(deck_id: str, number: int) -> str:
    """'memdeck:<deck id>:<card number>', what a card's QR code says."""
    return f"{QR_PREFIX}:{deck_id}:{number}"


def qr_matrix(payload: str) -> tuple[tuple[bool, ...], ...]:
    """The modules of the QR code for `payload` (segno, level M, never a Micro QR)."""
    code = segno.make(payload, error=QR_ERROR, micro=False, boost_error=False)
    return tuple(tuple(bool(module & 1) for module in row) for row in code.matrix)


def grid(paper: Paper) -> list[list[Rect]]:
    """The card rectangles of a page, [row][column], row 0 at the top, centred on the page."""
    block_width = COLUMNS * CARD_WIDTH + (COLUMNS - 1) * GUTTER
    block_height = ROWS * CARD_HEIGHT + (ROWS - 1) * GUTTER
    left = (paper.width - block_width) / 2
    bottom = (paper.height - block_height) / 2
    if left <= 0 or bottom <= 0:
        raise ValueError(f"{paper.name} is too small for {COLUMNS} x {ROWS} cards")
    return [
        [
            Rect(
                left + column * (CARD_WIDTH + GUTTER),
                bottom + (ROWS - 1 - row) * (CARD_HEIGHT + GUTTER),
                CARD_WIDTH,
                CARD_HEIGHT,
            )
            for column in range(COLUMNS)
        ]
        for row in range(ROWS)
    ]


def cut_marks(paper: Paper, cells: Collection[tuple[int, int]] | None = None) -> tuple[Line, ...]:
    """Marks at every corner of the cards at `cells` ((row, column); all when None), each
    outside every card position.

    At each corner one mark carries on the card's horizontal edge and one its vertical edge,
    away from the card. In a gutter a mark spans the gutter (less MARK_GAP at each end), so
    the marks of neighbouring cards are one line; in the margin it is MARK_LENGTH long or
    stops short of the paper's edge.
    """
    rects = grid(paper)
    lines: set[Line] = set()
    first, last = rects[0][0], rects[-1][-1]
    left_room, right_room = first.x, paper.width - last.right
    bottom_room, top_room = last.y, paper.height - first.top
    for row, cards in enumerate(rects):
        for column, card in enumerate(cards):
            if cells is not None and (row, column) not in cells:
                continue
            left = GUTTER if column > 0 else min(MARK_LENGTH + MARK_GAP, left_room)
            right = GUTTER if column < COLUMNS - 1 else min(MARK_LENGTH + MARK_GAP, right_room)
            up = GUTTER if row > 0 else min(MARK_LENGTH + MARK_GAP, top_room)
            down = GUTTER if row < ROWS - 1 else min(MARK_LENGTH + MARK_GAP, bottom_room)
            # The far end of a mark in a gutter stops MARK_GAP short of the next card.
            far_left = left - (MARK_GAP if column > 0 else 0)
            far_right = right - (MARK_GAP if column < COLUMNS - 1 else 0)
            far_up = up - (MARK_GAP if row > 0 else 0)
            far_down = down - (MARK_GAP if row < ROWS - 1 else 0)
            for y in (card.y, card.top):
                lines.add(_line(card.x - MARK_GAP, y, card.x - far_left, y))
                lines.add(_line(card.right + MARK_GAP, y, card.right + far_right, y))
            for x in (card.x, card.right):
                lines.add(_line(x, card.top + MARK_GAP, x, card.top + far_up))
                lines.add(_line(x, card.y - MARK_GAP, x, card.y - far_down))
    return tuple(sorted(line for line in lines if line.length > 0.2 * MM))


def _line(x1: float, y1: float, x2: float, y2: float) -> Line:
    # Rounded and ordered, so the same mark drawn from two neighbouring cards is one Line.
    a = (round(x1, 3), round(y1, 3))
    b = (round(x2, 3), round(y2, 3))
    (ax, ay), (bx, by) = sorted((a, b))
    return Line(ax, ay, bx, by)


def qr_rect(card: Rect) -> Rect:
    """Where a front's QR symbol goes: centred, QR_BOTTOM above the card's bottom edge."""
    return Rect(card.x + (card.width - QR_SIZE) / 2, card.y + QR_BOTTOM, QR_SIZE, QR_SIZE)


def plan_pages(deck_id: str, numbers: Sequence[int], paper: Paper) -> list[Page]:
    """The pages for `numbers` (card numbers, in print order): front, back, front, back, ...

    A front page takes nine cards row by row, left to right. Its back page puts each card's
    back in the same row and the mirrored column, so after a long-edge flip it is behind
    its front.
    """
    cells = grid(paper)
    pages: list[Page] = []
    for sheet, start in enumerate(range(0, len(numbers), PER_PAGE), start=1):
        chunk = numbers[start : start + PER_PAGE]
        fronts: list[Slot] = []
        backs: list[Slot] = []
        for index, number in enumerate(chunk):
            row, column = divmod(index, COLUMNS)
            rect = cells[row][column]
            payload = qr_payload(deck_id, number)
            code = QrCode(payload, qr_matrix(payload), qr_rect(rect))
            fronts.append(Slot(number, row, column, rect, code))
            mirrored = COLUMNS - 1 - column
            backs.append(Slot(number, row, mirrored, cells[row][mirrored], None))
        front_marks = cut_marks(paper, {(slot.row, slot.column) for slot in fronts})
        back_marks = cut_marks(paper, {(slot.row, slot.column) for slot in backs})
        pages.append(Page("front", sheet, tuple(fronts), front_marks))
        pages.append(Page("back", sheet, tuple(backs), back_marks))
    return pages


def mirror(rect: Rect, paper: Paper) -> Rect:
    """`rect` as seen through the sheet after a flip on the long (vertical) edge."""
    return Rect(paper.width - rect.right, rect.y, rect.width, rect.height)
