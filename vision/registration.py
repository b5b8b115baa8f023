"""Finding the board in a frame: ArUco markers -> a mapping from board millimetres to image
pixels (a homography, bent by a smooth warp where the sheet does not lie flat), fitted anew
every frame so a nudged board is followed.

Markers are looked for in a half-size grey image (four times fewer pixels; the board's
markers are large) and their corners refined on the full-size one; when too few are found
there, the full-size image is searched as well. With fewer than MIN_MARKERS markers the
tracker keeps the last good fit and says so (`held`): hands often cover part of the border.

    tracker = RegistrationTracker(board)
    fit = tracker.update(grey)          # Fit | None
    fit.mapping.to_image(points)        # board mm (N x 2) -> image px, the sheet's warp included
    fit.homography, fit.registration.markers_seen, fit.registration.held

A printed sheet is rarely flat: bowed, a corner curled, fold lines. Lifted by a few
millimetres, the paper is seen shifted by up to as much (more from a tilted camera), which
one homography cannot follow. So the homography is fitted to all the markers' corners, and
what it leaves at them, in board millimetres, is taken up by a thin-plate spline: smooth,
regularised so that the corners' noise is not fitted, and used only when the homography
leaves more than the noise and enough markers are seen to say how the sheet lies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board_art import aruco_dictionary
from vision.geometry import Board
from vision.marker_search import MarkerSearch
from vision.reading import Registration

Matrix = NDArray[np.float64]
Grey = NDArray[np.uint8]

MIN_MARKERS = 3
"""Fewer markers than this and the fit is not trusted (12 corners make a sound homography;
fewer tend to be all on one edge)."""
MIN_SPREAD = 0.2
"""The markers a fit uses must span at least this share of the sheet."""
MAX_ERROR_MM = 2.5
"""A fit whose markers stray further than this on average is rejected."""
HALF_SIZE_BELOW = 6
"""Search the full-size image too when the half-size one gives fewer markers than this."""
GOOD_ERROR_MM = 0.5
"""A fit whose markers stray less than this needs no harder look."""
EFFORTS = 3
"""Ways of looking for markers, each slower than the last (see MarkerFinder.find)."""
WARP_MARKERS = 8
"""Fewer markers than this and the plain homography is used: too few to say how the sheet
bends, and a bend fitted to them would be guessed between them."""
CORNER_ASTRAY_MM = 0.8
"""A corner this far from the warp through the others was found wrong (a finger over it):
a sheet's bend moves neighbouring corners alike."""
SMOOTHINGS = (0.003, 0.01, 0.03, 0.1, 0.3, 1.0)
"""The thin-plate spline's regularisations tried, least first (board coordinates scaled to
about 1): the least follows a corner curled within 60 mm, the most is nearly a plane."""
NEARLY_AS_WELL = 1.25
"""How much worse (in squared misses) a suppler spline may predict left-out markers."""
WARP_RMS_MM = 0.4
"""A warp is fitted when the markers lie this far (root mean square) from where the
homography puts them, or ..."""
WARP_MARKER_MM = 1.2
"""... some marker lies this far from it: less is what blur, noise and a low resolution
leave on a flat sheet (up to about 0.35 and 1 mm measured), and shifts places too little
to matter."""
MARKER_NOISE_MM = 0.15
"""The least noise a corner is taken to have when judging whether it is astray."""
REACH_MM = 5.0
FADE_MM = 20.0
"""Beyond the markers seen (outside their hull) the warp is guessed, not measured: it holds
for REACH_MM, then fades to nothing (the plain homography) over FADE_MM."""
WARP_GRID_MM = 5.0
"""The warp is worked out on a grid this fine and interpolated in between."""
WARP_MARGIN_MM = 25.0


