"""The board tiled over small paper: whole markers, seams that line up, the single board."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.commands.print_cmd import DEFAULT_DECK
from companion.decks import find_deck
from companion.printing.board_print import board_picture
from companion.printing.board_sheet import MARGIN, BoardSheet
from companion.printing.board_tiles import (
    GLUE,
    LINE_GAP,
    MARK_RADIUS,
    Tile,
    TiledBoard,
    plan_board,
)
from companion.printing.layout import MM
from tests.vision_print.helpers import (
    Picture,
    marker_centres,
    media_box,
    needs_pdftoppm,
    page_count,
    pdf_pages,
)
from vision.geometry import BOARDS_DIR, Board, load_board

Output = pytest.CaptureFixture[str]
DPI = 100
PX_PER_MM = DPI / 25.4


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


def _tiled(board: Board, paper: str) -> TiledBoard:
    plan = plan_board(board, paper)
    assert isinstance(plan, TiledBoard)
    return plan


def _marker_span(board: Board, index: int, scale: float, axis: int) -> tuple[float, float]:
    """A marker and the white round it, along x (0) or y (1), on the printed board."""
    marker = board.markers[index]
    reach = marker.size / 2 + marker.size / 6
    return ((marker.centre[axis] - reach) * scale, (marker.centre[axis] + reach) * scale)


def test_small_paper_tiles_the_board_and_large_paper_does_not(board: Board) -> None:
    for paper, label in (("A4", "A4 at 87 %"), ("letter", "Letter at 88 %")):
        tiled = _tiled(board, paper)
        assert (tiled.label, tiled.sheets, tiled.warning()) == (label, 2, None)
        assert tiled.paper.height > tiled.paper.width  # portrait sheets side by side
    for paper in ("A3", "A2", "Tabloid"):
        assert isinstance(plan_board(board, paper), BoardSheet)
    # One sheet when asked for, with its warning; MeM's big squares fit one A4 sheet.
    single = plan_board(board, "A4", one_sheet=True)
    assert isinstance(single, BoardSheet) and single.warning() is not None
    mem = plan_board(load_board(BOARDS_DIR / "mem.toml"), "A4")
    assert isinstance(mem, BoardSheet) and mem.warning() is None


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_every_sheet_prints_inside_the_margins(board: Board, paper: str) -> None:
    tiled = _tiled(board, paper)
    for tile in tiled.tiles:
        drawing, page = tile.drawing, tile.paper
        assert drawing.left >= MARGIN - 1e-9 and drawing.top >= MARGIN - 1e-9
        assert drawing.right <= page.width - MARGIN + 1e-9
        assert tile.footer_baseline + LINE_GAP <= page.height - MARGIN + 1e-9
        for x, _ in tile.marks:
            assert tile.origin[0] + x - MARK_RADIUS >= MARGIN
            assert tile.origin[0] + x + MARK_RADIUS <= page.width - MARGIN


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_seams_cut_no_marker_and_sheets_overlap(board: Board, paper: str) -> None:
    tiled = _tiled(board, paper)
    first, second = tiled.tiles
    assert first.cut is not None and second.cut is None
    assert first.glue is None and second.glue is not None
    (seam, _), _ = first.cut
    # The strip the first sheet covers ends at the seam, and is at least a glue strip wide.
    assert second.glue.right == pytest.approx(seam)
    assert second.glue.width >= GLUE
    assert first.part.left == 0 and second.part.right == pytest.approx(tiled.size[0])
    assert first.part.right > seam > second.part.left
    # The marks on both sheets at the same board coordinates, on the seam.
    assert first.marks == second.marks and {x for x, _ in first.marks} == {seam}
    # No marker crosses the seam or a sheet's edge: each is whole on every sheet it is on.
    edges = [seam, first.part.right, second.part.left]
    for index in range(len(board.markers)):
        start, end = _marker_span(board, index, tiled.scale, axis=0)
        assert all(not start < edge < end for edge in edges), board.markers[index].id


def test_a_tall_board_tiles_down_landscape_sheets(board: Board) -> None:
    def turned(point: tuple[float, float]) -> tuple[float, float]:
        return point[1], point[0]

    markers = tuple(dataclasses.replace(m, centre=turned(m.centre)) for m in board.markers)
    tall = dataclasses.replace(board, width=board.height, height=board.width, markers=markers)
    tiled = _tiled(tall, "Letter")
    assert tiled.paper.width > tiled.paper.height
    first, second = tiled.tiles
    assert first.cut is not None
    (_, seam), (_, seam_too) = first.cut
    assert seam == seam_too and first.part.bottom > seam > second.part.top
    for index in range(len(tall.markers)):
        start, end = _marker_span(tall, index, tiled.scale, axis=1)
        assert not start < seam < end


def test_a_tiled_board_is_no_png(tmp_path: Path, capsys: Output) -> None:
    out = tmp_path / "board.png"
    assert main(["print", "board", "--paper", "A4", "--out", str(out), "--dpi", "50"]) == 2
    stdout, stderr = capsys.readouterr()
    assert stdout == "" and not out.exists()
    assert stderr == (
        "companion: error: on A4 the board prints on 2 sheets, which one PNG cannot hold: "
        "write a .pdf, or add --one-sheet\n"
    )
    argv = ["print", "board", "--paper", "A4", "--one-sheet", "--out", str(out), "--dpi", "50"]
    assert main(argv) == 0
    assert "A4 at 65 %" in capsys.readouterr().out


def _mark_centre(page: Picture, near: tuple[float, float]) -> tuple[float, float]:
    """A registration mark's centre in pixels: where its two arms, the darkest row and
    column round where it should be, cross."""
    x, y = round(near[0] * PX_PER_MM), round(near[1] * PX_PER_MM)
    reach = round(4 * PX_PER_MM)
    window = cv2.cvtColor(page[y - reach : y + reach, x - reach : x + reach], cv2.COLOR_BGR2GRAY)
    dark = (window < 128).astype(float)

    def line(sums: np.ndarray) -> float:
        peak = int(np.argmax(sums))
        around = np.arange(max(0, peak - 1), min(len(sums), peak + 2))
        return float(np.average(around, weights=sums[around] + 1e-9))

    return x - reach + line(dark.sum(axis=0)), y - reach + line(dark.sum(axis=1))


def _on_paper(tile: Tile, point: tuple[float, float]) -> tuple[float, float]:
    return tile.origin[0] + point[0], tile.origin[1] + point[1]


@needs_pdftoppm
def test_the_a4_sheets_put_together_are_the_single_board(
    tmp_path: Path, board: Board, capsys: Output
) -> None:
    out = tmp_path / "board.pdf"
    code = main(["print", "board", "--paper", "A4", "--out", str(out), "--dpi", str(DPI)])
    stdout, stderr = capsys.readouterr()
    assert code == 0 and stderr == ""
    assert stdout.splitlines()[0] == (
        f"wrote {out}: the MemWars board (Mythologies of Earth), A4 at 87 % "
        "(365.4 x 258.4 mm), 2 pages, one a sheet"
    )
    data = out.read_bytes()
    assert page_count(data) == 2
    assert media_box(data) == pytest.approx((210 * MM, 297 * MM), abs=0.01)
    tiled = _tiled(board, "A4")
    pages = pdf_pages(out, DPI)
    assert len(pages) == 2

    # Each sheet shows whole every marker its part holds, where the board file puts it.
    seen: set[int] = set()
    for tile, page in zip(tiled.tiles, pages, strict=True):
        found = marker_centres(page, board)
        held = {
            m.id
            for i, m in enumerate(board.markers)
            if tile.part.left <= _marker_span(board, i, tiled.scale, 0)[0]
            and _marker_span(board, i, tiled.scale, 0)[1] <= tile.part.right
        }
        assert set(found) == held, tile.number
        for marker in board.markers:
            if marker.id in found:
                scaled = (marker.centre[0] * tiled.scale, marker.centre[1] * tiled.scale)
                expected = _on_paper(tile, scaled)
                x, y = found[marker.id]
                assert math.dist((x / PX_PER_MM, y / PX_PER_MM), expected) < 0.5
        seen |= held
    assert seen == {m.id for m in board.markers}

    # Put together as a player does: the first sheet cut on the marks' line and laid on the
    # second with its marks on the second's marks.
    first, second = tiled.tiles
    marks_first = [_mark_centre(pages[0], _on_paper(first, m)) for m in first.marks]
    marks_second = [_mark_centre(pages[1], _on_paper(second, m)) for m in second.marks]
    shifts = [(a[0] - b[0], a[1] - b[1]) for a, b in zip(marks_first, marks_second, strict=True)]
    assert math.dist(*shifts) < 1.0  # the marks agree: no turn between the sheets
    dx, dy = np.mean(shifts, axis=0)
    cut = round(np.mean([x for x, _ in marks_first]))
    height, width = pages[1].shape[:2]
    moved = cv2.warpAffine(
        pages[1],
        np.array([[1, 0, dx], [0, 1, dy]], np.float32),
        (width + round(dx) + 1, height),
        borderValue=(255, 255, 255),
    )
    assembled = np.asarray(moved, np.uint8).copy()
    assembled[:, :cut] = pages[0][:, :cut]

    # The assembled board is the one-sheet board at the same scale.
    single = board_picture(board, tiled, DPI, find_deck(DEFAULT_DECK).quadrants)
    left, top = (round(v * PX_PER_MM) for v in first.origin)
    crop = assembled[top : top + single.shape[0], left : left + single.shape[1]]
    found = marker_centres(crop, board)
    assert sorted(found) == sorted(m.id for m in board.markers)
    for marker in board.markers:
        x, y = found[marker.id]
        expected = (marker.centre[0] * tiled.scale, marker.centre[1] * tiled.scale)
        assert math.dist((x / PX_PER_MM, y / PX_PER_MM), expected) < 0.5, marker.id
    # Pixel for pixel (give or take the pixel the renderer rounds to), but for the marks and
    # the cut line's half left on the seam.
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(int)
    expected_grey = cv2.cvtColor(single, cv2.COLOR_BGR2GRAY)
    assert grey.shape == expected_grey.shape
    near = np.ones((3, 3), np.uint8)
    darkest = cv2.erode(expected_grey, near).astype(int)
    lightest = cv2.dilate(expected_grey, near).astype(int)
    differs = (grey < darkest - 64) | (grey > lightest + 64)
    assert first.cut is not None
    seam, reach = round(first.cut[0][0] * PX_PER_MM), round(MARK_RADIUS * PX_PER_MM) + 2
    away = np.ones_like(differs)
    away[:, seam - reach : seam + reach] = False
    assert differs[away].mean() < 0.002
