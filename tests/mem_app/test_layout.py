"""Where squares and cells are drawn and which one a finger is on."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.games.mem.board import geometry
from companion.games.mem.screens.layout import BoardLayout, SpaceLayout

BOARD = BoardLayout(10, 20, 300, 300, geometry())


def centre(rect: tuple[float, float, float]) -> tuple[float, float]:
    x, y, size = rect
    return x + size / 2, y + size / 2


def test_every_square_is_found_at_its_centre_and_row_0_is_at_the_top() -> None:
    for square in range(32):
        assert BOARD.square_at(*centre(BOARD.square_rect(square))) == square
    assert BOARD.square_rect(0)[1] > BOARD.square_rect(31)[1]
    # The cut corners and the outside are no square.
    assert BOARD.square_at(15, 315) is None
    assert BOARD.square_at(5, 100) is None and BOARD.square_at(200, 330) is None


def test_a_flush_left_board_has_its_short_rows_at_the_left() -> None:
    flush = BoardLayout(0, 0, 300, 300, geometry("FLUSH_LEFT"))
    assert flush.square_at(25, 275) == 0


def test_an_empty_space_shows_the_first_cell_with_a_free_cell_all_round() -> None:
    space = SpaceLayout.around(0, 0, 200, 200, ())
    assert len(space.grid()) == 9
    assert space.cell_at(*centre(space.cell_rect((0, 0)))) == (0, 0)
    assert space.cell_at(*centre(space.cell_rect((-1, 1)))) == (-1, 1)
    assert space.cell_at(1, 1) is None  # the grid is centred, not in the corner


@given(st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=1, max_size=16))
def test_every_cell_drawn_is_found_at_its_centre(cells: list[tuple[int, int]]) -> None:
    space = SpaceLayout.around(40, 60, 280, 190, cells)
    for cell in space.grid():
        x, y, size = space.cell_rect(cell)
        assert 40 <= x <= x + size <= 320 + 1e-6
        assert 60 <= y <= y + size <= 250 + 1e-6
        assert space.cell_at(x + size / 2, y + size / 2) == cell
