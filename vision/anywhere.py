"""Finding the calibration crystals wherever they were laid: frames -> a plan.

Without a reference, a place holds a crystal where a blob of coloured pixels as big as a
good part of a crystal shows against the paper's white (the paper, its print and shadows
are grey). Given a picture of the same board empty, from the same camera, a place holds a
crystal where its picture changed from the empty one: that finds even crystals too pale
to show against the paper (which are then refused, having no hue to be named by).

    plan = find_plan(board, frames, ["red", "blue", "yellow"])             # against paper
    plan = find_plan(board, frames, ["red", "blue", "yellow"], empty=img)  # against img
    result = calibrate(board, frames, plan, roles)                         # vision.calibrate
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import median

import numpy as np
from numpy.typing import NDArray

from vision.calibration import biggest_blob, core_samples, crystal_area
from vision.colours import NEUTRAL_CHROMA, chroma_distance, features, hue_and_saturation
from vision.common.errors import UserError
from vision.crystal_groups import Spot, check_findable, plan_from_spots
from vision.geometry import Board
from vision.measure import Measured, Measurer, measure_all
from vision.plans import Place

Image = NDArray[np.uint8]

COLOURED_FROM = 0.4
"""A coloured blob this big (in crystals' discs) is a crystal: the bare paper's own
coloured specks (print edges, a tinted light) stay under a quarter of one."""
CHANGED_FROM = 0.9
"""A changed blob this big (in crystals' discs) is a crystal: between two shots the print
shifts by a fraction of a pixel and noise and glare vary, which change up to 0.6 of one
round an empty place; a crystal changes 1.1 (a white one) to 2.5 (its shadow included)."""
CHANGE = 0.15
"""Reflectance change (in any channel) that counts a pixel as changed."""


def find_plan(
    board: Board, frames: Sequence[Image], colours: Sequence[str], empty: Image | None = None
) -> dict[str, tuple[Place, ...]]:
    """Which colour lies where, from frames of crystals laid anywhere, one a place.

    UserError, one sentence, when the board cannot be seen or the crystals leave a doubt."""
    check_findable(board, colours)
    return plan_from_spots(find_spots(board, frames, empty), colours)


def find_spots(board: Board, frames: Sequence[Image], empty: Image | None) -> list[Spot]:
    """The places holding a crystal in most frames, with the crystal's look."""
    measurer = Measurer(board)
    problems: list[str] = []
    measured = [result for _image, result in measure_all(measurer, list(frames), problems)]
    if not measured:
        raise UserError(problems[0] if problems else "no frames to calibrate from")
    reference = None
    if empty is not None:
        bare = measure_all(Measurer(board), [empty], problems)
        if not bare:
            raise UserError(f"the empty board's picture: {problems[-1]}")
        reference = bare[0][1]
    size = crystal_area(board, measurer.sampler.mm_per_px)
    seen: dict[str, list[Spot]] = {}
    for result in measured:
        for spot in _spots(result, reference, size):
            seen.setdefault(spot.key, []).append(spot)
    # A place seen in only a few frames was a passing speck of noise or a moving hand.
    return [_combined(spots) for spots in seen.values() if 2 * len(spots) >= len(measured)]


def _spots(result: Measured, reference: Measured | None, size: float) -> list[Spot]:
    sampler = result.sampler
    spots = []
    for index, zone in enumerate(sampler.zones):
        reflectance = result.zone(index)
        feature = features(reflectance)
        if reference is None:
            marked = chroma_distance(feature) > NEUTRAL_CHROMA * 1.5
            least = COLOURED_FROM
        else:
            change = np.abs(reflectance - reference.zone(index)).max(axis=-1)
            marked = change > CHANGE
            least = CHANGED_FROM
        blob = biggest_blob(marked & sampler.masks[index])
        if blob.sum() < least * size:
            continue
        hue, saturation = hue_and_saturation(core_samples(feature, blob))
        centre = math.atan2(float(np.sin(hue).mean()), float(np.cos(hue).mean()))
        turned = (hue - centre + np.pi) % (2 * np.pi) - np.pi
        spots.append(
            Spot(
                key=zone.key,
                hue=centre,
                spread=float(np.sqrt(np.mean(turned**2))),
                saturation=float(np.median(saturation)),
                area=float(blob.sum() / size),
            )
        )
    return spots


def _combined(spots: list[Spot]) -> Spot:
    """One place's spots over several frames as one."""
    hue = math.atan2(sum(math.sin(s.hue) for s in spots), sum(math.cos(s.hue) for s in spots))
    return Spot(
        key=spots[0].key,
        hue=hue,
        spread=median(s.spread for s in spots),
        saturation=median(s.saturation for s in spots),
        area=median(s.area for s in spots),
    )
