"""Pixels of the zones and of the bare paper, straight from the camera frame.

Warping the whole sheet to a top-down picture would cost more than the rest of the reading;
instead every zone gets a small square patch (board millimetres -> image pixels through the
homography, one cv2.remap for all of them) and every paper point a tiny one.

    sampler = Sampler(board)
    patches = sampler.sample(image, homography)
    patches.zones.shape     # (zones, n, n, 3), BGR, n = 2 * radius * px_per_mm + 1
    patches.paper.shape     # (paper points, k, k, 3)
    patches.inside          # per zone: did its patch fall inside the frame?
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import Board, Zone

ZONE_PX_PER_MM = 1.5
PAPER_PATCH = 4
"""The side of a paper point's patch, in samples one millimetre apart."""

_ROW = 512
Image = NDArray[np.uint8]
Floats = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Patches:
    zones: Image
    paper: Image
    inside: NDArray[np.bool_]
    """Per zone: True when its whole patch lies within the frame."""
    paper_inside: NDArray[np.bool_]


def _grid(centre: tuple[float, float], half: float, count: int) -> Floats:
    steps = np.linspace(-half, half, count)
    xs, ys = np.meshgrid(centre[0] + steps, centre[1] + steps)
    return np.stack([xs, ys], axis=-1)


class Sampler:
    def __init__(self, board: Board, px_per_mm: float = ZONE_PX_PER_MM) -> None:
        self.zones: tuple[Zone, ...] = board.zones()
        radius = max(zone.radius for zone in self.zones)
        self.size = int(2 * round(radius * px_per_mm) + 1)
        self.mm_per_px = 2 * radius / (self.size - 1)
        self._zone_mm = np.concatenate(
            [_grid(zone.centre, radius, self.size) for zone in self.zones]
        ).reshape(-1, 2)
        half = (PAPER_PATCH - 1) / 2
        self._paper_mm = np.concatenate(
            [_grid(point, half, PAPER_PATCH) for point in board.paper]
        ).reshape(-1, 2)
        # A pixel belongs to the nearest zone within that zone's radius: crystals pushed
        # aside on a crowded place still count there, never at the neighbour's.
        centres = np.array([zone.centre for zone in self.zones], np.float64)
        points = self._zone_mm.reshape(len(self.zones), -1, 2)
        masks = []
        for index, zone in enumerate(self.zones):
            distances = np.linalg.norm(points[index][:, None, :] - centres[None, :, :], axis=-1)
            own = distances[:, index]
            masks.append((own <= zone.radius) & (own <= distances.min(axis=1) + 1e-9))
        self.masks = np.stack(masks).reshape(len(self.zones), self.size, self.size)
        """Per zone, the pixels of its patch that are its own."""
        self.paper_points = np.array(board.paper, np.float64).reshape(-1, 2)

    def sample(self, image: Image, homography: NDArray[np.float64]) -> Patches:
        zones, zones_in = self._remap(image, homography, self._zone_mm)
        paper, paper_in = self._remap(image, homography, self._paper_mm)
        count = len(self.zones)
        return Patches(
            zones=zones.reshape(count, self.size, self.size, 3),
            paper=paper.reshape(-1, PAPER_PATCH, PAPER_PATCH, 3),
            inside=np.asarray(zones_in.reshape(count, -1).all(axis=1)),
            paper_inside=np.asarray(paper_in.reshape(-1, PAPER_PATCH * PAPER_PATCH).all(axis=1)),
        )

    def sample_zone(
        self, image: Image, homography: NDArray[np.float64], index: int, px_per_mm: float
    ) -> Image:
        """One zone again, finer: for reading a counter's pips."""
        zone = self.zones[index]
        count = int(2 * round(zone.radius * px_per_mm) + 1)
        points = _grid(zone.centre, zone.radius, count).reshape(-1, 2)
        pixels, _inside = self._remap(image, homography, points)
        return pixels.reshape(count, count, 3)

    @staticmethod
    def _remap(
        image: Image, homography: NDArray[np.float64], points: Floats
    ) -> tuple[Image, NDArray[np.bool_]]:
        projected = cv2.perspectiveTransform(points.reshape(-1, 1, 2), homography).reshape(-1, 2)
        height, width = image.shape[:2]
        inside = (
            (projected[:, 0] >= 0)
            & (projected[:, 0] <= width - 1)
            & (projected[:, 1] >= 0)
            & (projected[:, 1] <= height - 1)
        )
        # remap wants maps narrower than 32767 samples: lay the points out in rows.
        count = len(projected)
        padded = -(-count // _ROW) * _ROW
        maps = np.zeros((padded, 2), np.float32)
        maps[:count] = projected
        map_x = maps[:, 0].reshape(-1, _ROW)
        map_y = maps[:, 1].reshape(-1, _ROW)
        pixels = cv2.remap(
            image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0
        )
        return np.asarray(pixels, np.uint8).reshape(-1, 3)[:count], np.asarray(inside)
