"""Calibrating the camera for MeM's stones: one stone of each colour on the plan's squares.

    plan = calibration_plan_for(board, ["white", "black", ...])  # one square a colour
    result = calibrate_stones(board, frames, plan, board_file="vision/boards/mem.toml")
    result.problems      # () when every colour can be told from every other and from bare

From the frames (the stones on their squares, nothing else on the board):

1. every square without a calibration stone shows its bare look (see vision/stones.py);
   the typical bare square (point by point, the median of those) stands in for the
   squares under the stones;
2. each stone's blob gives its colour's description, and its place against its square the
   lean of the stones' pictures (a camera from the side: vision/lean.py);
3. the colours are checked against each other: two whose stones lie within reach of each
   other's tolerances cannot be told apart under this light and are named; and the frames
   are read back: each calibration square must read its colour, every other square empty.

The result is a StoneCalibration: a Calibration (so it saves and drives the board reader
like any other) with the stones' descriptions and the bare squares. The base knows nothing
of it: vision/calibration_file.py tells a stone calibration's file from others, and the
board reader asks for its stone counter through vision/stones.py's CountsStones. So this
module may import the reader, to read the calibration frames back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration, CalibrationResult, calibrated_at, least_seen
from vision.colours import ColourModel
from vision.geometry import Board
from vision.lean import Lean, fit_lean
from vision.measure import Measured, Measurer, measure_all
from vision.reader import BoardReader
from vision.stones import (
    FEATURES,
    BareSquares,
    BlobFinder,
    Doubt,
    StoneColour,
    StoneCounter,
    alike_pairs,
    describe,
    glare,
    nearest_paper,
    noise,
    zone_lab,
)

Image = NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class StoneCalibration(Calibration):
    """A calibration for a board of single stones (MeM): each colour's stone and every
    square's bare look, besides what every calibration holds."""

    stones: tuple[StoneColour, ...] = ()
    bare: BareSquares | None = field(default=None)

    def counter(self, measurer: Measurer) -> StoneCounter:
        if self.bare is None:
            raise ValueError("a stone calibration without the bare squares")
        sampler = measurer.sampler
        return StoneCounter(self.stones, self.bare, sampler, measurer.board.crystal_diameter)

    def to_dict(self) -> dict[str, Any]:
        data = Calibration.to_dict(self)
        data["stones"] = {
            "colours": [
                {
                    "name": s.name,
                    **{k: round(getattr(s, k), 4) for k in FEATURES},
                    "area": s.area,
                    "noise": round(s.noise, 3),
                    "glare": round(s.glare, 4),
                }
                for s in self.stones
            ],
            "bare": None if self.bare is None else self.bare.to_dict(),
        }
        return data

    @classmethod
    def from_dict(cls, data: Any) -> StoneCalibration:
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        stones = data["stones"]
        base = Calibration.from_dict({k: v for k, v in data.items() if k != "stones"})
        colours = tuple(
            StoneColour(
                name=str(item["name"]),
                **{k: float(item[k]) for k in FEATURES},
                area=float(item["area"]),
                noise=float(item["noise"]),
                glare=float(item["glare"]),
            )
            for item in stones["colours"]
        )
        return cls(
            board_file=base.board_file,
            colours=base.colours,
            roles=base.roles,
            north=base.north,
            image_size=base.image_size,
            lean=base.lean,
            created=base.created,
            stones=colours,
            bare=BareSquares.from_dict(stones["bare"]),
        )


def calibrate_stones(
    board: Board,
    frames: Iterable[Image],
    plan: Mapping[str, tuple[int, ...]],
    roles: Mapping[str, str] | None = None,
    board_file: str = "",
) -> CalibrationResult:
    images = list(frames)
    problems: list[str] = []
    first = [m for _image, m in measure_all(Measurer(board), images, problems)]
    if not first:
        return _failed(board_file, roles, problems or ["no frames to calibrate from"])
    keys = [zone.key for zone in Measurer(board).sampler.zones]
    where = {name: [keys.index(str(p)) for p in places] for name, places in plan.items()}
    # First without a lean: where the stones' pictures lie gives it.
    lean = _lean(board, first, where)
    measurer = Measurer(board, lean)
    measured = [m for _image, m in measure_all(measurer, images, [])]
    if not measured:
        return _failed(board_file, roles, problems or ["no frames to calibrate from"])
    sampler = measurer.sampler
    bare = _bare_squares(measured, where)
    finder = BlobFinder(bare, sampler.masks, sampler.mm_per_px, board.crystal_diameter)
    stones: list[StoneColour] = []
    found: dict[str, tuple[int, ...]] = {}
    least = least_seen(board, sampler.mm_per_px)
    nearest, weights = nearest_paper(sampler)
    doubts = [(noise(item), glare(item, nearest, weights)) for item in measured]
    for name, places in plan.items():
        features = []
        areas = []
        glares = []
        seen = []
        for place, index in zip(places, where[name], strict=True):
            for item, (frame_noise, glared) in zip(measured, doubts, strict=True):
                blob = finder.find(index, item.zone(index), frame_noise)
                if blob.area < least or len(blob.values) < 8:
                    continue
                features.append(describe(blob.values, blob.rgb))
                areas.append(blob.area)
                glares.append(float(glared[index]))
                if place not in seen:
                    seen.append(place)
        found[name] = tuple(seen)
        if not features:
            squares = " and ".join(str(p) for p in places)
            problems.append(
                f"no {name} stone was seen on square {squares}: if it is there, {name} "
                "cannot be told from the bare square under this light"
            )
            continue
        mean = np.mean(features, axis=0)
        stones.append(
            StoneColour(
                name,
                **{key: float(value) for key, value in zip(FEATURES, mean, strict=True)},
                area=float(np.median(areas)),
                noise=float(np.median([d[0] for d in doubts])),
                glare=float(max(glares)),
            )
        )
    first_fit = measured[0].fit
    height, width = images[0].shape[:2]
    calibration = StoneCalibration(
        board_file=board_file,
        colours=tuple(_summary(stone) for stone in stones),
        roles=dict(roles or {}),
        north=first_fit.registration.north,
        image_size=(width, height),
        lean=lean,
        created=calibrated_at(),
        stones=tuple(stones),
        bare=bare,
    )
    if stones:
        problems.extend(_alike(stones, plan))
        problems.extend(_read_back(calibration, board, images, plan))
    return CalibrationResult(calibration, tuple(dict.fromkeys(problems)), found)


