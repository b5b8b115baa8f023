"""Calibrating the reader on rendered frames and checking its readings against their truth.

The virtual camera (vision.synth) films a scene whose contents are known, so a reading can
be compared with the truth zone by zone. A calibration is made the way a user makes one:
the plan's crystals on an otherwise empty board, filmed under the same conditions as the
frames that will be read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibrate import calibrate
from vision.calibration import Calibration, CalibrationResult, calibration_plan
from vision.geometry import Board, load_board
from vision.reading import BoardReading
from vision.synth import CHALLENGE, SIDES, Conditions, Glare, Rendered, Scene, render

EASY = Conditions.easy()
STEEP = EASY.replace(tilt=45.0)
"""The steepest the camera may look at the board from (here from the South edge)."""
DIM_WARM = EASY.replace(brightness=0.3, colour_temperature=2700.0, noise=2.5, shot_noise=0.02)
"""One warm bulb in a dim room; the sensor's gain, and so its noise, rises with it."""
GLARE = EASY.replace(
    brightness=0.75, glare=Glare(centre=(150.0, 120.0), radius=80.0, strength=0.3), shine=1.0
)
BURNING_GLARE = EASY.replace(
    glare=Glare(centre=(150.0, 120.0), radius=80.0, strength=0.5), shine=1.0
)
"""Glare that clips the paper to full white around a few places."""
"""A lamp mirrored in the paper over the North-West quadrant, and shiny crystals."""

COLOURS = (*SIDES, CHALLENGE)
ROLES = {"side-1": SIDES[0], "side-2": SIDES[1], "challenge": CHALLENGE}
RED, BLUE = SIDES
YELLOW = CHALLENGE
CALIBRATION_SEED = 101


PLAN_FILE = """\
# Where the crystals lie, as the table had them.
[places]
5 = ["red"]
60 = ["red"]
22 = ["blue"]
97 = ["blue"]
34 = ["yellow"]
71 = ["yellow"]
"diamond-2" = ["blue", "yellow"]
"""
"""A plan file as a user writes one: the default colours on places of their own, two
crystals on a claim diamond."""


def plan_scene(plan: Mapping[str, tuple[int, ...]], leave_out: int | None = None) -> Scene:
    """The board as the calibration plan asks for it: one crystal of each colour on each of
    its places (but `leave_out`), nothing else."""
    return Scene(
        crystals={
            str(place): (name,)
            for name, places in plan.items()
            for place in places
            if place != leave_out
        }
    )


def calibrate_from_render(
    board: Board,
    conditions: Conditions,
    colours: Sequence[str] = COLOURS,
    seed: int = CALIBRATION_SEED,
    leave_out: int | None = None,
) -> CalibrationResult:
    """Calibrate from two frames of the plan's crystals, as a camera would deliver them."""
    plan = calibration_plan(colours)
    scene = plan_scene(plan, leave_out)
    frames = [render(board, scene, conditions, seed, frame=i).image for i in range(2)]
    roles = ROLES if tuple(colours) == COLOURS else None
    return calibrate(board, frames, plan, roles=roles)


@cache
def calibration_under(conditions: Conditions) -> Calibration:
    """The sound calibration for a camera set up under `conditions` (made once per run)."""
    result = calibrate_from_render(load_board(), conditions)
    assert result.problems == (), result.problems
    return result.calibration


def misread(board: Board, reading: BoardReading, scene: Scene) -> list[str]:
    """Every zone whose reading differs from what is on it, in words; [] when all are right.

    An occluded zone is a misreading too: nothing covers these scenes' zones."""
    wrong = []
    for zone in board.zones():
        truth = tuple(sorted(scene.crystals.get(zone.key, ())))
        seen = reading.zones.get(zone.key)
        if seen is None:
            wrong.append(f"{zone.key}: not read")
        elif seen.occluded:
            wrong.append(f"{zone.key}: holds {truth}, read as occluded")
        elif seen.crystals != truth:
            wrong.append(f"{zone.key}: holds {truth}, read {seen.crystals}")
    return wrong


def assert_reads_right(
    board: Board, reading: BoardReading, scene: Scene, only: Sequence[str] | None = None
) -> None:
    """Every zone (or every zone in `only`) reads exactly what is on it."""
    wrong = misread(board, reading, scene)
    if only is not None:
        wrong = [line for line in wrong if line.split(":")[0] in only]
    assert not wrong, f"{len(wrong)} zones misread: " + "; ".join(wrong)


def zones_clear_of(board: Board, shot: Rendered, margin_mm: float) -> tuple[str, ...]:
    """The zones no part of a hand comes within `margin_mm` of, in the picture."""
    mask = shot.hand_mask.astype(np.uint8)
    clear = []
    for zone in board.zones():
        outline = _circle(zone.centre, zone.radius + margin_mm, shot.homography)
        disc = np.zeros_like(mask)
        cv2.fillPoly(disc, [outline], 1)
        if not (disc & mask).any():
            clear.append(zone.key)
    return tuple(clear)


def _circle(
    centre: tuple[float, float], radius: float, homography: NDArray[np.float64]
) -> NDArray[np.int32]:
    angles = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    points = np.stack(
        [centre[0] + radius * np.cos(angles), centre[1] + radius * np.sin(angles)], axis=1
    )
    projected = cv2.perspectiveTransform(points.reshape(-1, 1, 2), homography)
    return np.asarray(np.round(projected), np.int32).reshape(-1, 1, 2)


def game_position() -> Scene:
    """A position from the middle of a game: a third of the places held by either side, a
    challenge piece alone, places with two and three pieces, two claim diamonds taken."""
    crystals: dict[str, tuple[str, ...]] = {}
    for index, number in enumerate(range(2, 101, 3)):
        crystals[str(number)] = ((RED, BLUE, YELLOW)[index % 3],)
    crystals.update(
        {
            "1": (RED, YELLOW),
            "27": (BLUE, YELLOW),
            "50": (RED, BLUE, YELLOW),
            "64": (BLUE, RED),
            "77": (RED, BLUE, YELLOW),
            "diamond-1": (RED,),
            "diamond-4": (BLUE,),
        }
    )
    return Scene(crystals=crystals)
