"""Looking at rendered frames the way a test needs to: where a board point lands, what
colour a small patch of the picture has."""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import Board


def to_image(homography: NDArray[np.float64], point: tuple[float, float]) -> tuple[float, float]:
    p = cv2.perspectiveTransform(np.array([[point]], np.float64), homography)[0, 0]
    return (float(p[0]), float(p[1]))


def sheet_corners(board: Board, homography: NDArray[np.float64]) -> NDArray[np.float64]:
    corners = [(0.0, 0.0), (board.width, 0.0), (board.width, board.height), (0.0, board.height)]
    return np.array([to_image(homography, c) for c in corners])


def disc_pixels(
    image: NDArray[np.uint8],
    homography: NDArray[np.float64],
    centre: tuple[float, float],
    radius_mm: float,
) -> NDArray[np.uint8]:
    """The pixels within `radius_mm` of a board point, N x 3 BGR."""
    x, y = to_image(homography, centre)
    edge = to_image(homography, (centre[0] + radius_mm, centre[1]))
    radius = max(1, round(np.hypot(edge[0] - x, edge[1] - y)))
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.circle(mask, (round(x), round(y)), radius, 1, -1)
    return np.asarray(image[mask > 0])


def median_hsv(pixels: NDArray[np.uint8]) -> tuple[float, float, float]:
    """Hue in degrees (0..360), saturation and value 0..1 of the median colour."""
    bgr = np.median(pixels, axis=0).astype(np.uint8).reshape(1, 1, 3)
    h, s, v = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV_FULL)[0, 0]
    return (float(h) * 360 / 256, float(s) / 255, float(v) / 255)


def hue_distance(a: float, b: float) -> float:
    d = abs(a - b) % 360
    return min(d, 360 - d)