class Warp:
    """A smooth displacement of board points (mm), worked out on a grid over the sheet.

    A thin-plate spline through the markers' corners, fitted once; looking it up for the
    thousands of points a frame samples is a bilinear interpolation on the grid."""

    __slots__ = ("_grid", "_origin", "_step")

    def __init__(self, board: Board, spline: _Spline, seen: Matrix) -> None:
        """`seen`: the board points (mm) the spline was fitted to."""
        centre, scale = _frame(board)
        step = WARP_GRID_MM
        xs = np.arange(-WARP_MARGIN_MM, board.width + WARP_MARGIN_MM + step, step)
        ys = np.arange(-WARP_MARGIN_MM, board.height + WARP_MARGIN_MM + step, step)
        grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
        outside = _beyond_hull(seen, grid)
        weight = np.clip(1.0 - (outside - REACH_MM) / FADE_MM, 0.0, 1.0)[:, None]
        shifts = spline.at((grid - centre) / scale) * weight
        self._grid = shifts.reshape(len(ys), len(xs), 2)
        self._origin = np.array([xs[0], ys[0]])
        self._step = step

    def at(self, points: Matrix) -> Matrix:
        """The displacement (mm, N x 2) at board points (N x 2); constant beyond the grid."""
        rows, columns = self._grid.shape[:2]
        where = (points - self._origin) / self._step
        x = np.clip(where[:, 0], 0.0, columns - 1.000001)
        y = np.clip(where[:, 1], 0.0, rows - 1.000001)
        left, top = x.astype(np.intp), y.astype(np.intp)
        fx, fy = (x - left)[:, None], (y - top)[:, None]
        g = self._grid
        upper = g[top, left] * (1 - fx) + g[top, left + 1] * fx
        lower = g[top + 1, left] * (1 - fx) + g[top + 1, left + 1] * fx
        return np.asarray(upper * (1 - fy) + lower * fy, np.float64)


def _beyond_hull(seen: Matrix, points: Matrix) -> Matrix:
    """How far (mm) each point lies outside the convex hull of `seen`; 0 inside (the
    furthest of the hull's sides' lines, which is near enough the distance)."""
    hull = cv2.convexHull(seen.astype(np.float32)).reshape(-1, 2).astype(np.float64)
    ends = np.roll(hull, -1, axis=0)
    sides = ends - hull
    normals = np.column_stack([sides[:, 1], -sides[:, 0]])
    normals /= np.maximum(np.linalg.norm(normals, axis=1, keepdims=True), 1e-9)
    inward = hull.mean(axis=0)
    # Orient every side's normal outwards.
    flip = ((inward - hull) * normals).sum(axis=1) > 0
    normals[flip] *= -1
    distances = np.einsum("nsk,sk->ns", points[:, None, :] - hull[None, :, :], normals)
    return np.asarray(np.maximum(distances.max(axis=1), 0.0), np.float64)


def _frame(board: Board) -> tuple[Matrix, float]:
    """The board's centre and half its longer side: the spline's coordinates are scaled by
    these to about 1 (so its regularisation means the same on any board)."""
    return np.array([board.width / 2, board.height / 2]), max(board.width, board.height) / 2


class _Spline:
    """A regularised thin-plate spline from the plane to displacements (N x 2).

    Solved with OpenCV rather than NumPy's LAPACK: for systems this small a threaded BLAS
    costs far more than it saves, and on a busy machine hundreds of times more."""

    def __init__(self, points: Matrix, values: Matrix, smoothing: float) -> None:
        solved = _solve(_system(points, smoothing), _padded(values))
        count = len(points)
        self._points = points
        self._weights = solved[:count]
        self._affine = solved[count:]

    def at(self, points: Matrix) -> Matrix:
        affine = _product(np.column_stack([np.ones(len(points)), points]), self._affine)
        return affine + _product(_kernel(points, self._points), self._weights)


def _system(points: Matrix, smoothing: float) -> Matrix:
    """The spline's linear system: the kernel (regularised) bordered by the affine part."""
    count = len(points)
    affine = np.column_stack([np.ones(count), points])
    system = np.zeros((count + 3, count + 3))
    system[:count, :count] = _kernel(points, points) + smoothing * np.eye(count)
    system[:count, count:] = affine
    system[count:, :count] = affine.T
    return system


def _padded(values: Matrix) -> Matrix:
    return np.vstack([values, np.zeros((3, values.shape[1]))])


