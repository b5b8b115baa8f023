"""`companion print board`: the printed markers are where the board file says, at its scale."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from companion.cli import main
from companion.printing.board_sheet import plan_board_sheet
from companion.printing.layout import MM
from tests.vision_print.helpers import (
    marker_centres,
    media_box,
    needs_pdftoppm,
    page_count,
    pdf_pages,
    read_picture,
)
from vision.geometry import Board, load_board

Output = pytest.CaptureFixture[str]
MM_PER_INCH = 25.4


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


def _assert_markers_where_the_file_says(
    found: dict[int, tuple[float, float]],
    board: Board,
    px_per_mm: float,
    origin: tuple[float, float],
    scale: float,
) -> None:
    """Every marker found, each within 1 printed millimetre of its place on the paper."""
    assert sorted(found) == sorted(m.id for m in board.markers)
    for marker in board.markers:
        x, y = found[marker.id]
        expected = (origin[0] + marker.centre[0] * scale, origin[1] + marker.centre[1] * scale)
        assert math.dist((x / px_per_mm, y / px_per_mm), expected) < 1.0, marker.id


def test_the_png_shows_every_marker_in_place(tmp_path: Path, board: Board, capsys: Output) -> None:
    out = tmp_path / "board.png"
    assert main(["print", "board", "--paper", "A3", "--out", str(out), "--dpi", "100"]) == 0
    stdout, stderr = capsys.readouterr()
    assert stderr == ""
    assert stdout.splitlines()[0].startswith(
        f"wrote {out}: the MemWars board (Mythologies of Earth), A3 at 94 % (394.8 x 279.2 mm), "
    )
    picture = read_picture(out)
    # 394.8 mm at 100 dpi
    assert picture.shape[:2] == (round(297 * 0.94 * 100 / 25.4), round(420 * 0.94 * 100 / 25.4))
    assert Image.open(out).info["dpi"] == pytest.approx((100, 100), abs=0.01)
    found = marker_centres(picture, board)
    _assert_markers_where_the_file_says(found, board, 100 / MM_PER_INCH, (0, 0), 0.94)
    assert [p.name for p in tmp_path.iterdir()] == ["board.png"]  # no temp file left


@needs_pdftoppm
@pytest.mark.parametrize(("paper", "size"), [("A3", (420, 297)), ("A2", (594, 420))])
def test_the_pdf_page_shows_every_marker_in_place(
    tmp_path: Path, board: Board, capsys: Output, paper: str, size: tuple[float, float]
) -> None:
    out = tmp_path / "board.pdf"
    code = main(["print", "board", "--paper", paper, "--out", str(out), "--dpi", "60"])
    stdout, _ = capsys.readouterr()
    assert code == 0 and "one page" in stdout
    data = out.read_bytes()
    assert page_count(data) == 1
    assert media_box(data) == pytest.approx((size[0] * MM, size[1] * MM), abs=0.01)
    sheet = plan_board_sheet(board, paper)
    (page,) = pdf_pages(out, 50)
    origin = (sheet.drawing.left, sheet.drawing.top)
    found = marker_centres(page, board)
    _assert_markers_where_the_file_says(found, board, 50 / MM_PER_INCH, origin, sheet.scale)


@needs_pdftoppm
def test_the_pdf_footer_says_how_to_print(tmp_path: Path, capsys: Output) -> None:
    out = tmp_path / "board.pdf"
    argv = ["print", "board", "--paper", "letter", "--one-sheet", "--out", str(out)]
    assert main([*argv, "--dpi", "50"]) == 0
    _, stderr = capsys.readouterr()
    assert stderr == (
        "companion: warning: Letter at 64 %: small, crystals up to ~6 mm (places print 9.0 mm "
        "across; the board is drawn for 8 mm crystals)\n"
    )
    text = subprocess.run(
        ["pdftotext", str(out), "-"], check=True, capture_output=True, text=True
    ).stdout
    assert "MemWars board" in text and "Letter at 64 % (268.8 x 190.1 mm)" in text
    assert "print at 100 % / actual size" in text


def test_a_hand_made_board_and_another_deck(tmp_path: Path, capsys: Output) -> None:
    from tests.vision_print.test_board_file import board_text

    file = tmp_path / "tiny.toml"
    file.write_text(board_text())
    out = tmp_path / "tiny.png"
    code = main(["print", "board", "--board", str(file), "--out", str(out), "--dpi", "50"])
    stdout, _ = capsys.readouterr()
    assert code == 0 and "the Tiny board" in stdout
    found = marker_centres(read_picture(out), load_board(file))
    assert sorted(found) == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--paper", "A5", "--out", "{tmp}/b.pdf"], "unknown paper 'A5' for the board"),
        (["--paper", "A4", "--out", "{tmp}/b.png"], "which one PNG cannot hold"),
        (["--out", "{tmp}/b.jpg"], "cannot write {tmp}/b.jpg: name a .pdf or a .png file"),
        (["--out", "{tmp}/none/b.pdf"], "cannot write {tmp}/none/b.pdf: no such directory"),
        (["--out", "{tmp}/b.pdf", "--dpi", "many"], "--dpi must be a whole number, not 'many'"),
        (["--out", "{tmp}/b.pdf", "--dpi", "5000"], "--dpi must be 50 to 600, not 5000"),
        (["--out", "{tmp}/b.pdf", "--board", "{tmp}/none.toml"], "none.toml: no such board"),
        (["--out", "{tmp}/b.pdf", "--board", "{tmp}/bad.toml"], "bad.toml: not valid TOML"),
        (["--out", "{tmp}/b.pdf", "--deck", "no-such-deck"], "unknown deck 'no-such-deck'"),
    ],
)
def test_errors_are_one_line(tmp_path: Path, capsys: Output, argv: list[str], message: str) -> None:
    (tmp_path / "bad.toml").write_text("[board\n")
    code = main(["print", "board", *(a.format(tmp=tmp_path) for a in argv)])
    stdout, stderr = capsys.readouterr()
    assert (code, stdout) == (2, "")
    assert stderr.startswith("companion: error: ") and stderr.count("\n") == 1
    assert message.format(tmp=tmp_path) in stderr
    assert list(tmp_path.glob("b.*")) == []


def test_the_command_line_starts_without_opencv() -> None:
    code = (
        "import sys\n"
        "from companion.cli import main\n"
        "main(['print', 'board', '--help'])\n"
        "print(sorted(m for m in ('cv2', 'numpy', 'vision.board_art') if m in sys.modules))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    )
    assert "--paper A4|A3|A2|Letter|Tabloid" in result.stdout
    assert result.stdout.splitlines()[-1] == "[]"


def test_a_failed_write_leaves_the_old_file(
    tmp_path: Path, capsys: Output, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "board.png"
    out.write_bytes(b"old")

    def failing_replace(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    assert main(["print", "board", "--out", str(out), "--dpi", "50"]) == 2
    _, stderr = capsys.readouterr()
    assert stderr == f"companion: error: cannot write {out}: No space left on device\n"
    assert out.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["board.png"]
