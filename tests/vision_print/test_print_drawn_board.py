"""`companion print board --game GAME` for a game with no board file: its empty board as the
plugin draws it, every point whole on the paper, at the size the command says."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.games import find_plugin
from companion.printing.layout import MM
from tests.vision_print.helpers import media_box, page_count, read_picture

Output = pytest.CaptureFixture[str]
PLUGIN = find_plugin("memento")


def points_seen(picture: np.ndarray) -> int:
    """The white discs of the board's points, counted."""
    grey = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY)
    white = (grey > 245).astype(np.uint8)
    _count, _labels, stats, _centres = cv2.connectedComponentsWithStats(white)
    areas = stats[1:, cv2.CC_STAT_AREA]
    return int(np.sum(areas > 0.5 * np.median(areas)))


@pytest.mark.parametrize(
    ("rule", "points"), [("ml.geometry=SEPARATE", 28), ("ml.geometry=SHARED", 19)]
)
def test_the_png_shows_every_point_of_the_board(
    tmp_path: Path, capsys: Output, rule: str, points: int
) -> None:
    out = tmp_path / "board.png"
    args = ["--game", "memento", "--house-rule", rule, "--out", str(out), "--dpi", "60"]
    code = main(["print", "board", *args])
    assert code == 0
    said = capsys.readouterr().out
    assert "the memento ludis board, A3" in said
    picture = read_picture(out)
    assert points_seen(picture) == points
    # Nothing touches the picture's edge: the points on the board's edge are whole.
    edge = np.concatenate([picture[0], picture[-1], picture[:, 0], picture[:, -1]])
    background = picture[0, 0]
    assert np.all(np.abs(edge.astype(int) - background.astype(int)) < 8)


def test_the_pdf_is_one_page_of_the_paper_asked(tmp_path: Path, capsys: Output) -> None:
    out = tmp_path / "board.pdf"
    assert main(["print", "board", "--game", "memento", "--paper", "A4", "--out", str(out)]) == 0
    data = out.read_bytes()
    assert page_count(data) == 1
    width, height = media_box(data)
    assert (round(width / MM), round(height / MM)) == (297, 210)
    assert "one page" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args",
    [
        ["--house-rule", "ml.geometry=ROUND"],
        ["--house-rule", "geometry"],
        ["--house-rule", "no.such.rule=1"],
    ],
)
def test_a_bad_house_rule_is_one_line_and_exit_2(
    tmp_path: Path, capsys: Output, args: list[str]
) -> None:
    out = tmp_path / "board.png"
    assert main(["print", "board", "--game", "memento", "--out", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not out.exists()


def test_a_house_rule_is_refused_for_a_board_file(tmp_path: Path, capsys: Output) -> None:
    out = tmp_path / "board.png"
    args = ["print", "board", "--game", "mem", "--house-rule", "x=1", "--out", str(out)]
    assert main(args) == 2
    assert "--house-rule" in capsys.readouterr().err