def _solve(system: Matrix, right: Matrix) -> Matrix:
    _ok, solved = cv2.solve(system, right, flags=cv2.DECOMP_LU)
    return np.asarray(solved, np.float64)


def _product(a: Matrix, b: Matrix) -> Matrix:
    return np.asarray(cv2.gemm(a, b, 1.0, np.zeros((0, 0)), 0.0), np.float64)


def _kernel(a: Matrix, b: Matrix) -> Matrix:
    squared = ((a[:, None, :] - b[None, :, :]) ** 2).sum(axis=-1)
    # r^2 log r, written with r^2 (and 0 where r is 0).
    return np.asarray(0.5 * squared * np.log(np.maximum(squared, 1e-12)), np.float64)


class BoardMapping:
    """Board millimetres -> image pixels: the homography from every marker, and the sheet's
    warp (None for a flat sheet) applied to board points before it.

    Every board point the reader looks at (zones, paper, rim, counters, markers' cells)
    goes through one of these, so all of them follow the sheet alike."""

    __slots__ = ("homography", "warp")

    def __init__(self, homography: Matrix, warp: Warp | None = None) -> None:
        self.homography = homography
        self.warp = warp

    def to_image(self, points: NDArray[np.floating]) -> Matrix:
        """Board points (N x 2, mm) -> image pixels (N x 2)."""
        flat = np.asarray(points, np.float64).reshape(-1, 2)
        if self.warp is not None:
            flat = flat + self.warp.at(flat)
        return np.asarray(
            cv2.perspectiveTransform(flat.reshape(-1, 1, 2), self.homography).reshape(-1, 2),
            np.float64,
        )

    def same_as(self, other: BoardMapping | None) -> bool:
        """Whether `other` maps every point where this does (the same fit, kept)."""
        if other is None:
            return False
        return other is self or (
            self.warp is None
            and other.warp is None
            and np.array_equal(self.homography, other.homography)
        )


@dataclass(frozen=True, slots=True)
class Detection:
    """Markers found in a frame: ids and their corners in full-size image pixels."""

    ids: tuple[int, ...]
    corners: tuple[NDArray[np.float32], ...]
    """One 4 x 2 array per marker, in ArUco's corner order."""


@dataclass(frozen=True, slots=True)
class Fit:
    mapping: BoardMapping
    """Board millimetres -> image pixels."""
    registration: Registration
    detection: Detection

    @property
    def homography(self) -> Matrix:
        """The plain homography (the sheet taken flat), for drawing over a frame."""
        return self.mapping.homography