def _summary(stone: StoneColour) -> ColourModel:
    """The stone as the colour list every calibration has (names, hue, area): what is shown
    of a calibration; the stones' reading uses their full description."""
    hue = float(np.arctan2(stone.b, stone.a))
    chroma = float(np.hypot(stone.a, stone.b))
    return ColourModel(
        name=stone.name,
        hue=hue,
        hue_spread=0.1,
        saturation=max(1e-3, chroma / 100),
        brightness=float(np.log(max(stone.middle, 1.0) / 100)),
        area=max(1.0, stone.area),
    )


def _bare_squares(measured: list[Measured], where: Mapping[str, list[int]]) -> BareSquares:
    """Each square's bare look from the frames; the typical square's for the squares that
    hold a calibration stone."""
    squares = len(measured[0].sampler.zones)
    holding = {index for indices in where.values() for index in indices}
    looks = np.mean([[zone_lab(item, i) for i in range(squares)] for item in measured], axis=0)
    seen = np.array([i not in holding for i in range(squares)])
    if not seen.any():
        seen[:] = True
    typical = np.median(looks[seen], axis=0)
    looks[~seen] = typical
    masks = measured[0].sampler.masks
    ab = np.array([looks[i][masks[i]][:, 1:].mean(axis=0) for i in range(squares)])
    return BareSquares(looks[..., 0].astype(np.float32), ab.astype(np.float32), seen)


def _lean(board: Board, measured: list[Measured], where: Mapping[str, list[int]]) -> Lean:
    sampler = measured[0].sampler
    bare = _bare_squares(measured, where)
    finder = BlobFinder(bare, sampler.masks, sampler.mm_per_px, board.crystal_diameter)
    least = least_seen(board, sampler.mm_per_px)
    places = []
    offsets = []
    for item in measured:
        frame_noise = noise(item)
        for indices in where.values():
            for index in indices:
                blob = finder.find(index, item.zone(index), frame_noise)
                if blob.area < least:
                    continue
                offsets.append(
                    (blob.centre[0] * sampler.mm_per_px, blob.centre[1] * sampler.mm_per_px)
                )
                places.append(sampler.zones[index].centre)
    return fit_lean(np.array(places, np.float64), np.array(offsets, np.float64))


def _alike(stones: list[StoneColour], plan: Mapping[str, tuple[int, ...]]) -> list[str]:
    typical = Doubt(float(np.median([stone.noise for stone in stones])))
    unglared = {
        frozenset(pair)
        for pair in alike_pairs([replace(stone, glare=0.0) for stone in stones], typical)
    }
    glare_of = {stone.name: stone.glare for stone in stones}
    problems = []
    hidden: dict[str, list[str]] = {}
    for one, other in alike_pairs(stones, typical):
        if frozenset((one, other)) in unglared:
            problems.append(
                f"{one} and {other} look alike under this light: the camera cannot tell "
                f"{_a(one)} {one} stone from {_a(other)} {other} one, and reads neither (more "
                "light, or light nearer to daylight, may part them)"
            )
            continue
        name = max((one, other), key=lambda n: glare_of[n])
        hidden.setdefault(name, []).append(other if name == one else one)
    for name, others in hidden.items():
        squares = " and ".join(str(p) for p in plan.get(name, ()))
        problems.append(
            f"glare on square {squares} hides the {name} stone's colour: the camera cannot "
            f"tell {name} from {' or '.join(others)}, and reads none of them (move the light, "
            "or the camera, so the paper there is not brighter than around it)"
        )
    return problems


def _a(word: str) -> str:
    return "an" if word[0] in "aeiou" else "a"


def _read_back(
    calibration: StoneCalibration,
    board: Board,
    images: list[Image],
    plan: Mapping[str, tuple[int, ...]],
) -> list[str]:
    reader = BoardReader(calibration, board)
    expected = {str(p): name for name, places in plan.items() for p in places}
    problems = []
    for image in images:
        reader.forget_contents()
        reading = reader.read(image)
        for key, zone in reading.zones.items():
            want = (expected[key],) if key in expected else ()
            if zone.occluded:
                problems.append(f"square {key} cannot be seen: is something over it?")
            elif zone.crystals == want and zone.confidence >= 0.6:
                continue
            elif not want:
                seen = " and ".join(zone.crystals) or "an unsure stone"
                problems.append(
                    f"empty square {key} reads as {seen}: glare, a shadow or a mark on the"
                    " paper there"
                )
            else:
                seen = " and ".join(zone.crystals) or "unsure"
                problems.append(f"square {key} should read {want[0]} but reads {seen}")
    return problems


def _failed(
    board_file: str, roles: Mapping[str, str] | None, problems: list[str]
) -> CalibrationResult:
    empty = StoneCalibration(board_file=board_file, colours=(), roles=dict(roles or {}))
    return CalibrationResult(empty, tuple(problems), {})
