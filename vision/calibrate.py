"""The calibration procedure: frames of the board with the plan's crystals -> Calibration.

Colours are learnt on the places where a crystal lies alone; places holding several
crystals (a plan file may lay them) are only read back in the checks.

plan = calibration_plan(("red", "blue", "yellow"))
result = calibrate(board, frames, plan, roles={"side-1": "red", "side-2": "blue",
                                               "challenge": "yellow"})
if result.problems: print("\\n".join(result.problems))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.calibration import (
    Calibration,
    CalibrationResult,
    calibrated_at,
    core_samples,
    crystal_pixels,
    faint_crystal_pixels,
    least_seen,
)
from vision.colours import FIRST_COLOUR, ClassTable, ColourModel, classify, features
from vision.geometry import Board
from vision.lean import Lean, fit_lean
from vision.measure import Measured, Measurer, measure_all
from vision.plans import Place, Plan, alone, crystals_by_place
from vision.reader import BoardReader
from vision.stone_calibration import calibrate_stones

Image = NDArray[np.uint8]

CONFUSED = 0.3
"""The share of one colour's pixels taken for another that makes the two 'alike'."""
BLENDS_INTO = 0.4
"""The share of the blends of two colours' crystals that, read as a third colour, makes the
third unreadable beside them: where the two lie together (a challenge piece on a side's
crystal) the edges where they meet read as the third. On the virtual camera with every
side colour (bench/vision.py --sides), red and yellow blend into orange on half their line
and 73 of 496 zones holding orange or read as holding it were misread, nearly all an orange
read where red and yellow lay together; red and blue blend into purple on a quarter of
theirs, and purple was misread on 6 of 510."""
HUE_GAP = 0.37
"""The least difference in hue (radians, 21 degrees) two colours need to be told apart under
every light. On the virtual camera orange lies 0.22 to 0.36 from red and from yellow, and
with blue and orange sides (bench/vision.py --sides blue,orange) 50 of 1451 zones holding
orange or read as holding it were misread, most an orange crystal read with a yellow one
under a warm light that calibration passed. Red and yellow lie 0.5 to 0.6 apart under most
lights, and come as close as 0.38 under warm ones: so measured, one virtual-camera set-up
(0.38) and one physically based training set-up (0.40) read 3 of 1,040 and 2 of 624 places
wrong, none of them red for yellow or yellow for red. Every other pair of side and
challenge colours is further apart."""
BLEND_STEPS = 41
"""Mixtures looked at between two colours, from all of one to all of the other."""
BURNT_NOTICE = 0.5
"""The share of places around which the paper has burnt out to white that calibration
points out. It does not refuse for it: the frames are read back, and on both renderers
set-ups with the paper burnt out round most places read as well as the rest (one on the
virtual camera: 1 of 1,040 places wrong; one physically based training set-up: 3 of 624)."""


