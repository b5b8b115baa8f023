"""Markers too small or blurred to decode, found where the ones read put them.

The detector must read a marker's cells to know which it is; a marker 15 pixels across,
softened by the lens, often cannot be read. But once a few markers are read the board's
layout says where every other one should be and what it looks like, and seeing whether
the expected pattern is there takes far less than reading it: its cells, and the ring of
white paper round it, are sampled where they should lie (and a little off, as the sheet
may bend), and the marker is taken where they match its pattern closely.

    search = MarkerSearch(board)
    ids, corners = search.search(grey, ids, corners)   # the markers read, and more
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board_art import aruco_dictionary
from vision.geometry import Board

Grey = NDArray[np.uint8]

LEAST_READ = 1
"""Markers read from which the others are looked for: one marker's four corners place its
neighbours, and those the next ones."""
SOUND_FIT = 4
"""Markers from which a fit is sound across the whole sheet; with fewer, only markers near
them are looked for (GROW_SPACINGS)."""
SPREAD = 0.6
"""The share of the sheet's width and height the markers found must span for a fit on
them to be sound everywhere."""
GROW_SPACINGS = 3.5
"""How far (in marker sizes) from a marker found the next are looked for."""
MATCH = 0.8
"""How closely (correlation of the sampled cells with the pattern) a marker must match."""
CONTRAST = 20.0
"""Grey levels by which its white cells must be lighter than its black ones."""
SMALLEST_CELL_PX = 1.2
"""Cells smaller than this in the picture cannot be told apart, matched or not."""
REACH_CELLS = 1.0
"""How far (in cells, either way) from where the markers read put it a marker is looked for."""
STEPS = 9
"""Positions tried across that reach, each way (a quarter of a cell apart)."""
OUTLINE_REACH = 2.0
"""How far (in cells) from where the sheet's outline puts them markers are looked for: the
outline is only as sharp as the paper's edge."""
OUTLINE_MATCH = 0.7
"""How closely a marker must match where the outline puts it (the outline is rougher than
a decoded marker); the way round that finds most is then grown at MATCH."""
OUTLINE_LEAST = 4
"""Markers a way round the outline must find to be believed."""
OUTLINE_LEAST_AREA = 0.01
"""The least share of the frame the sheet's outline must cover."""
PAPER_PERCENTILE = 99.5
"""The grey level taken for the paper's own: the sheet covers far more of the frame than
the brightest half percent."""
BRIGHTER_LEVELS = (0.5, 0.75)
"""Levels tried above Otsu's, as shares of the way from it to the paper's."""
SAME_OUTLINE_PX = 3.0
"""Outlines whose corners all lie within this of one another's are the same outline."""
CUT_TOLERANCE = 0.005
"""How closely (a share of its length) a cut outline's sides are followed."""
CUT_MOST_SIDES = 12
"""The most sides a cut outline is taken to have: four, four cut corners, and a few more
where noise bends it."""
CUT_SIDE_SHARE = 0.1
"""The least share of a cut outline's length each of its four longest sides must have."""
ROUNDS = 12
"""Each round refits the board on the markers found so far and looks again."""


@dataclass(frozen=True, slots=True)
class _Patterns:
    """Every board marker's cells, with a ring of white paper round it, on the board."""

    points: NDArray[np.float64]
    """(markers, cells, 2): each cell's middle, board millimetres."""
    white: NDArray[np.bool_]
    """(markers, cells): which cells are white."""


def _patterns(board: Board) -> _Patterns:
    dictionary = aruco_dictionary(board.marker_dictionary)
    cells = dictionary.markerSize + 2
    ring = cells + 2
    points = []
    whites = []
    for marker in board.markers:
        art = cv2.aruco.generateImageMarker(dictionary, marker.id, cells)
        framed = np.full((ring, ring), 255, np.uint8)
        framed[1:-1, 1:-1] = art
        left, top = marker.corners()[0]
        step = marker.size / cells
        rows, columns = np.mgrid[0:ring, 0:ring]
        xs = left + (columns - 1 + 0.5) * step
        ys = top + (rows - 1 + 0.5) * step
        points.append(np.stack([xs.ravel(), ys.ravel()], axis=-1))
        whites.append(framed.ravel() > 127)
    return _Patterns(np.array(points, np.float64), np.array(whites, bool))


