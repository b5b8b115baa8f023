"""The pure geometry of a sheet of cards: positions, cut marks, mirrored backs, QR codes."""

from __future__ import annotations

import math

import pytest
import segno

from companion.printing.cards import back_body_box, front_text_box
from companion.printing.layout import (
    CARD_HEIGHT,
    CARD_WIDTH,
    MARK_GAP,
    MM,
    PAPERS,
    QR_SIZE,
    Line,
    Paper,
    Rect,
    cut_marks,
    grid,
    mirror,
    plan_pages,
    qr_payload,
)

PAPER_NAMES = sorted(PAPERS)


def _cells(paper: Paper) -> list[Rect]:
    return [rect for row in grid(paper) for rect in row]


@pytest.mark.parametrize("name", PAPER_NAMES)
def test_nine_poker_cards_centred_on_the_page(name: str) -> None:
    paper = PAPERS[name]
    cells = _cells(paper)
    assert len(cells) == 9
    page = Rect(0, 0, paper.width, paper.height)
    for rect in cells:
        assert rect.width == pytest.approx(63 * MM) and rect.height == pytest.approx(88 * MM)
        assert page.inset(4 * MM).contains(rect)  # inside what printers can print
    for a in cells:
        for b in cells:
            assert a is b or not a.overlaps(b)
    left = min(r.x for r in cells)
    right = paper.width - max(r.right for r in cells)
    bottom = min(r.y for r in cells)
    top = paper.height - max(r.top for r in cells)
    assert left == pytest.approx(right) and bottom == pytest.approx(top)
    # Row 0 is the top row, column 0 the left column.
    rows = grid(paper)
    assert rows[0][0].y > rows[1][0].y and rows[0][0].x < rows[0][1].x


@pytest.mark.parametrize("name", PAPER_NAMES)
def test_cut_marks_are_outside_every_card(name: str) -> None:
    paper = PAPERS[name]
    marks = cut_marks(paper)
    assert marks
    for line in marks:
        assert line.x1 == line.x2 or line.y1 == line.y2  # straight
        assert min(line.x1, line.x2) >= 0 and max(line.x1, line.x2) <= paper.width
        assert min(line.y1, line.y2) >= 0 and max(line.y1, line.y2) <= paper.height
        for card in _cells(paper):
            assert not line.touches(card.inset(-MARK_GAP / 2)), (line, card)


def _marks_at(marks: tuple[Line, ...], x: float, y: float) -> set[str]:
    """Which way marks leave the corner (x, y): 'left', 'right', 'up', 'down'."""
    found = set()
    for line in marks:
        if line.y1 == line.y2 and line.y1 == pytest.approx(y, abs=0.01):
            if line.x2 == pytest.approx(x - MARK_GAP, abs=0.01):
                found.add("left")
            if line.x1 == pytest.approx(x + MARK_GAP, abs=0.01):
                found.add("right")
        if line.x1 == line.x2 and line.x1 == pytest.approx(x, abs=0.01):
            if line.y2 == pytest.approx(y - MARK_GAP, abs=0.01):
                found.add("down")
            if line.y1 == pytest.approx(y + MARK_GAP, abs=0.01):
                found.add("up")
    return found


@pytest.mark.parametrize("name", PAPER_NAMES)
def test_every_corner_of_every_card_has_two_marks(name: str) -> None:
    paper = PAPERS[name]
    marks = cut_marks(paper)
    for card in _cells(paper):
        assert {"left", "up"} <= _marks_at(marks, card.x, card.top)
        assert {"right", "up"} <= _marks_at(marks, card.right, card.top)
        assert {"left", "down"} <= _marks_at(marks, card.x, card.y)
        assert {"right", "down"} <= _marks_at(marks, card.right, card.y)


def test_marks_only_around_the_cards_on_the_page() -> None:
    paper = PAPERS["A4"]
    one = cut_marks(paper, {(0, 0)})
    card = grid(paper)[0][0]
    assert len(one) == 8
    assert all(line.touches(card.inset(-6 * MM)) for line in one)


