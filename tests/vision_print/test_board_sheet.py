"""Fitting the board to paper: whole-percent scales, inside the margins, crystals' room."""

from __future__ import annotations

import dataclasses

import pytest

from companion.errors import UserError
from companion.printing.board_sheet import (
    BOARD_PAPERS,
    FOOTER_BAND,
    MARGIN,
    board_paper,
    plan_board_sheet,
)
from vision.geometry import Board, load_board


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


@pytest.mark.parametrize(
    ("paper", "label", "warns"),
    [
        ("A3", "A3 at 94 %", False),
        ("a2", "A2 at 136 %", False),
        ("Letter", "Letter at 64 %", True),
        ("TABLOID", "Tabloid at 89 %", False),
    ],
)
def test_each_paper(board: Board, paper: str, label: str, warns: bool) -> None:
    sheet = plan_board_sheet(board, paper)
    assert sheet.label == label
    assert (sheet.warning() is not None) == warns
    drawing, page = sheet.drawing, sheet.paper
    assert page.width > page.height  # landscape, like the board
    # Exactly the scale, uniformly, the whole sheet of the board file.
    assert drawing.width == pytest.approx(board.width * sheet.scale)
    assert drawing.height == pytest.approx(board.height * sheet.scale)
    # Centred across, inside the margins, with the footer in its band under the drawing.
    assert drawing.left == pytest.approx(page.width - drawing.right)
    assert drawing.left >= MARGIN and drawing.top >= MARGIN
    assert drawing.bottom + FOOTER_BAND <= page.height - MARGIN + 1e-9
    assert drawing.bottom < sheet.footer_baseline <= page.height - MARGIN
    # The largest whole percent that does so.
    bigger = sheet.scale + 0.01
    assert (
        board.width * bigger > page.width - 2 * MARGIN
        or board.height * bigger > page.height - 2 * MARGIN - FOOTER_BAND
    )


def test_small_places_warn_with_the_crystals_that_fit(board: Board) -> None:
    sheet = plan_board_sheet(board, "Letter")
    assert sheet.place_diameter == pytest.approx(14 * 0.64)
    assert sheet.warning() == (
        "Letter at 64 %: small, crystals up to ~6 mm (places print 9.0 mm across; "
        "the board is drawn for 8 mm crystals)"
    )
    # The same paper with smaller crystals is fine.
    small = dataclasses.replace(board, crystal_diameter=5.5)
    assert plan_board_sheet(small, "Letter").warning() is None


def test_a_tall_board_turns_the_paper(board: Board) -> None:
    tall = dataclasses.replace(board, width=board.height, height=board.width)
    sheet = plan_board_sheet(tall, "A3")
    assert (sheet.paper.width, sheet.paper.height) == (297.0, 420.0)
    assert sheet.label == "A3 at 96 %"  # the footer band now lies along the long side


def test_unknown_paper_and_too_large_a_board(board: Board) -> None:
    with pytest.raises(UserError, match=r"unknown paper 'A5' for the board \(known: A4, A3"):
        board_paper("A5")
    huge = dataclasses.replace(board, width=board.width * 20, height=board.height * 20)
    with pytest.raises(UserError, match="use larger paper"):
        plan_board_sheet(huge, "Letter")
    assert set(BOARD_PAPERS) == {"A4", "A3", "A2", "Letter", "Tabloid"}
