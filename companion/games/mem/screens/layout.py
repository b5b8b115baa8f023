"""Where the MeM board's squares and a playing space's cells are drawn, and which one a
finger is on: plain arithmetic, so that it is tested without a screen.

Coordinates are the window's: x to the right, y up (Kivy's), so row 0 is at the top.

    board = BoardLayout(x, y, width, height, geometry())
    board.square_at(px, py)          # 0..31, or None between squares and off the board
    space = SpaceLayout(x, y, width, height, cells=((0, 0), (0, 1)))
    space.cell_at(px, py)            # (row, col) of the grid drawn, or None
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.games.mem.board import COLS, ROWS, Geometry

Rect = tuple[float, float, float]
"""(x, y, size) of a square cell: its lower left corner and its side."""

GAP = 0.06
"""The part of a square's pitch left between squares."""
SPACE_MARGIN = 1
"""Free cells drawn around a pattern: where its next stone may go."""
MAX_CELL = 46.0
"""A playing space's cells are never drawn larger than a board square would be."""


@dataclass(frozen=True)
class BoardLayout:
    x: float
    y: float
    width: float
    height: float
    geo: Geometry

    @property
    def pitch(self) -> float:
        return min(self.width / COLS, self.height / ROWS)

    def _origin(self) -> tuple[float, float]:
        side_x, side_y = self.pitch * COLS, self.pitch * ROWS
        return self.x + (self.width - side_x) / 2, self.y + (self.height - side_y) / 2

    def square_rect(self, square: int) -> Rect:
        row, col = self.geo.cell[square]
        ox, oy = self._origin()
        pitch = self.pitch
        gap = pitch * GAP
        return (ox + col * pitch + gap / 2, oy + (ROWS - 1 - row) * pitch + gap / 2, pitch - gap)

    def square_at(self, px: float, py: float) -> int | None:
        ox, oy = self._origin()
        pitch = self.pitch
        if pitch <= 0:
            return None
        col = int((px - ox) // pitch)
        row = ROWS - 1 - int((py - oy) // pitch)
        if not (0 <= col < COLS and 0 <= row < ROWS) or px < ox or py < oy:
            return None
        return self.geo.square_at.get((row, col))


@dataclass(frozen=True)
class SpaceLayout:
    """A playing space: the pattern's cells with a free margin around them, as large as
    fits, centred; an empty space shows the cell (0, 0) where a pattern starts."""

    x: float
    y: float
    width: float
    height: float
    cells: tuple[tuple[int, int], ...]

    @classmethod
    def around(
        cls, x: float, y: float, width: float, height: float, cells: Iterable[tuple[int, int]]
    ) -> SpaceLayout:
        return cls(x, y, width, height, tuple(cells))

    @property
    def rows(self) -> tuple[int, int]:
        """The first and last row drawn."""
        rows = [r for r, _ in self.cells] or [0]
        return min(rows) - SPACE_MARGIN, max(rows) + SPACE_MARGIN

    @property
    def cols(self) -> tuple[int, int]:
        cols = [c for _, c in self.cells] or [0]
        return min(cols) - SPACE_MARGIN, max(cols) + SPACE_MARGIN

    @property
    def pitch(self) -> float:
        (top, bottom), (left, right) = self.rows, self.cols
        return min(self.width / (right - left + 1), self.height / (bottom - top + 1), MAX_CELL)

    def _origin(self) -> tuple[float, float]:
        (top, bottom), (left, right) = self.rows, self.cols
        pitch = self.pitch
        return (
            self.x + (self.width - pitch * (right - left + 1)) / 2,
            self.y + (self.height - pitch * (bottom - top + 1)) / 2,
        )

    def grid(self) -> list[tuple[int, int]]:
        """Every cell drawn, top row first."""
        (top, bottom), (left, right) = self.rows, self.cols
        return [(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)]

    def cell_rect(self, cell: tuple[int, int]) -> Rect:
        (_top, bottom), (left, _right) = self.rows, self.cols
        ox, oy = self._origin()
        pitch = self.pitch
        gap = pitch * GAP
        return (
            ox + (cell[1] - left) * pitch + gap / 2,
            oy + (bottom - cell[0]) * pitch + gap / 2,
            pitch - gap,
        )

    def cell_at(self, px: float, py: float) -> tuple[int, int] | None:
        (top, bottom), (left, right) = self.rows, self.cols
        ox, oy = self._origin()
        pitch = self.pitch
        if pitch <= 0 or px < ox or py < oy:
            return None
        col = left + int((px - ox) // pitch)
        row = bottom - int((py - oy) // pitch)
        if not (left <= col <= right and top <= row <= bottom):
            return None
        return (row, col)