def calibrate(
    board: Board,
    frames: Iterable[Image],
    plan: Plan,
    roles: Mapping[str, str] | None = None,
    board_file: str = "",
) -> CalibrationResult:
    if board.game == "mem":
        # MeM: one stone a square, told by its whole colour (vision/stone_calibration.py).
        # A MeM plan is one stone on each of its own numbered squares (vision/plans.py).
        squares = {name: tuple(int(p) for p in places) for name, places in plan.items()}
        return calibrate_stones(board, frames, squares, roles, board_file)
    images = list(frames)
    own = alone(plan)
    problems: list[str] = []
    # First look where the crystals' pictures lie against their places (the lean a
    # tilted camera gives them), then measure again looking there.
    first_look = measure_all(Measurer(board), images, problems)
    if not first_look:
        return _failed(board_file, roles, problems or ["no frames to calibrate from"])
    lean = _fit_lean(board, Measurer(board), first_look, own)
    measurer = Measurer(board, lean)
    measured = measure_all(measurer, images, [])
    if not measured:
        return _failed(board_file, roles, problems or ["no frames to calibrate from"])
    keys = [zone.key for zone in measurer.sampler.zones]
    least = least_seen(board, measurer.sampler.mm_per_px)
    samples: dict[str, list[NDArray[np.float64]]] = {name: [] for name in own}
    areas: dict[str, list[int]] = {name: [] for name in own}
    found: dict[str, list[Place]] = {name: [] for name in own}
    for _image, result in measured:
        for name, places in own.items():
            for place in places:
                index = keys.index(str(place))
                reflectance = result.zone(index)
                blob = _blob(reflectance, measurer.sampler.masks[index], least)
                if blob.sum() < least:
                    continue
                samples[name].append(core_samples(features(reflectance), blob))
                areas[name].append(int(blob.sum()))
                if place not in found[name]:
                    found[name].append(place)
    models = []
    for name, places in own.items():
        missing = [p for p in places if p not in found[name]]
        if missing and len(missing) == len(places):
            where = " and ".join(str(p) for p in missing)
            problems.append(
                f"no {name} crystal was seen on place {where}: if they are there, {name}"
                " cannot be told from the bare board (white, clear and grey crystals look"
                " like the paper)"
            )
        elif missing:
            where = " and ".join(str(p) for p in missing)
            problems.append(f"no {name} crystal was seen on place {where}")
        if not samples[name]:
            continue
        pixels = np.concatenate(samples[name])
        models.append(ColourModel.fit(name, pixels, float(np.median(areas[name]))))
    models = _with_read_areas(models, measured, own, keys, measurer)
    first = measured[0][1]
    height, width = measured[0][0].shape[:2]
    calibration = Calibration(
        board_file=board_file,
        colours=tuple(models),
        roles=dict(roles or {}),
        north=first.fit.registration.north,
        image_size=(width, height),
        lean=lean,
        created=calibrated_at(),
    )
    notices: list[str] = []
    if models:
        problems.extend(_check(calibration, board, measured, plan))
        notices.extend(_burnt_out(measured))
    if problems:
        problems, notices = notices + problems, []
    return CalibrationResult(
        calibration,
        tuple(dict.fromkeys(problems)),
        {k: tuple(v) for k, v in found.items()},
        tuple(dict.fromkeys(notices)),
    )


def _fit_lean(
    board: Board,
    measurer: Measurer,
    measured: list[tuple[Image, Measured]],
    plan: Plan,
) -> Lean:
    """The lean from where each calibration crystal's picture lies against its place."""
    sampler = measurer.sampler
    keys = [zone.key for zone in sampler.zones]
    middle = (sampler.size - 1) / 2
    places = []
    offsets = []
    least = least_seen(board, sampler.mm_per_px)
    for _image, result in measured:
        for places_of_colour in plan.values():
            for place in places_of_colour:
                index = keys.index(str(place))
                blob = _blob(result.zone(index), sampler.masks[index], least)
                if blob.sum() < least:
                    continue
                rows, columns = np.nonzero(blob)
                offsets.append(
                    ((columns.mean() - middle) * sampler.mm_per_px,
                     (rows.mean() - middle) * sampler.mm_per_px)
                )  # fmt: skip
                places.append(sampler.zones[index].centre)
    return fit_lean(np.array(places, np.float64), np.array(offsets, np.float64))


def _with_read_areas(
    models: list[ColourModel],
    measured: list[tuple[Image, Measured]],
    plan: Plan,
    keys: list[str],
    measurer: Measurer,
) -> list[ColourModel]:
    """Each colour's area as the reader will count it: its class's pixels in the zone.

    The blob found first includes the crystal's rim and shaded faces, which the reader
    does not count as the colour; dividing by the blob's area would undercount."""
    table = ClassTable(models)
    result = []
    for number, model in enumerate(models):
        counts = []
        for _image, item in measured:
            for place in plan.get(model.name, ()):
                index = keys.index(str(place))
                classes = table.lookup(item.zone(index))
                counts.append(
                    int(((classes == FIRST_COLOUR + number) & measurer.sampler.masks[index]).sum())
                )
        positive = [c for c in counts if c > 0]
        area = float(np.median(positive)) if positive else model.area
        result.append(replace(model, area=area))
    return result


