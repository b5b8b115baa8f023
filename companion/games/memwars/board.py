"""The Macunx: 4 quadrants x 5 quincunxes x 5 places, numbered 1..100.

Within a quincunx places go in a "Z" (upper left, upper right, centre, lower left, lower
right); quincunxes within a quadrant and quadrants within the board follow the same Z, so
place 1 is the north-west corner and place 100 the south-east corner (rule MW-B5).

    >>> address(38)
    Address(quadrant=2, quincunx=3, spot=3)
    >>> lattice(13)
    (4, 4)
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

PLACES = tuple(range(1, 101))
QUADRANTS = (1, 2, 3, 4)
QUADRANT_COMPASS = {1: "north-west", 2: "north-east", 3: "south-west", 4: "south-east"}

# Z-order offsets on a 3x3 grid (x east, y south) for positions 1..5 (MW-B7).
_Z = {1: (0, 0), 2: (2, 0), 3: (1, 1), 4: (0, 2), 5: (2, 2)}
_QUADRANT_CELL = {1: (0, 0), 2: (1, 0), 3: (0, 1), 4: (1, 1)}
LATTICE_SIZE = 18


class Address(NamedTuple):
    quadrant: int
    quincunx: int
    spot: int
    """The place's position within its quincunx, 1..5 in Z order (3 is the centre)."""


def address(place: int) -> Address:
    """(quadrant, quincunx, spot) of a place (MW-B6)."""
    n = place - 1
    return Address(n // 25 + 1, (n % 25) // 5 + 1, n % 5 + 1)


def place_number(quadrant: int, quincunx: int, spot: int) -> int:
    return 25 * (quadrant - 1) + 5 * (quincunx - 1) + spot


def quadrant_of(place: int) -> int:
    return (place - 1) // 25 + 1


def local_index(place: int) -> int:
    """1..25 within the place's quadrant."""
    return (place - 1) % 25 + 1


def lattice(place: int) -> tuple[int, int]:
    """(x, y) on the 18 x 18 lattice, x east and y south from the north-west corner."""
    q, k, p = address(place)
    qx, qy = _QUADRANT_CELL[q]
    kx, ky = _Z[k]
    px, py = _Z[p]
    return 9 * qx + 3 * kx + px, 9 * qy + 3 * ky + py


_BY_LATTICE = {lattice(p): p for p in PLACES}


def place_at(x: int, y: int) -> int | None:
    """The place at lattice (x, y), or None where the lattice has no place."""
    return _BY_LATTICE.get((x, y))


def quadrant_places(quadrant: int) -> tuple[int, ...]:
    start = 25 * (quadrant - 1)
    return tuple(range(start + 1, start + 26))


def quincunx_places(quadrant: int, quincunx: int) -> tuple[int, ...]:
    start = place_number(quadrant, quincunx, 1)
    return tuple(range(start, start + 5))


QUINCUNXES: tuple[tuple[int, ...], ...] = tuple(
    quincunx_places(q, k) for q in QUADRANTS for k in range(1, 6)
)
CENTRE_PLACES = frozenset(p for p in PLACES if address(p).spot == 3)
CENTRE_QUINCUNX_PLACES = frozenset(p for p in PLACES if address(p).quincunx == 3)


def _diagonal(points: list[tuple[int, int]]) -> tuple[int, ...]:
    found = (place_at(x, y) for x, y in points)
    return tuple(sorted(p for p in found if p is not None))


def quadrant_diagonals(quadrant: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The quadrant's NW-SE and NE-SW lattice diagonals, 9 places each (MW-B12, MW-A30)."""
    ox, oy = 9 * _QUADRANT_CELL[quadrant][0], 9 * _QUADRANT_CELL[quadrant][1]
    falling = _diagonal([(ox + i, oy + i) for i in range(9)])
    rising = _diagonal([(ox + 8 - i, oy + i) for i in range(9)])
    return falling, rising


BOARD_DIAGONALS: tuple[tuple[int, ...], tuple[int, ...]] = (
    _diagonal([(i, i) for i in range(LATTICE_SIZE)]),
    _diagonal([(LATTICE_SIZE - 1 - i, i) for i in range(LATTICE_SIZE)]),
)


class Edge(Enum):
    """A physical edge of the table, as seen from the camera: where the board's North faces."""

    TOP = "top"
    RIGHT = "right"
    BOTTOM = "bottom"
    LEFT = "left"

    @property
    def quarter_turns(self) -> int:
        """Clockwise quarter turns from the board's North to this edge."""
        return {"top": 0, "right": 1, "bottom": 2, "left": 3}[self.value]


def table_position(place: int, north: Edge) -> tuple[int, int]:
    """Lattice (column, row) of a place as seen from the table, with North at `north`.

    Orientation never changes a place's number (MW-B11); it only rotates the picture.
    """
    x, y = lattice(place)
    last = LATTICE_SIZE - 1
    for _ in range(north.quarter_turns):
        x, y = last - y, x
    return x, y


def place_at_table(column: int, row: int, north: Edge) -> int | None:
    """The inverse of table_position."""
    last = LATTICE_SIZE - 1
    x, y = column, row
    for _ in range(north.quarter_turns):
        x, y = y, last - x
    return place_at(x, y)
