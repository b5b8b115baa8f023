"""`companion print counters`: 36 tiles, pips a camera can count, backs behind their fronts."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.errors import UserError
from companion.games.memwars.printing.counter_sheet import (
    BLEED,
    MARGIN,
    counter_paper,
    counter_values,
    largest_size,
    plan_counter_sheet,
)
from companion.printing.layout import MM
from tests.vision_print.helpers import (
    Picture,
    media_box,
    needs_pdftoppm,
    page_count,
    pdf_pages,
    read_picture,
)
from vision.geometry import load_board

Output = pytest.CaptureFixture[str]


def white_blobs_per_tile(page: Picture, tile_px: float) -> list[int]:
    """For each dark tile on the page, in reading order: how many white shapes lie inside it.

    A tile, bleed included, is `tile_px` pixels across.
    """
    grey = cv2.cvtColor(page, cv2.COLOR_BGR2GRAY)
    inked = (grey < 200).astype(np.uint8)
    count, _, stats, _ = cv2.connectedComponentsWithStats(inked)
    boxes = [tuple(int(v) for v in stats[i, :4]) for i in range(1, count)]
    # Tiles are squares of a known size; the page note's words and a ring's inside are not.
    tiles = [b for b in boxes if abs(b[2] - tile_px) <= 3 and abs(b[3] - tile_px) <= 3]
    tiles.sort(key=lambda box: (box[1] // 10, box[0]))
    blobs = []
    for left, top, width, height in tiles:
        inside = (grey[top : top + height, left : left + width] > 200).astype(np.uint8)
        n, _, shapes, _ = cv2.connectedComponentsWithStats(inside)
        # White touching the box's edge is the paper round the tile, not a pip.
        blobs.append(
            sum(
                1
                for x, y, w, h, _ in shapes[1:n]
                if x > 0 and y > 0 and x + w < width and y + h < height
            )
        )
    return blobs


def test_the_sheet_holds_the_box(tmp_path: Path) -> None:
    sheet = plan_counter_sheet("A4", load_board().counter_size)
    assert Counter(t.value for t in sheet.tiles) == {5: 12, 3: 12, 2: 12}
    assert sheet.size == 11.0
    for tile in sheet.tiles:
        for area in (tile.front, tile.back):
            assert area.width == area.height == 11.0
            assert area.left - BLEED >= MARGIN and area.right + BLEED <= sheet.paper.width - MARGIN
            assert area.top - BLEED >= MARGIN and area.bottom + BLEED <= sheet.paper.height - MARGIN
        # A long-edge flip mirrors left and right: the back lands behind the front.
        assert tile.back.left == pytest.approx(sheet.paper.width - tile.front.right)
        assert tile.back.top == tile.front.top
    for a, b in itertools.combinations(sheet.tiles, 2):
        apart = max(abs(a.front.left - b.front.left), abs(a.front.top - b.front.top))
        assert apart >= 11.0 + 2 * BLEED  # bleeds never touch


def test_larger_counters_and_what_does_not_fit() -> None:
    sheet = plan_counter_sheet("letter", 25)
    assert len(sheet.tiles) == 36 and sheet.paper.name == "Letter"
    # An incomplete last row still puts each back behind its front.
    last = sheet.tiles[-1]
    assert last.back.left == pytest.approx(sheet.paper.width - last.front.right)
    biggest = largest_size(counter_paper("A4"))
    plan_counter_sheet("A4", biggest)
    with pytest.raises(UserError, match=f"do not fit on one sheet of A4: {biggest:g} mm at most"):
        plan_counter_sheet("A4", biggest + 0.5)
    with pytest.raises(UserError, match="too small"):
        plan_counter_sheet("A4", 3)
    with pytest.raises(UserError, match="unknown paper 'A3' for the counters"):
        plan_counter_sheet("A3", 11)
    assert counter_values() == (5,) * 12 + (3,) * 12 + (2,) * 12


def test_the_png_pips_can_be_counted(tmp_path: Path, capsys: Output) -> None:
    out = tmp_path / "counters.png"
    assert main(["print", "counters", "--out", str(out), "--dpi", "100"]) == 0
    stdout, stderr = capsys.readouterr()
    assert stderr == ""
    assert stdout == (
        f"wrote {out}: the fronts of 36 topology counters (12 each of 5, 3 and 2), 11 mm, A4, "
        "100 dpi\n"
    )
    page = read_picture(out)
    assert page.shape[:2] == (round(297 / 25.4 * 100), round(210 / 25.4 * 100))
    tile_px = (11 + 2 * BLEED) * 100 / 25.4
    assert white_blobs_per_tile(page, tile_px) == list(counter_values())


@needs_pdftoppm
def test_the_pdf_has_fronts_then_backs(tmp_path: Path, capsys: Output) -> None:
    out = tmp_path / "counters.pdf"
    argv = ["print", "counters", "--paper", "Letter", "--size", "12", "--out", str(out)]
    assert main([*argv, "--dpi", "100"]) == 0
    stdout, _ = capsys.readouterr()
    assert stdout.splitlines() == [
        f"wrote {out}: 36 topology counters (12 each of 5, 3 and 2), 12 mm, on one sheet of "
        "Letter (fronts, backs)",
        "print double-sided, flip on the long edge, at actual size (100%, not fit to page)",
    ]
    data = out.read_bytes()
    assert page_count(data) == 2
    assert media_box(data) == pytest.approx((8.5 * 72, 11 * 72), abs=0.01)
    fronts, backs = pdf_pages(out, 100)
    tile_px = (12 + 2 * BLEED) * 100 / 25.4
    assert white_blobs_per_tile(fronts, tile_px) == list(counter_values())
    assert white_blobs_per_tile(backs, tile_px) == [1] * 36  # the ring, one white shape each
    # Back pages mirror the fronts: dark where the mirrored front is dark.
    sheet = plan_counter_sheet("Letter", 12)
    px = 100 / 25.4
    for tile in sheet.tiles:
        x, y = round((tile.back.left + 0.5) * px), round((tile.back.top + 0.5) * px)
        assert backs[y, x].max() < 100
    assert round(sheet.paper.width * MM) == 612


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--paper", "A3", "--out", "{tmp}/c.pdf"], "unknown paper 'A3' for the counters"),
        (["--out", "{tmp}/c.svg"], "name a .pdf or a .png file"),
        (["--out", "{tmp}/folder.pdf"], "it is a directory"),
        (["--out", "{tmp}/c.pdf", "--size", "huge"], "--size must be a length in millimetres"),
        (["--out", "{tmp}/c.pdf", "--size", "-4"], "--size must be a positive length"),
        (["--out", "{tmp}/c.pdf", "--size", "200"], "do not fit on one sheet of A4"),
        (["--out", "{tmp}/c.pdf", "--dpi", "10"], "--dpi must be 50 to 600, not 10"),
    ],
)
def test_errors_are_one_line(tmp_path: Path, capsys: Output, argv: list[str], message: str) -> None:
    (tmp_path / "folder.pdf").mkdir()
    code = main(["print", "counters", *(a.format(tmp=tmp_path) for a in argv)])
    stdout, stderr = capsys.readouterr()
    assert (code, stdout) == (2, "")
    assert stderr.startswith("companion: error: ") and stderr.count("\n") == 1
    assert message in stderr
    assert [p.name for p in tmp_path.iterdir()] == ["folder.pdf"]