class MarkerSearch:
    def __init__(self, board: Board) -> None:
        self._board = board
        self._patterns = _patterns(board)
        self._index = {marker.id: n for n, marker in enumerate(board.markers)}

    def search(
        self,
        grey: Grey,
        ids: tuple[int, ...],
        corners: tuple[NDArray[np.float32], ...],
    ) -> tuple[tuple[int, ...], tuple[NDArray[np.float32], ...]]:
        """The markers read (ids, corners in pixels) and every other one found where they
        put it. Returned sorted by id."""
        found = dict(zip(ids, corners, strict=True))
        if len(found) < LEAST_READ:
            return ids, corners
        for _ in range(ROUNDS):
            # A fit is sound near the markers it was made on, less so further away: look
            # near them first (everywhere, once they are spread over the sheet), and
            # further as more are found. Markers along one edge say little about how the
            # sheet leans away from it: fitted without perspective until they spread.
            spread = self.spread(found)
            near = None if spread else self._near(found)
            fitted = self._fit(found, perspective=spread)
            if fitted is None:
                break
            added = self._look(grey, fitted, found, near)
            if not added and near is not None:
                # Nothing more near them: the whole sheet, with the perspective they give.
                fitted = self._fit(found, perspective=True)
                if fitted is not None:
                    added = self._look(grey, fitted, found, None)
            if not added:
                break
            found.update(added)
        order = tuple(sorted(found))
        return order, tuple(found[i] for i in order)

    def from_outline(self, grey: Grey) -> tuple[tuple[int, ...], tuple[NDArray[np.float32], ...]]:
        """The markers found with none decoded: the sheet, white on a darker table, is
        outlined, each way round it could lie is tried, and the markers are looked for
        where it puts them; the way that finds most (at least OUTLINE_LEAST) is kept and
        grown as in `search`."""
        board = self._board
        sheet = np.array(
            [[0.0, 0.0], [board.width, 0.0], [board.width, board.height], [0.0, board.height]]
        )
        best: dict[int, NDArray[np.float32]] = {}
        for outline in _sheet_outlines(grey):
            for turn in range(4):
                corners = np.roll(outline, turn, axis=0)
                homography = cv2.getPerspectiveTransform(
                    sheet.astype(np.float32), corners.astype(np.float32)
                )
                found = self._look(
                    grey, np.asarray(homography, np.float64), {}, None, OUTLINE_REACH,
                    OUTLINE_MATCH,
                )  # fmt: skip
                if len(found) > len(best):
                    best = found
            if len(best) == len(board.markers):
                break
        if len(best) < OUTLINE_LEAST:
            return (), ()
        ids = tuple(sorted(best))
        return self.search(grey, ids, tuple(best[i] for i in ids))

    def spread(self, found: Collection[int]) -> bool:
        """Whether the markers found (their ids) reach over most of the sheet, both ways: a
        fit on them holds everywhere."""
        if len(found) < SOUND_FIT:
            return False
        seen = np.array([m.centre for m in self._board.markers if m.id in found], np.float64)
        extent = seen.max(axis=0) - seen.min(axis=0)
        return bool(
            extent[0] >= SPREAD * self._board.width and extent[1] >= SPREAD * self._board.height
        )

    def _near(self, found: dict[int, NDArray[np.float32]]) -> set[int]:
        """The markers within GROW_SPACINGS marker sizes of one found."""
        seen = np.array([m.centre for m in self._board.markers if m.id in found], np.float64)
        reach = GROW_SPACINGS * self._board.markers[0].size
        return {
            m.id
            for m in self._board.markers
            if np.linalg.norm(seen - np.asarray(m.centre), axis=1).min() <= reach
        }

    def _fit(
        self, found: dict[int, NDArray[np.float32]], perspective: bool
    ) -> NDArray[np.float64] | None:
        board_points = np.array(
            [corner for i in found for corner in self._board.marker_corners(i)], np.float64
        )
        image_points = np.concatenate([found[i] for i in found]).astype(np.float64)
        if perspective:
            homography, _mask = cv2.findHomography(board_points, image_points, 0)
            return None if homography is None else np.asarray(homography, np.float64)
        terms = np.column_stack([board_points, np.ones(len(board_points))])
        affine, *_rest = np.linalg.lstsq(terms, image_points, rcond=None)
        return np.vstack([affine.T, [0.0, 0.0, 1.0]])

    def _look(
        self,
        grey: Grey,
        homography: NDArray[np.float64],
        found: dict[int, NDArray[np.float32]],
        near: set[int] | None,
        reach: float = REACH_CELLS,
        match: float = MATCH,
    ) -> dict[int, NDArray[np.float32]]:
        patterns = self._patterns
        missing = [
            m.id
            for m in self._board.markers
            if m.id not in found and (near is None or m.id in near)
        ]
        if not missing:
            return {}
        rows = [self._index[i] for i in missing]
        board_points = patterns.points[rows]
        count, cells = board_points.shape[:2]
        projected = cv2.perspectiveTransform(board_points.reshape(-1, 1, 2), homography).reshape(
            count, cells, 2
        )
        # Pixels per cell, along each marker's rows and columns.
        across = np.linalg.norm(projected[:, 1] - projected[:, 0], axis=-1)
        height, width = grey.shape[:2]
        inside = (
            (projected[..., 0] >= 1).all(axis=1)
            & (projected[..., 0] <= width - 2).all(axis=1)
            & (projected[..., 1] >= 1).all(axis=1)
            & (projected[..., 1] <= height - 2).all(axis=1)
            & (across >= SMALLEST_CELL_PX)
        )
        steps = STEPS if reach <= REACH_CELLS else 2 * round(reach * (STEPS - 1) / 2) + 1
        shifts = np.linspace(-reach, reach, steps)
        offsets = np.stack(np.meshgrid(shifts, shifts), axis=-1).reshape(-1, 2)
        added: dict[int, NDArray[np.float32]] = {}
        ring = round(np.sqrt(cells))
        for k in np.flatnonzero(inside):
            centre_cells = projected[k]
            # The marker's own axes in the picture: one cell right, one cell down.
            grid = centre_cells.reshape(ring, ring, 2)
            right = (grid[:, -1] - grid[:, 0]).mean(axis=0) / (ring - 1)
            down = (grid[-1, :] - grid[0, :]).mean(axis=0) / (ring - 1)
            moves = offsets[:, :1] * right + offsets[:, 1:] * down
            where = (centre_cells[None, :, :] + moves[:, None, :]).astype(np.float32)
            sampled = np.asarray(
                cv2.remap(
                    grey, where[..., 0], where[..., 1], cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE,
                ),
                np.float64,
            )  # fmt: skip
            white = patterns.white[rows[k]]
            score, contrast = _match(sampled, white)
            best = int(np.argmax(score))
            if score[best] >= match and contrast[best] >= CONTRAST:
                # Between the positions tried: the peak of a parabola through the best and
                # its neighbours, along each axis.
                row, column = divmod(best, steps)
                surface = score.reshape(steps, steps)
                step = shifts[1] - shifts[0]
                x = shifts[column] + step * _peak(surface[row], column)
                y = shifts[row] + step * _peak(surface[:, column], row)
                move = x * right + y * down
                marker_corners = np.array(self._board.marker_corners(missing[k]), np.float64)
                at = cv2.perspectiveTransform(marker_corners.reshape(-1, 1, 2), homography)
                added[missing[k]] = (at.reshape(4, 2) + move).astype(np.float32)
        return added


