"""The MeM board: 32 squares in rows of 4, 6, 6, 6, 6, 4 (MEM-C1), orthogonal adjacency
(MEM-C3), and the bit layout the fast rules code works in.

Squares are numbered 0..31 in reading order (top row first, left to right) and sit at
(row, column) on a 6 x 6 grid. House rule mem.board.align (MEM-A01) decides where the
short rows sit: CENTRED (columns 1..4, the default) or FLUSH_LEFT (columns 0..3).

Bitboards put (row, column) at bit row * 8 + column, so a translation by (dr, dc) is a
shift by dr * 8 + dc and nothing wraps from one row into the next.

    geo = geometry("CENTRED")
    geo.square_at[(0, 1)]      # 0
    geo.cell[31]               # (5, 4)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

ROWS = 6
COLS = 6
WIDTH = 8
"""Bits per row in a bitboard: two spare columns keep shifts from wrapping."""
ROW_LENGTHS = (4, 6, 6, 6, 6, 4)
SQUARES = 32
GRID = sum(((1 << COLS) - 1) << (r * WIDTH) for r in range(ROWS))
"""Every (row, column) of the 6 x 6 grid, squares or not."""


def bit_at(row: int, col: int) -> int:
    return 1 << (row * WIDTH + col)


@dataclass(frozen=True)
class Geometry:
    align: str
    cell: tuple[tuple[int, int], ...]
    """cell[square] is its (row, column)."""
    square_at: dict[tuple[int, int], int] = field(compare=False)
    bit: tuple[int, ...] = field(compare=False)
    """bit[square] is its bitboard bit."""
    square_of_bit: dict[int, int] = field(compare=False)
    """Bit position (not the bit itself) to square number."""
    mask: int = field(compare=False)
    """All 32 squares as a bitboard."""
    edge: int = field(compare=False)
    """Squares with a side that faces no square (the rim or a cut corner), MEM-A04."""

    def neighbours(self, bits: int) -> int:
        """The squares orthogonally next to any of `bits`, `bits` included."""
        return (bits | (bits << 1) | (bits >> 1) | (bits << WIDTH) | (bits >> WIDTH)) & self.mask

    def squares(self, bits: int) -> list[int]:
        """The squares of a bitboard, in square order."""
        out = []
        while bits:
            low = bits & -bits
            out.append(self.square_of_bit[low.bit_length() - 1])
            bits ^= low
        out.sort()
        return out

    def bits_of(self, squares: list[int] | tuple[int, ...]) -> int:
        out = 0
        for square in squares:
            out |= self.bit[square]
        return out


@cache
def geometry(align: str = "CENTRED") -> Geometry:
    """The board for house rule mem.board.align: CENTRED or FLUSH_LEFT."""
    if align not in ("CENTRED", "FLUSH_LEFT"):
        raise ValueError(f"unknown board alignment {align!r}")
    cells: list[tuple[int, int]] = []
    for row, length in enumerate(ROW_LENGTHS):
        start = (COLS - length) // 2 if align == "CENTRED" else 0
        cells.extend((row, start + i) for i in range(length))
    square_at = {cell: i for i, cell in enumerate(cells)}
    bits = tuple(bit_at(r, c) for r, c in cells)
    mask = 0
    for b in bits:
        mask |= b
    edge = 0
    for (r, c), b in zip(cells, bits, strict=True):
        if any((r + dr, c + dc) not in square_at for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))):
            edge |= b
    return Geometry(
        align=align,
        cell=tuple(cells),
        square_at=square_at,
        bit=bits,
        square_of_bit={b.bit_length() - 1: i for i, b in enumerate(bits)},
        mask=mask,
        edge=edge,
    )
