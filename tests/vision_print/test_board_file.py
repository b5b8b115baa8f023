"""The board file: the packaged one agrees with the rules' board, bad ones are one clear line."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from companion.errors import UserError
from companion.games.memwars.board import PLACES, lattice
from vision.geometry import Board, load_board


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def test_the_memwars_board_has_every_place_once(board: Board) -> None:
    assert (board.game, board.width, board.height) == ("memwars", 420.0, 297.0)
    assert sorted(p.number for p in board.places) == list(PLACES)


def test_places_lie_in_the_order_of_the_rules_lattice(board: Board) -> None:
    for a, b in itertools.combinations(PLACES, 2):
        (ax, ay), (bx, by) = board.place(a).centre, board.place(b).centre
        (lx_a, ly_a), (lx_b, ly_b) = lattice(a), lattice(b)
        assert _sign(ax - bx) == _sign(lx_a - lx_b), (a, b)
        assert _sign(ay - by) == _sign(ly_a - ly_b), (a, b)


def test_every_place_disc_lies_on_the_sheet(board: Board) -> None:
    r = board.place_radius
    for place in board.places:
        x, y = place.centre
        assert r <= x <= board.width - r and r <= y <= board.height - r, place


def test_markers_keep_clear_of_places(board: Board) -> None:
    # One module of white round each marker (its quiet zone) stays clear of every disc.
    for marker in board.markers:
        module = marker.size / 6  # a 4 x 4 marker is 6 modules across, border included
        (left, top), _, (right, bottom), _ = marker.corners()
        for place in board.places:
            x, y = place.centre
            nearest = (min(max(x, left), right), min(max(y, top), bottom))
            gap = math.dist(nearest, place.centre) - board.place_radius
            assert gap >= module, (marker.id, place.number)


def test_markers_lie_on_the_sheet_apart(board: Board) -> None:
    for marker in board.markers:
        (left, top), _, (right, bottom), _ = marker.corners()
        assert left >= 0 and right <= board.width and top >= 0 and bottom <= board.height
    for a, b in itertools.combinations(board.markers, 2):
        apart = max(abs(a.centre[0] - b.centre[0]), abs(a.centre[1] - b.centre[1]))
        assert apart > (a.size + b.size) / 2, (a.id, b.id)


# ---- bad board files ---------------------------------------------------------------------


def board_text(*, head: str | None = None, first_id: int = 0, extra: str = "") -> str:
    """A small, valid board file; the arguments spoil it in one way."""
    head = head or (
        'name = "Tiny"\ngame = "tiny"\nwidth = 200.0\nheight = 100.0\n'
        'marker_dictionary = "DICT_4X4_50"\ncrystal_diameter = 8.0\ncounter_size = 11.0\n'
        "place_radius = 7.0\nzone_radius = 8.8\n"
    )
    ids = [first_id, 1, 2, 3]
    centres = [(10, 10), (190, 10), (10, 90), (190, 90)]
    markers = "".join(
        f"[[markers]]\nid = {i}\ncentre = [{x}, {y}]\nsize = 12.0\n\n"
        for i, (x, y) in zip(ids, centres, strict=True)
    )
    places = "[[places]]\nnumber = 1\ncentre = [100, 50]\n\n"
    deck = "[deck]\nleft = 120.0\ntop = 20.0\nwidth = 66.0\nheight = 60.0\n"
    return f"[board]\n{head}\n{markers}{places}{deck}{extra}"


def test_a_small_board_file_loads(tmp_path: Path) -> None:
    file = tmp_path / "tiny.toml"
    file.write_text(board_text())
    board = load_board(file)
    assert (board.name, len(board.markers), board.place(1).centre) == ("Tiny", 4, (100.0, 50.0))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (board_text(head='name = "Tiny"\ngame = "tiny"\n'), "missing"),
        (board_text(first_id=1), "two markers share an id"),
        ("[board\nname = 'x'\n", "not valid TOML"),
        (board_text().replace('"DICT_4X4_50"', '"DICT_9X9"'), "marker_dictionary"),
        (board_text().replace("centre = [100, 50]", "centre = [500, 50]"), "outside"),
    ],
)
def test_a_bad_board_file_is_one_line_naming_it(tmp_path: Path, text: str, reason: str) -> None:
    file = tmp_path / "bad.toml"
    file.write_text(text)
    with pytest.raises(UserError) as caught:
        load_board(file)
    message = str(caught.value)
    assert message.startswith(f"{file}: ") and reason in message and "\n" not in message


def test_a_missing_board_file(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no such board file"):
        load_board(tmp_path / "none.toml")