def _sheet_outlines(grey: Grey) -> list[NDArray[np.float64]]:
    """The four corners (image pixels, going round) of the largest bright quadrilateral at
    each of a few grey levels: the sheet on a darker table. One level (Otsu's) splits most
    pictures; a lamp's pool of light on a pale table joins the sheet at that level and
    falls away at a brighter one, nearer the paper's own. Empty when none is clear."""
    otsu, _bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    paper = float(np.percentile(grey, PAPER_PERCENTILE))
    levels = [otsu, *(otsu + share * (paper - otsu) for share in BRIGHTER_LEVELS)]
    outlines: list[NDArray[np.float64]] = []
    for level in levels:
        outline = _outline_at(grey, level)
        if outline is None:
            continue
        if any(np.abs(outline - known).max() < SAME_OUTLINE_PX for known in outlines):
            continue
        outlines.append(outline)
    return outlines


def _outline_at(grey: Grey, level: float) -> NDArray[np.float64] | None:
    """The largest bright quadrilateral above `level`, or None when there is no clear one."""
    bright = np.asarray(np.where(grey > level, 255, 0), np.uint8)
    # Grain and noise on a table lit near the sheet's level speckle its edge: opened away
    # first. Then the markers' black is closed into the sheet around them.
    opened = cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    closed = cv2.morphologyEx(opened, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    contours, _hierarchy = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    largest = max(contours, key=cv2.contourArea)
    if cv2.contourArea(largest) < OUTLINE_LEAST_AREA * grey.size:
        return None
    hull = cv2.convexHull(largest)
    cut = _corners_cut(np.asarray(hull.reshape(-1, 2), np.float64))
    if cut is not None:
        return cut
    corners = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
    if len(corners) != 4:
        return None
    return np.asarray(corners.reshape(4, 2), np.float64)


def _corners_cut(hull: NDArray[np.float64]) -> NDArray[np.float64] | None:
    """A sheet's four corners from its outline, followed closely: where its four longest
    sides, carried on, meet. Blurred corner markers darken the paper between them and the
    sheet's edge and cut its corners off; the sides still hold. None when the outline is
    no quadrilateral, cut or not."""
    points = hull.astype(np.float32)
    tolerance = CUT_TOLERANCE * cv2.arcLength(points, True)
    sides = np.asarray(cv2.approxPolyDP(points, tolerance, True), np.float64).reshape(-1, 2)
    if len(sides) == 4:
        return sides
    if not 5 <= len(sides) <= CUT_MOST_SIDES:
        return None
    ends = np.roll(sides, -1, axis=0)
    lengths = np.linalg.norm(ends - sides, axis=1)
    longest = np.sort(np.argsort(lengths)[-4:])
    if lengths[longest].min() < CUT_SIDE_SHARE * lengths.sum():
        return None
    corners = []
    for this, following in zip(longest, np.roll(longest, -1), strict=True):
        meet = _meeting(sides[this], ends[this], sides[following], ends[following])
        if meet is None:
            return None
        corners.append(meet)
    quad = np.array(corners, np.float64)
    if not cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)):
        return None
    return quad