def keys_of(reader: BoardReader) -> list[str]:
    return [zone.key for zone in reader.measurer.sampler.zones]


def _blob(
    reflectance: NDArray[np.floating[Any]], mask: NDArray[np.bool_], least: float
) -> NDArray[np.bool_]:
    """The calibration crystal's pixels in its zone: plainly coloured or dark ones, or, where
    those are fewer than `least`, the faint crystal standing out from the zone's paper."""
    blob = crystal_pixels(reflectance, mask)
    if blob.sum() >= least:
        return blob
    faint = faint_crystal_pixels(reflectance, mask)
    return faint if faint.sum() > blob.sum() else blob


def _check(
    calibration: Calibration,
    board: Board,
    measured: list[tuple[Image, Measured]],
    plan: Plan,
) -> list[str]:
    """Read the calibration frames back: each plan place its colours, the rest empty."""
    reader = BoardReader(calibration, board)
    expected = crystals_by_place(plan)
    problems = []
    confusions = _confusions(reader, calibration, measured, alone(plan))
    for (a, b), share in confusions.items():
        problems.append(
            f"{a} and {b} look alike under this light ({share:.0%} of {a} read as {b}):"
            " use crystals of more different colours, or better light"
        )
    for a, b, gap in close_hues(calibration.colours):
        problems.append(
            f"{a} and {b} are too close in hue ({np.degrees(gap):.0f} degrees apart, under"
            f" {np.degrees(HUE_GAP):.0f}): under some lights one reads as the other; calibrate"
            f" without {a} or without {b}"
        )
    for (a, b), between in blends(calibration.colours).items():
        problems.append(
            f"{between} lies between {a} and {b}: where {a} and {b} crystals lie together,"
            f" their edges read as {between}; calibrate without {between}, or without {a}"
            f" or {b}"
        )
    unseen: dict[str, set[str]] = {}
    extra: dict[str, set[str]] = {}
    for image, _measured in measured:
        reading = reader.read(image)
        for key, zone in reading.zones.items():
            want = expected.get(key, ())
            if zone.occluded or zone.crystals == want:
                continue
            for name in set(zone.crystals) - set(want):
                extra.setdefault(name, set()).add(key)
            if not want:
                names = " and ".join(sorted(set(zone.crystals)))
                problems.append(
                    f"empty place {key} reads as {names}: {names} cannot be told from the bare"
                    " board (glare, shadow or a colour too close to the paper or print)"
                )
            else:
                seen = " and ".join(zone.crystals) or "empty"
                problems.append(f"place {key} should read {' and '.join(want)} but reads {seen}")
                if not zone.crystals:
                    for name in want:
                        unseen.setdefault(name, set()).add(key)
    for name, places in plan.items():
        missed = unseen.get(name, set())
        if len(missed) == len({str(place) for place in places}):
            problems.append(
                f"{name} cannot be told from the bare board: none of its crystals reads as"
                f" {name} (white, clear and grey crystals look like the paper)"
            )
        elif missed and name in extra:
            # Missed where it lies and seen where it does not: what is read as the colour
            # is the board's own shading, not its crystals.
            lying = sorted(missed, key=_place_order)
            elsewhere = sorted(extra[name], key=_place_order)
            problems.append(
                f"{name} cannot be told from the bare board: none is seen on {_places(lying)},"
                f" and {name} is read on {_places(elsewhere)} where there is none (white, clear"
                " and grey crystals look like the paper)"
            )
    return problems


def _place_order(key: str) -> tuple[int, str]:
    return (int(key), "") if key.isdigit() else (1000, key)


def _places(keys: list[str]) -> str:
    """'place 13', 'places 13 and 88'."""
    return f"place{'s' * (len(keys) > 1)} {' and '.join(keys)}"


