"""One frame, measured: where the board is, the light on its paper, each zone's reflectance.

This is everything about a frame that does not depend on which crystals exist; reading
(vision/reader.py) and calibrating (vision/calibrate.py) both start here.

    measurer = Measurer(board)
    measured = measurer.measure(image)
    measured.fit.registration.markers_seen
    measured.reflectance.shape          # (zones, n, n, 3), paper ~ 1.0
    measured.paper_covered              # per paper point: covered by something coloured/dark
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.colours import NEUTRAL_CHROMA, WhiteField, chroma_distance, features, fit_white
from vision.geometry import Board
from vision.registration import Fit, RegistrationTracker
from vision.sampling import Patches, Sampler

Image = NDArray[np.uint8]

NEIGHBOUR_MM = 19.0
"""Paper points closer than this are neighbours when looking for a hand-sized cover."""


@dataclass(frozen=True, slots=True)
class Measured:
    fit: Fit
    patches: Patches
    white: WhiteField | None
    """None when too little bare paper was visible to measure the light."""
    reflectance: NDArray[np.float32]
    """(zones, n, n, 3) zone pixels divided by the paper's white at the zone."""
    paper_covered: NDArray[np.bool_]
    """Per paper point: something coloured or dark lies on it (a crystal's edge, a hand)."""


class Measurer:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.tracker = RegistrationTracker(board)
        self.sampler = Sampler(board)
        self._zone_centres = np.array([zone.centre for zone in self.sampler.zones], np.float64)
        points = self.sampler.paper_points
        distance = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=-1)
        self.paper_neighbours = (distance < NEIGHBOUR_MM) & (distance > 0)

    def measure(self, image: Image) -> Measured | None:
        grey = np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), np.uint8)
        fit = self.tracker.update(grey)
        if fit is None:
            return None
        patches = self.sampler.sample(image, fit.homography)
        paper = np.median(patches.paper.reshape(len(patches.paper), -1, 3), axis=1)
        white = fit_white(self.sampler.paper_points, paper, patches.paper_inside)
        reflectance: NDArray[np.float32]
        if white is None:
            reflectance = np.zeros(patches.zones.shape, np.float32)
            covered = patches.paper_inside.copy()
        else:
            zone_white = np.maximum(white.at(self._zone_centres), 1.0)
            scale = (1 / zone_white[:, None, None, :]).astype(np.float32)
            reflectance = np.asarray(patches.zones * scale, np.float32)
            paper_white = np.maximum(white.at(self.sampler.paper_points), 1.0)
            ratio = paper / paper_white
            chromatic = chroma_distance(features(ratio)) > NEUTRAL_CHROMA * 1.5
            dark = ratio.mean(axis=1) < 0.35
            covered = patches.paper_inside & (chromatic | dark)
        return Measured(fit, patches, white, reflectance, covered)

    def largest_cover(self, covered: NDArray[np.bool_]) -> int:
        """The most paper points one connected cover spans (a crystal: 1 or 2; a hand: many)."""
        best = 0
        unseen = set(np.flatnonzero(covered).tolist())
        while unseen:
            stack = [unseen.pop()]
            size = 0
            while stack:
                point = stack.pop()
                size += 1
                for other in np.flatnonzero(self.paper_neighbours[point] & covered).tolist():
                    if other in unseen:
                        unseen.remove(other)
                        stack.append(other)
            best = max(best, size)
        return best