@pytest.mark.parametrize(("count", "pages"), [(1, 2), (9, 2), (10, 4), (25, 6), (100, 24)])
def test_page_count(count: int, pages: int) -> None:
    plan = plan_pages("d", list(range(1, count + 1)), PAPERS["A4"])
    assert len(plan) == pages == 2 * math.ceil(count / 9)
    assert [p.side for p in plan] == ["front", "back"] * (pages // 2)
    assert [p.sheet for p in plan] == [n for n in range(1, pages // 2 + 1) for _ in (0, 1)]
    assert [s.number for p in plan if p.side == "front" for s in p.slots] == list(
        range(1, count + 1)
    )


@pytest.mark.parametrize("name", PAPER_NAMES)
def test_backs_mirror_the_fronts(name: str) -> None:
    paper = PAPERS[name]
    plan = plan_pages("d", list(range(1, 26)), paper)
    for front, back in zip(plan[::2], plan[1::2], strict=True):
        assert [s.number for s in front.slots] == [s.number for s in back.slots]
        for f, b in zip(front.slots, back.slots, strict=True):
            assert (b.row, b.column) == (f.row, 2 - f.column)
            assert _box(b.rect) == pytest.approx(_box(mirror(f.rect, paper)))
            assert b.qr is None and f.qr is not None
        mirrored = sorted(mirror_line(m, paper) for m in front.cut_marks)
        assert len(mirrored) == len(back.cut_marks)
        for m, n in zip(mirrored, sorted(back.cut_marks), strict=True):
            assert (m.x1, m.y1, m.x2, m.y2) == pytest.approx((n.x1, n.y1, n.x2, n.y2), abs=0.01)
    # The last sheet holds 7 cards: 19, 20, 21 / 22, 23, 24 / 25.
    last_front, last_back = plan[-2], plan[-1]
    assert [(s.number, s.row, s.column) for s in last_front.slots][-1] == (25, 2, 0)
    assert [(s.number, s.row, s.column) for s in last_back.slots][-1] == (25, 2, 2)


def _box(rect: Rect) -> tuple[float, float, float, float]:
    return rect.x, rect.y, rect.width, rect.height


def mirror_line(line: Line, paper: Paper) -> Line:
    x1, x2 = sorted((paper.width - line.x1, paper.width - line.x2))
    return Line(x1, line.y1, x2, line.y2)


def test_qr_codes_say_deck_and_card() -> None:
    plan = plan_pages("mythologies-of-earth", [1, 17, 100], PAPERS["A4"])
    codes = [slot.qr for slot in plan[0].slots]
    assert [c.payload for c in codes if c] == [
        "memdeck:mythologies-of-earth:1",
        "memdeck:mythologies-of-earth:17",
        "memdeck:mythologies-of-earth:100",
    ]
    assert qr_payload("x", 3) == "memdeck:x:3"
    for code in codes:
        assert code is not None
        expected = segno.make(code.payload, error="m", micro=False, boost_error=False)
        assert code.matrix == tuple(tuple(bool(m) for m in row) for row in expected.matrix)
        assert len(code.matrix) == expected.symbol_size(border=0)[0]


def test_qr_size_quiet_zone_and_text_box() -> None:
    for page in plan_pages("mythologies-of-earth", list(range(1, 10)), PAPERS["Letter"])[:1]:
        for slot in page.slots:
            qr = slot.qr
            assert qr is not None
            assert qr.rect.width == qr.rect.height == pytest.approx(QR_SIZE)
            assert pytest.approx(15 * MM) == QR_SIZE
            assert qr.module >= 0.4 * MM  # big enough for a camera
            zone = qr.quiet_zone
            assert zone.width == pytest.approx(QR_SIZE + 8 * qr.module)
            assert slot.rect.inset(2 * MM).contains(zone)
            text = front_text_box(slot.rect, qr)
            assert slot.rect.contains(text) and text.height > 35 * MM
            assert not text.overlaps(zone)
            body = back_body_box(slot.rect)
            assert slot.rect.contains(body) and body.height > 60 * MM


def test_a_page_too_small() -> None:
    with pytest.raises(ValueError, match="too small"):
        grid(Paper("A5", 148 * MM, 210 * MM))


def test_card_constants() -> None:
    assert pytest.approx((63, 88)) == (CARD_WIDTH / MM, CARD_HEIGHT / MM)
    assert isinstance(plan_pages("d", [], PAPERS["A4"]), list)
    assert plan_pages("d", [], PAPERS["A4"]) == []
