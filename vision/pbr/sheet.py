"""The printed sheet as a surface that is not flat: bowed, a corner curled up, creased
where it was folded for the box.

Heights are millimetres above the table at board millimetres (x right, y down the sheet);
the mesh is a fine grid over the sheet with its print's texture coordinates, and normals
from the height field so the light rolls smoothly over a bow and catches a crease.

    lift = height_at(shape, board_width, board_height, xs, ys)
    mesh = sheet_mesh(shape, board_width, board_height)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.pbr.conditions import SheetShape

Floats = NDArray[np.float64]
GRID_MM = 3.0
"""The mesh's spacing: fine enough for a crease a few millimetres wide."""
REST = 0.15
"""Even a flat sheet does not touch the table everywhere, millimetres."""


@dataclass(frozen=True, slots=True)
class SurfaceMesh:
    positions: NDArray[np.float32]
    """(n, 3) board millimetres x, y and height."""
    normals: NDArray[np.float32]
    """(n, 3) in the same frame, pointing away from the table."""
    texcoords: NDArray[np.float32]
    """(n, 2) u across, v down the print."""
    faces: NDArray[np.uint32]


def height_at(shape: SheetShape, width: float, height: float, xs: Floats, ys: Floats) -> Floats:
    """The sheet's height above the table at board points."""
    xs = np.asarray(xs, np.float64)
    ys = np.asarray(ys, np.float64)
    along = xs / width if shape.bow_along_x else ys / height
    lift = shape.bow * (1.0 - (2.0 * np.clip(along, 0, 1) - 1.0) ** 2)
    if shape.bow < 0:
        # A sheet bowed down rests on its middle, its ends in the air.
        lift = lift - shape.bow
    corner = ((0.0, 0.0), (width, 0.0), (width, height), (0.0, height))[shape.lift_corner]
    reach = np.hypot(xs - corner[0], ys - corner[1]) / shape.lift_reach
    lift = lift + shape.lift * np.clip(1.0 - reach, 0.0, 1.0) ** 2
    for fold in shape.folds:
        away = np.abs((xs if fold.vertical else ys) - fold.at) / fold.width
        lift = lift + fold.height * np.clip(1.0 - away, 0.0, 1.0) ** 1.5
    return np.asarray(np.maximum(lift, 0.0) + REST, np.float64)


def sheet_mesh(shape: SheetShape, width: float, height: float) -> SurfaceMesh:
    columns = int(np.ceil(width / GRID_MM)) + 1
    rows = int(np.ceil(height / GRID_MM)) + 1
    xs, ys = np.meshgrid(np.linspace(0, width, columns), np.linspace(0, height, rows))
    zs = height_at(shape, width, height, xs, ys)
    step_x, step_y = width / (columns - 1), height / (rows - 1)
    dz_dy, dz_dx = np.gradient(zs, step_y, step_x)
    normals = np.stack([-dz_dx, -dz_dy, np.ones_like(zs)], axis=-1)
    normals /= np.linalg.norm(normals, axis=-1, keepdims=True)
    index = np.arange(rows * columns).reshape(rows, columns)
    a, b = index[:-1, :-1].ravel(), index[:-1, 1:].ravel()
    c, d = index[1:, 1:].ravel(), index[1:, :-1].ravel()
    faces = np.concatenate([np.stack([a, b, c], 1), np.stack([a, c, d], 1)])
    return SurfaceMesh(
        positions=np.stack([xs, ys, zs], -1).reshape(-1, 3).astype(np.float32),
        normals=normals.reshape(-1, 3).astype(np.float32),
        texcoords=np.stack([xs / width, ys / height], -1).reshape(-1, 2).astype(np.float32),
        faces=faces.astype(np.uint32),
    )
