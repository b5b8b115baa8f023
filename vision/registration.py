"""Finding the board in a frame: ArUco markers -> a homography from board millimetres to
image pixels, fitted anew every frame so a nudged board is followed.

Markers are looked for in a half-size grey image (four times fewer pixels; the board's
markers are large) and their corners refined on the full-size one; when too few are found
there, the full-size image is searched as well. With fewer than MIN_MARKERS markers the
tracker keeps the last good fit and says so (`held`): hands often cover part of the border.

    tracker = RegistrationTracker(board)
    fit = tracker.update(grey)          # Fit | None
    fit.homography, fit.registration.markers_seen, fit.registration.held
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.board_art import aruco_dictionary
from vision.geometry import Board
from vision.reading import Registration

Matrix = NDArray[np.float64]
Grey = NDArray[np.uint8]

MIN_MARKERS = 3
"""Fewer markers than this and the fit is not trusted (12 corners make a sound homography;
fewer tend to be all on one edge)."""
MAX_ERROR_MM = 2.5
"""A fit whose markers stray further than this on average is rejected."""
HALF_SIZE_BELOW = 6
"""Search the full-size image too when the half-size one gives fewer markers than this."""


@dataclass(frozen=True, slots=True)
class Detection:
    """Markers found in a frame: ids and their corners in full-size image pixels."""

    ids: tuple[int, ...]
    corners: tuple[NDArray[np.float32], ...]
    """One 4 x 2 array per marker, in ArUco's corner order."""


@dataclass(frozen=True, slots=True)
class Fit:
    homography: Matrix
    """Board millimetres -> image pixels."""
    registration: Registration
    detection: Detection


class MarkerFinder:
    def __init__(self, board: Board) -> None:
        self._board = board
        parameters = cv2.aruco.DetectorParameters()
        parameters.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
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

    def find(self, grey: Grey) -> Detection:
        half = np.asarray(
            cv2.resize(
                grey, (grey.shape[1] // 2, grey.shape[0] // 2), interpolation=cv2.INTER_AREA
            ),
            np.uint8,
        )
        found = self._detect(self._quick, half, scale=2.0)
        if len(found) < HALF_SIZE_BELOW:
            for marker_id, corners in self._detect(self._thorough, grey, scale=1.0).items():
                found.setdefault(marker_id, corners)
        if found:
            self._refine(grey, found)
        ids = tuple(sorted(found))
        return Detection(ids, tuple(found[i] for i in ids))

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
    if len(detection.ids) < MIN_MARKERS:
        return None
    board_points = np.array(
        [corner for i in detection.ids for corner in board.marker_corners(i)], np.float64
    )
    image_points = np.concatenate(detection.corners).astype(np.float64)
    homography, _mask = cv2.findHomography(board_points, image_points, cv2.RANSAC, 3.0)
    if homography is None:
        return None
    back = cv2.perspectiveTransform(
        image_points.reshape(-1, 1, 2), np.linalg.inv(homography)
    ).reshape(-1, 2)
    errors = np.linalg.norm(back - board_points, axis=1)
    # The worst quarter of corners may belong to a marker half under a finger: judge the rest.
    kept = np.sort(errors)[: max(4, math.ceil(len(errors) * 0.75))]
    rms = float(np.sqrt(np.mean(kept**2)))
    return homography.astype(np.float64), rms


def north_edge(board: Board, homography: Matrix) -> str:
    """Which edge of the picture the board's North (the sheet's top) faces."""
    cx, cy = board.width / 2, board.height / 2
    points = np.array([[[cx, cy]], [[cx, 0.0]]], np.float64)
    (centre, north) = cv2.perspectiveTransform(points, homography).reshape(2, 2)
    dx, dy = north - centre
    if abs(dy) >= abs(dx):
        return "top" if dy < 0 else "bottom"
    return "left" if dx < 0 else "right"


class RegistrationTracker:
    """The registration of each frame, holding the last good one through occlusions."""

    def __init__(self, board: Board) -> None:
        self._board = board
        self._finder = MarkerFinder(board)
        self._last: Fit | None = None

    @property
    def last(self) -> Fit | None:
        return self._last

    def update(self, grey: Grey) -> Fit | None:
        detection = self._finder.find(grey)
        fitted = fit_homography(self._board, detection)
        total = len(self._board.markers)
        if fitted is not None and fitted[1] <= MAX_ERROR_MM:
            homography, error = fitted
            registration = Registration(
                markers_seen=len(detection.ids),
                markers_total=total,
                error_mm=error,
                north=north_edge(self._board, homography),
            )
            self._last = Fit(homography, registration, detection)
            return self._last
        if self._last is None:
            return None
        held = Registration(
            markers_seen=len(detection.ids),
            markers_total=total,
            error_mm=self._last.registration.error_mm,
            held=True,
            north=self._last.registration.north,
        )
        return Fit(self._last.homography, held, detection)
