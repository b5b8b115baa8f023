from __future__ import annotations

import pytest

from companion.games.memwars.board import (
    BOARD_DIAGONALS,
    PLACES,
    Address,
    Edge,
    address,
    lattice,
    place_at_table,
    place_number,
    quadrant_diagonals,
    table_position,
)


@pytest.mark.parametrize(
    ("place", "expected"),
    [
        (1, (1, 1, 1)),
        (7, (1, 2, 2)),
        (13, (1, 3, 3)),
        (38, (2, 3, 3)),
        (50, (2, 5, 5)),
        (76, (4, 1, 1)),
        (96, (4, 5, 1)),
        (99, (4, 5, 4)),
        (100, (4, 5, 5)),
    ],
)
def test_address_vectors(place: int, expected: tuple[int, int, int]) -> None:
    assert address(place) == Address(*expected)
    assert place_number(*expected) == place


def test_corners_and_lattice() -> None:
    assert lattice(1) == (0, 0)
    assert lattice(7) == (8, 0)
    assert lattice(100) == (17, 17)
    assert len({lattice(p) for p in PLACES}) == 100


def test_diagonals_match_the_lattice_reading() -> None:
    assert quadrant_diagonals(1) == (
        (1, 3, 5, 11, 13, 15, 21, 23, 25),
        (7, 8, 9, 12, 13, 14, 17, 18, 19),
    )
    assert BOARD_DIAGONALS[1] == (
        32,
        33,
        34,
        37,
        38,
        39,
        42,
        43,
        44,
        57,
        58,
        59,
        62,
        63,
        64,
        67,
        68,
        69,
    )


@pytest.mark.parametrize("north", list(Edge))
def test_orientation_rotates_but_never_renumbers(north: Edge) -> None:
    for place in PLACES:
        assert place_at_table(*table_position(place, north), north) == place


def test_north_at_bottom_puts_place_1_in_the_far_corner() -> None:
    assert table_position(1, Edge.BOTTOM) == (17, 17)
    assert table_position(1, Edge.RIGHT) == (17, 0)
