"""The MeM board file and its print: 32 squares keyed by the engine's square numbers, no
claim diamonds or deck, and `companion print board --game mem`."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.errors import UserError
from companion.games.mem.board import SQUARES, geometry
from tests.vision_mem.helpers import MEM_BOARD, mem_board
from vision.geometry import load_board


def test_the_board_has_a_place_for_every_square_in_the_engine_layout() -> None:
    board = mem_board()
    assert board.game == "mem"
    assert [p.number for p in board.places] == list(range(SQUARES))
    cell = geometry().cell
    for place in board.places:
        row, column = cell[place.number]
        assert place.centre == (90 + 40 * column + 20, 28.5 + 40 * row + 20)
    assert [zone.key for zone in board.zones()] == [str(n) for n in range(SQUARES)]
    assert board.diamonds == ()
    assert board.deck.empty
    assert len(board.markers) == 24
    assert len(board.paper) >= 100


def test_the_calibration_squares_are_far_apart() -> None:
    board = mem_board()
    squares = board.calibration_places
    assert len(squares) >= 11
    cell = geometry().cell
    for i, a in enumerate(squares):
        for b in squares[i + 1 :]:
            (ra, ca), (rb, cb) = cell[a], cell[b]
            assert abs(ra - rb) + abs(ca - cb) > 1, (a, b)


def test_the_memwars_board_is_unchanged() -> None:
    board = load_board()
    assert len(board.places) == 100
    assert len(board.diamonds) == 4
    assert not board.deck.empty
    assert board.calibration_places == ()


def test_a_calibration_place_that_is_no_square_is_refused(tmp_path: Path) -> None:
    text = MEM_BOARD.read_text().replace("places = [0, 31,", "places = [40, 31,")
    bad = tmp_path / "bad.toml"
    bad.write_text(text)
    with pytest.raises(UserError, match="calibration place 40 is not a place"):
        load_board(bad)


@pytest.mark.parametrize("paper", ["A3", "Letter"])
def test_print_board_game_mem_writes_a_png_of_the_grid(
    tmp_path: Path, paper: str, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mem.png"
    code = main(["print", "board", "--game", "mem", "--paper", paper, "--out", str(out),
                 "--dpi", "60"])  # fmt: skip
    assert code == 0
    printed = capsys.readouterr()
    assert f"wrote {out}: the MeM board, {paper} at" in printed.out
    assert "warning" not in printed.err
    image = cv2.imread(str(out))
    assert image is not None
    assert image.shape[1] > image.shape[0]
    # Markers print black; the squares' lines grey; the rest is white paper.
    assert (image < 40).mean() > 0.03
    assert (image > 245).mean() > 0.8


def test_print_board_game_mem_writes_a_pdf(tmp_path: Path) -> None:
    out = tmp_path / "mem.pdf"
    assert main(["print", "board", "--game", "mem", "--out", str(out), "--dpi", "60"]) == 0
    assert out.read_bytes().startswith(b"%PDF")


def test_game_and_board_together_are_refused(tmp_path: Path) -> None:
    out = tmp_path / "x.png"
    code = main(["print", "board", "--game", "mem", "--board", str(MEM_BOARD), "--out", str(out)])
    assert code == 2
    assert not out.exists()


def test_the_calibration_plan_names_squares(capsys: pytest.CaptureFixture[str]) -> None:
    colours = "white,black,red,blue,green,yellow,orange,purple,brown,pink,grey"
    code = main(["vision", "calibrate", "--board", str(MEM_BOARD), "--colours", colours,
                 "--show-plan"])  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert out.startswith("Lay the board out empty, then put one white stone on square 0;")
    assert "one grey stone on square 14." in out
