"""Setting a camera's exposure from the board's paper before calibrating.

Automatic exposure brings a frame's mean to mid grey: over a dark table the white sheet is
the bright part of a dark picture, and it clips, hiding the crystals' colours. So at
calibration the camera's automatic exposure is turned off and its exposure lowered, step
by step, until the bare paper is clear of full scale with some headroom; then the
exposure and white balance are held there, so that the colours learnt stay the colours
read.

    light = paper_light(image, points_px)           # the paper's brightest channel per point
    light.clipped                                   # the share of paper points at full scale
    next_exposure(exposure, light, limits)          # what to try next; None: this one is right

    metering = meter_exposure(controls, grab, board)  # on a camera; None when it cannot
    print(metering.line)                              # 'Exposure set to ...'
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import Board
from vision.registration import RegistrationTracker
from vision.sources.controls import CameraControls, Unsupported, describe

log = logging.getLogger(__name__)

Image = NDArray[np.uint8]
Grab = Callable[[], Image | None]

CLIPPED = 250.0
"""A channel this bright has clipped (as the reader counts burnt-out paper)."""
HIGHEST = 235.0
"""The paper's brightest channel may come this high: the headroom above it takes a lamp
turned up or a brighter part of the sheet without clipping."""
LOWEST = 140.0
"""Paper darker than this wastes the sensor's range (more noise in the colours)."""
TARGET = 215.0
"""Where an exposure step aims the paper when it is outside HIGHEST..LOWEST."""
CLIPPED_STEP = 0.5
"""What the exposure is multiplied by while most of the paper is clipped: how far over it
is cannot be told."""
GLARE_STEP = 0.8
"""... and while only some of it is (a bright patch, or paper just at full scale)."""
GAMMA = 2.2
"""Pixel values are sRGB: light multiplied by k multiplies them by k ** (1 / GAMMA)."""
LEVEL_PERCENTILE = 90.0
"""The paper's level: most of its points, not its very brightest nor a crystal's shade."""
PATCH = 1
"""Pixels each side of a paper point averaged over."""
STEPS = 10
"""The most exposures tried: from a clipped start, halving then aiming takes a few."""


@dataclass(frozen=True, slots=True)
class PaperLight:
    levels: NDArray[np.float64]
    """The brightest channel of each bare paper point seen in the frame, 0..255."""

    @property
    def seen(self) -> int:
        return len(self.levels)

    @property
    def clipped(self) -> float:
        """The share of the paper points seen whose brightest channel is at full scale."""
        return float(np.mean(self.levels >= CLIPPED)) if self.seen else 0.0

    @property
    def level(self) -> float:
        return float(np.percentile(self.levels, LEVEL_PERCENTILE)) if self.seen else 0.0


def paper_light(image: Image, points_px: NDArray[np.floating]) -> PaperLight:
    """The paper's light at `points_px` (N x 2, image pixels: the board's paper points
    under the current registration); points outside the frame are left out."""
    height, width = image.shape[:2]
    points = np.asarray(points_px, np.float64).reshape(-1, 2)
    columns = np.round(points[:, 0]).astype(np.int64)
    rows = np.round(points[:, 1]).astype(np.int64)
    inside = (
        (columns >= PATCH) & (columns < width - PATCH) & (rows >= PATCH) & (rows < height - PATCH)
    )
    levels = []
    for row, column in zip(rows[inside].tolist(), columns[inside].tolist(), strict=True):
        patch = image[row - PATCH : row + PATCH + 1, column - PATCH : column + PATCH + 1]
        levels.append(float(patch.reshape(-1, image.shape[2]).mean(axis=0).max()))
    return PaperLight(np.array(levels, np.float64))


def next_exposure(exposure: float, light: PaperLight, limits: tuple[float, float]) -> float | None:
    """The exposure to try after one that gave `light` (in the camera's units, which are
    linear in light); None when the paper is right: unclipped, with headroom, not dark."""
    if not light.seen:
        return None
    level = light.level
    if light.clipped == 0 and LOWEST <= level <= HIGHEST:
        return None
    if level >= CLIPPED:
        wanted = exposure * CLIPPED_STEP
    elif light.clipped > 0:
        wanted = exposure * min(GLARE_STEP, (TARGET / level) ** GAMMA)
    else:
        wanted = exposure * (TARGET / level) ** GAMMA
    return min(max(wanted, limits[0]), limits[1])


@dataclass(frozen=True, slots=True)
class Metering:
    exposure: float
    """Where the exposure was left, in the camera's units."""
    right: bool
    """Whether the paper came out unclipped with headroom at it."""
    line: str
    """What to tell the person calibrating, in one line."""


def meter_exposure(
    controls: CameraControls | None, grab: Grab, board: Board, *, steps: int = STEPS
) -> Metering | None:
    """Turns the camera's automatic exposure off, sets the exposure from the board's bare
    paper (the board must be in view), and holds the white balance where it is. None when
    the camera cannot set its exposure: it is left as it was."""
    if controls is None:
        return None
    try:
        controls.set_auto_exposure(False)
        start = exposure = controls.exposure()
    except Unsupported as error:
        log.info("exposure left automatic: %s", error)
        return None
    tracker = RegistrationTracker(board)
    paper = np.array(board.paper, np.float64).reshape(-1, 1, 2)
    right = False
    why = ""
    for _ in range(steps):
        image = _settled(grab, controls.settle_frames)
        if image is None:
            why = "no picture from the camera"
            break
        fit = tracker.update(image)
        if fit is None:
            why = "the board was not found to meter on"
            break
        points = np.asarray(cv2.perspectiveTransform(paper, fit.homography), np.float64)
        light = paper_light(image, points)
        wanted = next_exposure(exposure, light, controls.limits)
        log.debug("paper at %.0f (%.0f%% clipped) at %s", light.level, 100 * light.clipped,
                  describe(controls, exposure))  # fmt: skip
        if wanted is None:
            right = light.seen > 0
            why = "" if right else "no bare paper was seen to meter on"
            break
        try:
            got = controls.set_exposure(wanted)
        except Unsupported as error:
            log.info("exposure left automatic: %s", error)
            _back_to_automatic(controls)
            return None
        if math.isclose(got, exposure):
            why = f"the camera goes no {'lower' if wanted < exposure else 'higher'}"
            break
        exposure = got
    else:
        why = f"the paper was not right after {steps} tries"
    balance = _lock_white_balance(controls)
    said = f"Exposure held at {describe(controls, exposure)}"
    if not math.isclose(exposure, start):
        said = (
            f"Exposure set to {describe(controls, exposure)} (automatic exposure had "
            f"{describe(controls, start)})"
        )
    line = f"{said}{'' if right else f', but {why}'}; {balance}."
    log.info("%s: %s", controls.name, line)
    return Metering(exposure, right, line)


def _settled(grab: Grab, settle_frames: int) -> Image | None:
    """The first frame taken after the last change: those still in flight are dropped."""
    for _ in range(settle_frames):
        grab()
    return grab()


def _lock_white_balance(controls: CameraControls) -> str:
    try:
        balance = controls.lock_white_balance()
    except Unsupported as error:
        log.info("white balance left automatic: %s", error)
        return "white balance left automatic"
    if balance.kelvin is None and balance.gains is None:
        return "white balance held"
    return f"white balance held at {balance}"


def _back_to_automatic(controls: CameraControls) -> None:
    try:
        controls.set_auto_exposure(True)
    except Unsupported as error:
        log.info("cannot turn automatic exposure back on: %s", error)