def _meeting(
    a: NDArray[np.float64], b: NDArray[np.float64], c: NDArray[np.float64], d: NDArray[np.float64]
) -> NDArray[np.float64] | None:
    """Where the line through a and b meets the one through c and d; None if parallel."""
    ab, cd = b - a, d - c
    cross = ab[0] * cd[1] - ab[1] * cd[0]
    if abs(cross) < 1e-9 * np.linalg.norm(ab) * np.linalg.norm(cd):
        return None
    t = ((c - a)[0] * cd[1] - (c - a)[1] * cd[0]) / cross
    return np.asarray(a + t * ab, np.float64)


def _peak(values: NDArray[np.float64], at: int) -> float:
    """Where (in steps from `at`, within half a step) a parabola through values[at] and its
    two neighbours peaks; 0 at either end."""
    if at == 0 or at == len(values) - 1:
        return 0.0
    left, middle, right = values[at - 1], values[at], values[at + 1]
    curve = left - 2 * middle + right
    if curve >= 0:
        return 0.0
    return float(np.clip(0.5 * (left - right) / curve, -0.5, 0.5))


def _match(
    sampled: NDArray[np.float64], white: NDArray[np.bool_]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per tried position (rows of `sampled`): the correlation of the sampled cells with the
    pattern, and how much lighter its white cells are than its black ones."""
    pattern = white.astype(np.float64)
    pattern -= pattern.mean()
    centred = sampled - sampled.mean(axis=1, keepdims=True)
    spread = np.linalg.norm(centred, axis=1) * np.linalg.norm(pattern)
    score = centred @ pattern / np.maximum(spread, 1e-9)
    contrast = sampled[:, white].mean(axis=1) - sampled[:, ~white].mean(axis=1)
    return np.asarray(score, np.float64), np.asarray(contrast, np.float64)
