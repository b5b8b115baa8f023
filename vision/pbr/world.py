"""Where the sheet lies on the table: board millimetres (x right, y down the sheet, height
up) to world millimetres (right-handed, z up, the table at z = 0).

    world = to_world(table, xs, ys, zs)     # (n, 3)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.geometry import Board
from vision.pbr.conditions import SheetShape
from vision.pbr.sheet import height_at

Floats = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Table:
    width: float
    height: float
    turn: float
    """Degrees."""
    shift: tuple[float, float]
    shape: SheetShape

    @classmethod
    def of(cls, board: Board, shape: SheetShape) -> Table:
        return cls(board.width, board.height, shape.turn, shape.shift, shape)


def to_world(table: Table, xs: Floats, ys: Floats, zs: Floats) -> Floats:
    xs, ys, zs = (np.asarray(v, np.float64) for v in (xs, ys, zs))
    c, s = math.cos(math.radians(table.turn)), math.sin(math.radians(table.turn))
    dx, dy = xs - table.width / 2, ys - table.height / 2
    x = c * dx - s * dy + table.shift[0]
    y = s * dx + c * dy + table.shift[1]
    # Seen from above, the sheet's y runs down the picture: the world's y runs up.
    return np.stack([x, -y, zs], axis=-1)


def direction_to_world(table: Table, vectors: Floats) -> Floats:
    """Directions (x, y, height) in board terms -> world directions."""
    v = np.asarray(vectors, np.float64)
    c, s = math.cos(math.radians(table.turn)), math.sin(math.radians(table.turn))
    x = c * v[..., 0] - s * v[..., 1]
    y = s * v[..., 0] + c * v[..., 1]
    return np.stack([x, -y, v[..., 2]], axis=-1)


def on_sheet(table: Table, xs: Floats, ys: Floats, above: Floats | float = 0.0) -> Floats:
    """World points at board points, `above` millimetres over the sheet's surface there."""
    zs = height_at(table.shape, table.width, table.height, np.asarray(xs), np.asarray(ys))
    return to_world(table, xs, ys, zs + above)


def sheet_corners(table: Table) -> Floats:
    xs = np.array([0.0, table.width, table.width, 0.0])
    ys = np.array([0.0, 0.0, table.height, table.height])
    return on_sheet(table, xs, ys)
