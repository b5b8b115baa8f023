"""The virtual camera's geometry: where it stands, where it looks, and how a point on or above
the board lands in the picture.

World coordinates are the table's, in millimetres: x to the East, y to the South (like the
board file) and z down into the table, so heights above the table are negative z. The sheet
lies on the table nudged by `Conditions.board_offset` / `board_rotation` about its centre,
and rises off it where `Conditions.paper_shape` says (bowed, a corner curled, folds): a
point on the board, and whatever lies there, is lifted by the sheet's height under it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from vision.geometry import Board
from vision.synth.conditions import FLAT, Axis, Conditions, Corner, PaperShape
from vision.synth.kept import kept

Matrix = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Projection:
    intrinsics: Matrix
    """K, 3 x 3."""
    rotation: Matrix
    """World to camera, 3 x 3 (OpenCV axes: x right, y down, z forward)."""
    translation: Matrix
    """World to camera, 3."""
    placement: Matrix
    """Board millimetres to table millimetres, 3 x 3 (a rigid motion of the plane)."""
    size: tuple[int, int]
    shape: PaperShape = FLAT
    """The sheet's shape: board points are lifted by its height (see `sheet_height`)."""
    sheet: tuple[float, float] = (0.0, 0.0)
    """The sheet's width and height, millimetres (where its shape is laid out)."""

    @property
    def position(self) -> Matrix:
        """The camera's centre, world millimetres."""
        return np.asarray(-self.rotation.T @ self.translation)

    def to_world(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Board (x, y, height above the sheet) -> world (x, y, z), N x 3."""
        xy = points[:, :2] @ self.placement[:2, :2].T + self.placement[:2, 2]
        return np.column_stack([xy, -(points[:, 2] + self.lift(points[:, :2]))])

    def lift(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """The sheet's height above the table at board points (N x 2), millimetres."""
        if self.shape.flat:
            return np.zeros(len(points))
        return sheet_height(self.shape, self.sheet, points)

    @property
    def flat(self) -> Projection:
        """The same camera over a flat sheet: for things held above the board (hands)."""
        return replace(self, shape=FLAT)

    def resting_at(self, point: tuple[float, float]) -> Projection:
        """The same camera, with the table raised to the sheet's height at `point` and the
        sheet flat on it: for something stiff lying there (a counter, a card) or a crystal's
        shadow falling around its foot."""
        height = float(self.lift(np.array([point], np.float64))[0])
        translation = self.translation - height * self.rotation[:, 2]
        return replace(self, translation=kept(translation), shape=FLAT)

    def project_world(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """World N x 3 -> image N x 2 (pixels)."""
        camera = points @ self.rotation.T + self.translation
        image = camera @ self.intrinsics.T
        return np.asarray(image[:, :2] / image[:, 2:3])

    def project(self, points: NDArray[np.float64]) -> NDArray[np.float64]:
        """Board (x, y, height) N x 3 -> image N x 2."""
        return self.project_world(self.to_world(points))

    def table_homography(self, height: float = 0.0) -> Matrix:
        """Table millimetres at `height` above the table -> image pixels."""
        r = self.rotation
        columns = np.column_stack([r[:, 0], r[:, 1], self.translation - height * r[:, 2]])
        h = self.intrinsics @ columns
        return np.asarray(h / h[2, 2])

    def homography(self, height: float = 0.0) -> Matrix:
        """Board millimetres at `height` above the table -> image pixels."""
        h = self.table_homography(height) @ self.placement
        return np.asarray(h / h[2, 2])


def projection(board: Board, conditions: Conditions) -> Projection:
    return _projection(board.width, board.height, conditions)


@lru_cache(maxsize=64)
def _projection(width: float, height: float, conditions: Conditions) -> Projection:
    placement = _placement(width, height, conditions)
    image_w, image_h = conditions.size
    focal = (image_w / 2) / math.tan(math.radians(conditions.fov) / 2)
    intrinsics = np.array([[focal, 0, image_w / 2], [0, focal, image_h / 2], [0, 0, 1.0]])
    rotation = _rotation(conditions)
    corners = np.array([[0, 0, 0], [width, 0, 0], [width, height, 0], [0, height, 0.0]])
    nudged = np.column_stack(
        [corners[:, :2] @ placement[:2, :2].T + placement[:2, 2], corners[:, 2]]
    )
    # Whoever set the camera up pointed it so the sheet sat in the middle of the picture
    # (then perhaps nudged it by `aim`): look at the sheet's centre, then re-aim at whatever
    # point of the table shows at the middle of the sheet's outline in the picture. The sheet
    # was nudged on the table afterwards; the camera still takes it all in.
    sheet = corners
    target = np.array([width / 2, height / 2, 0.0])
    for _ in range(4):
        distance = _fit(sheet, target, rotation, focal, conditions)
        camera = (sheet - (target - distance * rotation[2])) @ rotation.T
        u = camera[:, 0] / camera[:, 2]
        v = camera[:, 1] / camera[:, 2]
        middle = np.array([(u.min() + u.max()) / 2, (v.min() + v.max()) / 2, 1.0])
        ray = rotation.T @ middle
        position = target - distance * rotation[2]
        target = position + ray * (-position[2] / ray[2])
    target = target + np.array([conditions.aim[0], conditions.aim[1], 0.0])
    distance = _fit(np.vstack([sheet, nudged]), target, rotation, focal, conditions)
    position = target - distance * rotation[2]
    translation = -rotation @ position
    return Projection(
        kept(intrinsics),
        kept(rotation),
        kept(translation),
        kept(placement),
        conditions.size,
        conditions.paper_shape,
        (width, height),
    )


FOLD_FALL = 22.0
"""How far from a crease (mm) a fold's ridge falls to a third of its height."""


def sheet_height(
    shape: PaperShape, sheet: tuple[float, float], points: NDArray[np.float64]
) -> NDArray[np.float64]:
    """The sheet's height above the table at board points (N x 2), millimetres: a smooth
    bow, a corner curling up from where it leaves the table, ridges along creases."""
    width, height = sheet
    x, y = points[:, 0], points[:, 1]
    lift = np.zeros(len(points))
    bow = shape.bow
    if bow is not None:
        along = x / width if bow.axis is Axis.X else y / height
        arch = np.sin(np.pi * np.clip(along, 0.0, 1.0))
        lift += bow.height * arch if bow.height > 0 else -bow.height * (1.0 - arch)
    curl = shape.corner
    if curl is not None:
        east = curl.corner in (Corner.NORTH_EAST, Corner.SOUTH_EAST)
        south = curl.corner in (Corner.SOUTH_EAST, Corner.SOUTH_WEST)
        dx = (width - x) if east else x
        dy = (height - y) if south else y
        # The paper leaves the table along a line cutting the corner off and curves up from
        # it, more steeply the nearer the tip (as paper that was rolled does).
        reach = np.clip(1.0 - (dx + dy) / curl.extent, 0.0, None)
        lift += curl.height * reach**2
    for fold in shape.folds:
        across = x - fold.at * width if fold.axis is Axis.X else y - fold.at * height
        lift += fold.height * np.exp(-np.abs(across) / FOLD_FALL)
    return lift


def _fit(
    sheet: Matrix, target: Matrix, rotation: Matrix, focal: float, conditions: Conditions
) -> float:
    """How far back along its axis the camera must stand for the sheet to fill
    `conditions.fill` of the picture (in its tighter direction)."""
    image_w, image_h = conditions.size
    limits = np.array([conditions.fill * image_w / 2, conditions.fill * image_h / 2])

    def overflow(distances: Matrix) -> Matrix:
        """For each distance, how far the sheet reaches beyond the allowed part of the
        picture (> 1: too far; infinite when part of it is behind the camera)."""
        positions = target[None, :] - distances[:, None] * rotation[2][None, :]
        camera = (sheet[None, :, :] - positions[:, None, :]) @ rotation.T
        depth = camera[..., 2]
        safe = np.where(depth > 1.0, depth, 1.0)
        reach = np.abs(focal * camera[..., :2] / safe[..., None]) / limits
        worst = reach.max(axis=(1, 2))
        return np.asarray(np.where((depth > 1.0).all(axis=1), worst, np.inf))

    # The sheet shrinks monotonically as the camera backs off along its axis: take the
    # nearest distance on a grid that fits, then refine on finer grids around it.
    low, high = 50.0, 50000.0
    for _ in range(4):
        grid = np.geomspace(low, high, 48)
        fits = np.flatnonzero(overflow(grid) <= 1.0)
        first = int(fits[0]) if len(fits) else len(grid) - 1
        low, high = float(grid[max(first - 1, 0)]), float(grid[first])
    return high


def _placement(width: float, height: float, conditions: Conditions) -> Matrix:
    angle = math.radians(conditions.board_rotation)
    c, s = math.cos(angle), math.sin(angle)
    cx, cy = width / 2, height / 2
    dx, dy = conditions.board_offset
    # Rotate about the sheet's centre, then shift.
    return np.array(
        [
            [c, -s, cx - c * cx + s * cy + dx],
            [s, c, cy - s * cx - c * cy + dy],
            [0.0, 0.0, 1.0],
        ]
    )


def _rotation(conditions: Conditions) -> Matrix:
    """World to camera: looking down, leaning `tilt` away from the side at `azimuth`."""
    tilt = math.radians(conditions.tilt)
    azimuth = math.radians(conditions.azimuth)
    # Horizontal unit vector from the board towards the camera: 0 South, 90 East.
    towards_camera = np.array([math.sin(azimuth), math.cos(azimuth), 0.0])
    forward = np.array(
        [
            -math.sin(tilt) * towards_camera[0],
            -math.sin(tilt) * towards_camera[1],
            math.cos(tilt),
        ]
    )
    # The picture's "down" is the table's direction towards the camera.
    down = towards_camera - (towards_camera @ forward) * forward
    down /= np.linalg.norm(down)
    right = np.cross(down, forward)
    roll = math.radians(conditions.roll)
    c, s = math.cos(roll), math.sin(roll)
    right, down = c * right + s * down, -s * right + c * down
    return np.array([right, down, forward])