def _burnt_out(measured: list[tuple[Image, Measured]]) -> list[str]:
    """Calibration frames whose paper has burnt out to full white round most places: the
    crystals there still show their hue and are read, less surely; less exposure or
    another light would read them surely."""
    notices = []
    for _image, result in measured:
        keys = [zone.key for zone in result.sampler.zones]
        burnt = [key for key, out in zip(keys, result.blinded, strict=True) if out]
        if len(burnt) > BURNT_NOTICE * len(result.blinded):
            notices.append(
                f"the paper is burnt out to full white around {len(burnt)} places (first "
                f"{burnt[0]}): glare or too much exposure; its crystals are read, less "
                "surely; move the light or lower the camera's exposure"
            )
    return notices


def _confusions(
    reader: BoardReader,
    calibration: Calibration,
    measured: list[tuple[Image, Measured]],
    plan: Plan,
) -> dict[tuple[str, str], float]:
    keys = [zone.key for zone in reader.measurer.sampler.zones]
    names = [model.name for model in calibration.colours]
    least = least_seen(reader.board, reader.measurer.sampler.mm_per_px)
    tally = np.zeros((len(names), len(names)), np.int64)
    for _image, result in measured:
        for row, name in enumerate(names):
            for place in plan.get(name, ()):
                index = keys.index(str(place))
                reflectance = result.zone(index)
                blob = _blob(reflectance, reader.measurer.sampler.masks[index], least)
                classes = reader.table.lookup(reflectance[blob])
                for column in range(len(names)):
                    tally[row, column] += int((classes == 3 + column).sum())
    confused = {}
    for row, a in enumerate(names):
        total = tally[row].sum()
        for column, b in enumerate(names):
            if row != column and total and tally[row, column] / total > CONFUSED:
                confused[(a, b)] = float(tally[row, column] / total)
    return confused


def close_hues(models: tuple[ColourModel, ...]) -> list[tuple[str, str, float]]:
    """Every pair of colours closer in hue than HUE_GAP, with how far apart they are."""
    close = []
    for a, b in combinations(models, 2):
        gap = abs((a.hue - b.hue + np.pi) % (2 * np.pi) - np.pi)
        if gap < HUE_GAP:
            close.append((a.name, b.name, float(gap)))
    return close


def blends(models: tuple[ColourModel, ...]) -> dict[tuple[str, str], str]:
    """(a, b) -> the colour that where crystals of a and b lie together their blended edges
    read as (BLENDS_INTO), for every such pair.

    Where two crystals meet, a pixel sees some of each: its light is a mixture of theirs,
    on the line between the two colours as calibrated. That line is classified as the
    reader would."""
    found: dict[tuple[str, str], str] = {}
    mix = np.linspace(0.0, 1.0, BLEND_STEPS)[:, None]
    for first, second in combinations(range(len(models)), 2):
        a, b = _reflectance(models[first]), _reflectance(models[second])
        classes = classify((1 - mix) * a + mix * b, models)
        for number, model in enumerate(models):
            if number in (first, second):
                continue
            if (classes == FIRST_COLOUR + number).mean() >= BLENDS_INTO:
                found[(models[first].name, models[second].name)] = model.name
    return found


def _reflectance(model: ColourModel) -> NDArray[np.float64]:
    """The BGR reflectance of a colour as calibrated: its hue, saturation and brightness
    (vision.colours.features) turned back."""
    blue = 1 / 3 + model.saturation * np.cos(model.hue)
    red = 1 / 3 + model.saturation * np.sin(model.hue)
    total = 3 * np.exp(model.brightness)
    return np.array([blue, 1 - blue - red, red], np.float64) * float(total)


def _failed(
    board_file: str, roles: Mapping[str, str] | None, problems: list[str]
) -> CalibrationResult:
    empty = Calibration(board_file=board_file, colours=(), roles=dict(roles or {}))
    return CalibrationResult(empty, tuple(problems), {})