class MarkerFinder:
    def __init__(self, board: Board) -> None:
        self._board = board
        parameters = cv2.aruco.DetectorParameters()
        parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        # Read each cell from its middle: blurred edges bleed into neighbouring cells.
        parameters.perspectiveRemovePixelPerCell = 8
        parameters.perspectiveRemoveIgnoredMarginPerCell = 0.3
        dictionary = aruco_dictionary(board.marker_dictionary)
        self._thorough = cv2.aruco.ArucoDetector(dictionary, parameters)
        # One thresholding window instead of three: a third of the time, and on a half-size
        # frame it still finds most of the board's markers.
        quick = cv2.aruco.DetectorParameters()
        quick.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        quick.adaptiveThreshWinSizeMin = 7
        quick.adaptiveThreshWinSizeMax = 7
        self._quick = cv2.aruco.ArucoDetector(dictionary, quick)
        self._known = {m.id for m in board.markers}
        self._search = MarkerSearch(board)

    def find(self, grey: Grey, effort: int = 0) -> Detection:
        """The markers in a frame. Effort 0 looks in the half-size image, and in the full-size
        one too when that finds fewer than HALF_SIZE_BELOW; effort 1 always looks at full
        size; effort 2 also sharpens it first (an out-of-focus camera)."""
        half = np.asarray(
            cv2.resize(
                grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA
            ),
            np.uint8,
        )
        found = self._detect(self._quick, half, scale=2.0)
        if effort >= 1 or len(found) < HALF_SIZE_BELOW:
            for marker_id, corners in self._detect(self._thorough, grey, scale=1.0).items():
                found.setdefault(marker_id, corners)
        if effort >= 2 or len(found) < HALF_SIZE_BELOW:
            soft = cv2.GaussianBlur(grey, (0, 0), 2)
            sharp = np.asarray(cv2.addWeighted(grey, 2.5, soft, -1.5, 0), np.uint8)
            for marker_id, corners in self._detect(self._thorough, sharp, scale=1.0).items():
                found.setdefault(marker_id, corners)
        if effort >= 2 and len(found) < MIN_MARKERS:
            # Markers a dozen pixels across: at twice the size their outlines close and a
            # few may be decoded, enough to find the rest by their patterns.
            big = cv2.resize(grey, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
            soft = cv2.GaussianBlur(big, (0, 0), 3)
            sharp = np.asarray(cv2.addWeighted(big, 2.5, soft, -1.5, 0), np.uint8)
            for marker_id, corners in self._detect(self._thorough, sharp, scale=0.5).items():
                found.setdefault(marker_id, corners)
        if found:
            self._refine(grey, found)
        ids = tuple(sorted(found))
        every = tuple(found[i] for i in ids)
        if len(ids) < len(self._known):
            # Markers too small or soft to decode may still be seen where the others put
            # them (vision/marker_search.py), or, with none decoded, where the sheet's
            # outline puts them.
            ids, every = self._search.search(grey, ids, every)
            if effort >= 2 and not self._search.spread(ids):
                # The markers decoded may place too few others to grow from (an inner
                # marker among crystals and counters, or a row along one edge, which says
                # nothing of the sheet's other way): the sheet's outline may place more.
                outlined = self._search.from_outline(grey)
                if len(outlined[0]) > len(ids):
                    ids, every = outlined
        return Detection(ids, every)

    def _detect(
        self, detector: cv2.aruco.ArucoDetector, grey: Grey, scale: float
    ) -> dict[int, NDArray[np.float32]]:
        corners, ids, _rejected = detector.detectMarkers(grey)
        found: dict[int, NDArray[np.float32]] = {}
        if ids is None:
            return found
        for marker_corners, marker_id in zip(corners, ids.ravel(), strict=True):
            key = int(marker_id)
            if key in self._known and key not in found:
                found[key] = (marker_corners.reshape(4, 2) * scale).astype(np.float32)
        return found

    @staticmethod
    def _refine(grey: Grey, found: dict[int, NDArray[np.float32]]) -> None:
        points = np.concatenate(list(found.values())).reshape(-1, 1, 2)
        criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
        refined = cv2.cornerSubPix(grey, points.copy(), (3, 3), (-1, -1), criteria)
        for index, key in enumerate(found):
            found[key] = np.asarray(refined[4 * index : 4 * index + 4], np.float32).reshape(4, 2)


def fit_homography(board: Board, detection: Detection) -> tuple[Matrix, float] | None:
    """Board mm -> image px from every detected marker corner, and the RMS error in mm."""
    fitted = fit_mapping(board, detection)
    return None if fitted is None else (fitted[0].homography, fitted[1])


def fit_mapping(board: Board, detection: Detection) -> tuple[BoardMapping, float] | None:
    """Board mm -> image px from every detected marker corner (the homography, and the
    sheet's warp where it does not lie flat), and the RMS error in mm left at the corners."""
    if len(detection.ids) < MIN_MARKERS:
        return None
    seen = set(detection.ids)
    centres = np.array([m.centre for m in board.markers if m.id in seen], np.float32)
    hull = cv2.convexHull(centres)
    if cv2.contourArea(hull) < MIN_SPREAD * board.width * board.height:
        return None  # markers bunched on one side extrapolate badly to the other
    board_points = np.array(
        [corner for i in detection.ids for corner in board.marker_corners(i)], np.float64
    )
    image_points = np.concatenate(detection.corners).astype(np.float64)
    found, _mask = cv2.findHomography(board_points, image_points, cv2.RANSAC, 3.0)
    if found is None:
        return None
    homography: Matrix = np.asarray(found, np.float64)
    back = cv2.perspectiveTransform(
        image_points.reshape(-1, 1, 2), np.linalg.inv(homography)
    ).reshape(-1, 2)
    shifts = back - board_points
    warp = _warp(board, board_points, shifts)
    if warp is not None:
        shifts = shifts - warp.at(board_points)
    errors = np.linalg.norm(shifts, axis=1)
    # The worst quarter of corners may belong to a marker half under a finger: judge the rest.
    kept = np.sort(errors)[: max(4, math.ceil(len(errors) * 0.75))]
    rms = float(np.sqrt(np.mean(kept**2)))
    return BoardMapping(homography, warp), rms


def _warp(board: Board, corners: Matrix, shifts: Matrix) -> Warp | None:
    """The sheet's warp from where the homography leaves the markers' corners (4 a marker,
    in order), or None when the sheet is flat as far as the markers tell, or too few are
    seen to tell.

    A blurred marker's corners are all found a little in (or out) from where they are, the
    same in every marker: that pattern is taken away first. A warp is fitted only where the
    markers lie clearly further from the homography than a flat sheet leaves them (what
    it leaves there is noise, which no warp should follow), as smooth as predicts each
    marker best from the others. A corner far from the warp through the others (found
    wrong: a finger over it) is left out, and the warp fitted again."""
    markers = len(corners) // 4
    if markers < WARP_MARKERS:
        return None
    per_marker = shifts.reshape(markers, 4, 2)
    own = per_marker - np.median(per_marker, axis=1, keepdims=True)
    pattern = np.median(own, axis=0)
    values = (per_marker - pattern).reshape(-1, 2)
    # A robust spread (the median deviation of a 2-d normal is 1.18 sigma).
    noise = float(np.median(np.linalg.norm(own - pattern, axis=-1))) / 1.18
    misses = np.linalg.norm(values.reshape(markers, 4, 2).mean(axis=1), axis=1)
    if misses.max() < WARP_MARKER_MM and math.sqrt(np.mean(misses**2)) < WARP_RMS_MM:
        return None
    centre, scale = _frame(board)
    points = (corners - centre) / scale
    owner = np.repeat(np.arange(markers), 4)
    kept = np.ones(len(points), bool)
    spline = _smoothest(points, values, owner)
    for _ in range(2):
        astray = np.linalg.norm(spline.at(points) - values, axis=1) > max(
            CORNER_ASTRAY_MM, 4 * max(noise, MARKER_NOISE_MM)
        )
        if not (astray & kept).any():
            break
        kept &= ~astray
        if len(set(owner[kept].tolist())) < WARP_MARKERS:
            return None
        spline = _smoothest(points[kept], values[kept], owner[kept])
    return Warp(board, spline, corners[kept])


def _smoothest(points: Matrix, values: Matrix, owner: NDArray[np.intp]) -> _Spline:
    """The spline (of SMOOTHINGS) that best predicts each marker's corners when fitted
    without them: smooth enough not to follow one marker's own errors, supple enough to
    follow the sheet between markers. `owner`: each point's marker."""
    errors = [_left_out_misses(points, values, owner, smoothing) for smoothing in SMOOTHINGS]
    # Markers only sample the sheet, along its border: between them, a suppler spline
    # follows a bend better than one marker left out can show. Take the suppliest that
    # predicts nearly as well as the best.
    chosen = next(i for i, e in enumerate(errors) if e <= NEARLY_AS_WELL * min(errors))
    return _Spline(points, values, SMOOTHINGS[chosen])


def _left_out_misses(
    points: Matrix, values: Matrix, owner: NDArray[np.intp], smoothing: float
) -> float:
    """The summed squared miss at each marker's corners of the spline fitted without that
    marker, all from one inverse of the whole system: the miss at a left-out group g is
    (inverse_gg)^-1 (inverse @ values)_g (Rippa's formula, for groups)."""
    _ok, found = cv2.invert(_system(points, smoothing), flags=cv2.DECOMP_LU)
    inverse: Matrix = np.asarray(found, np.float64)
    weights = _product(inverse, _padded(values))
    misses = 0.0
    for marker in np.unique(owner).tolist():
        group = np.flatnonzero(owner == marker)
        block: Matrix = np.asarray(inverse[np.ix_(group, group)], np.float64)
        miss = _solve(block, weights[group])
        misses += float((miss**2).sum())
    return misses


def north_edge(board: Board, homography: Matrix) -> str:
    """Which edge of the picture the board's North (the sheet's top) faces."""
    cx, cy = board.width / 2, board.height / 2
    points = np.array([[[cx, cy]], [[cx, 0.0]]], np.float64)
    (centre, north) = cv2.perspectiveTransform(points, homography).reshape(2, 2)
    dx, dy = north - centre
    if abs(dy) >= abs(dx):
        return "top" if dy < 0 else "bottom"
    return "left" if dx < 0 else "right"


MATCHING = 0.7
"""How closely (a correlation) a blurred marker's cells follow its pattern to pass the
check: found where it was."""


class MarkerCheck:
    """Whether the markers are still where a homography puts them, cell by cell.

    Looking at the 36 cells of each marker where they should be costs a few hundred
    samples, against milliseconds for finding markers afresh; a board nudged by more than
    about half a cell (1.5 mm) no longer passes and is found afresh."""

    def __init__(self, board: Board) -> None:
        dictionary = aruco_dictionary(board.marker_dictionary)
        cells = dictionary.markerSize + 2
        points = []
        white = []
        self.owner = []
        for number, marker in enumerate(board.markers):
            art = cv2.aruco.generateImageMarker(dictionary, marker.id, cells)
            left, top = marker.corners()[0]
            step = marker.size / cells
            for row in range(cells):
                for column in range(cells):
                    points.append((left + (column + 0.5) * step, top + (row + 0.5) * step))
                    white.append(bool(art[row, column] > 127))
                    self.owner.append(number)
        self.points = np.array(points, np.float64)
        self.white = np.array(white, bool)
        self.cells = cells * cells
        self.markers = len(board.markers)
        marks = self.white.reshape(self.markers, self.cells).astype(np.float64)
        self._pattern = marks - marks.mean(axis=1, keepdims=True)
        """Each marker's cells, white 1 and black 0, less their mean: to correlate with."""
        self._pattern_norm = (self._pattern**2).sum(axis=1)

    def passing(self, grey: Grey, mapping: BoardMapping) -> tuple[int, int]:
        """(markers whose cells read right, or blurred follow their pattern, markers that
        lie within the frame)."""
        projected = mapping.to_image(self.points).reshape(self.markers, self.cells, 2)
        height, width = grey.shape[:2]
        within = (
            (projected[..., 0] >= 1)
            & (projected[..., 0] <= width - 2)
            & (projected[..., 1] >= 1)
            & (projected[..., 1] <= height - 2)
        ).all(axis=1)
        maps = projected.astype(np.float32).reshape(1, -1, 2)
        samples = np.asarray(
            cv2.remap(grey, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR), np.float64
        )
        if samples.ndim == 3:  # a colour frame: its channels' mean is grey enough here
            samples = samples.mean(axis=-1)
        samples = samples.reshape(self.markers, self.cells)
        white = self.white.reshape(self.markers, self.cells)
        # Per marker: every white cell lighter than every black one, and clearly so.
        lightest_dark = np.where(white, -np.inf, samples).max(axis=1)
        darkest_light = np.where(white, samples, np.inf).min(axis=1)
        light = (samples * white).sum(axis=1) / np.maximum(white.sum(axis=1), 1)
        dark = (samples * ~white).sum(axis=1) / np.maximum((~white).sum(axis=1), 1)
        sharp = (darkest_light > lightest_dark) & (light - dark > 25)
        # Blur (a shaken camera, a moving hand's trail) greys a marker's cells into one
        # another, so a white cell beside black ones may sample darker than a lone black
        # one: a marker whose cells follow its pattern closely still stands where it was.
        # On blurred frames measured, a quarter of a cell off, about half the markers fell
        # under MATCHING; half a cell off, too many for the check to pass.
        centred = samples - samples.mean(axis=1, keepdims=True)
        spread = np.sqrt((centred**2).sum(axis=1) * self._pattern_norm)
        matching = (centred * self._pattern).sum(axis=1) >= MATCHING * np.maximum(spread, 1e-9)
        passed = within & (sharp | matching)
        return int(passed.sum()), int(within.sum())


REDETECT_EVERY = 15
"""Find the markers afresh at least this often (frames), even while they check out."""


class RegistrationTracker:
    """The registration of each frame, holding the last good one through occlusions.

    While the markers check out where the last fit puts them, that fit stands (a camera
    and a board that have not moved); otherwise, and every REDETECT_EVERY frames, the
    markers are found afresh."""

    def __init__(self, board: Board) -> None:
        self._board = board
        self._finder = MarkerFinder(board)
        self._check = MarkerCheck(board)
        self._last: Fit | None = None
        self._since_found = 0
        self._apart = False

    @property
    def last(self) -> Fit | None:
        return self._last

    def new_picture(self) -> None:
        """The next frame is a picture taken apart from the last (another photo from the
        same tripod, maybe): the last fit is used only if its markers check out there, and
        is never held for it."""
        self._apart = True

    def update(self, image: NDArray[np.uint8]) -> Fit | None:
        """The fit for a frame, BGR or grey."""
        last = self._last
        apart, self._apart = self._apart, False
        if last is not None and (self._since_found < REDETECT_EVERY or apart):
            passed, within = self._check.passing(image, last.mapping)
            if passed >= max(MIN_MARKERS + 1, 0.6 * within):
                self._since_found += 1
                checked = replace(last.registration, markers_seen=passed, held=False)
                return Fit(last.mapping, checked, last.detection)
        self._since_found = 0
        grey = (
            image
            if image.ndim == 2
            else np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
        )
        # A few markers found in a small, noisy picture may all lie on one edge, one misread
        # may spoil the fit, blurred corners may make it loose, or the sheet may bend: then
        # look harder, and keep the fit on the most markers.
        best: tuple[Detection, tuple[BoardMapping, float]] | None = None
        for effort in range(EFFORTS):
            detection = self._finder.find(grey, effort)
            fitted = fit_mapping(self._board, detection)
            if fitted is not None and fitted[1] <= MAX_ERROR_MM:
                if best is None or len(detection.ids) > len(best[0].ids):
                    best = (detection, fitted)
                # A sheet that does not lie flat is followed only as far as its markers
                # are seen: look harder for the ones missing.
                bent = fitted[0].warp is not None
                if fitted[1] <= GOOD_ERROR_MM and not (
                    bent and len(detection.ids) < len(self._board.markers)
                ):
                    break
        total = len(self._board.markers)
        if best is not None:
            detection, (mapping, error) = best
            registration = Registration(
                markers_seen=len(detection.ids),
                markers_total=total,
                error_mm=error,
                north=north_edge(self._board, mapping.homography),
            )
            self._last = Fit(mapping, registration, detection)
            return self._last
        if self._last is None or apart:
            return None
        held = Registration(
            markers_seen=len(detection.ids),
            markers_total=total,
            error_mm=self._last.registration.error_mm,
            held=True,
            north=self._last.registration.north,
        )
        return Fit(self._last.mapping, held, detection)


UNREADABLE_SHAPES = 8
"""Square shapes found but not read as markers from which the markers are taken to be in
view but too small or blurred to read."""


def not_found_reason(image: NDArray[np.uint8], board: Board) -> str:
    """Why the board was not found in a frame, as a user can act on it."""
    grey = (
        image if image.ndim == 2 else np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
    )
    detector = cv2.aruco.ArucoDetector(
        aruco_dictionary(board.marker_dictionary), cv2.aruco.DetectorParameters()
    )
    _corners, _ids, rejected = detector.detectMarkers(grey)
    if len(rejected) >= UNREADABLE_SHAPES:
        return (
            "the board was not found in a frame: its markers are seen but cannot be read"
            " (too small or blurred): move the camera closer or bring it into focus"
        )
    return "the board was not found in a frame: are the markers in view?"
