"""Learning the crystals' colours, and checking they can be told apart.

The user lays the board out empty, then puts crystals of each colour on the places a plan
names (the built-in plan: two places per colour, far apart, so the light's variation over
the board is learnt too; or a plan file, or one found on the board: vision/plans.py,
vision/anywhere.py). From a frame (or several) of that, each colour's pixels give a model;
then every zone of the same frames is read back with the models: each calibration place must
read its own colour, every other place must read empty, and no colour may be mistaken for
another. Whatever fails is said in words a player understands.

    plan = calibration_plan(("red", "blue", "yellow"))   # {'red': (13, 88), ...}
    result = calibrate(board, frames, plan, roles={"side-1": "red", ...})  # vision.calibrate
    result.problems            # () when every check passed
    result.calibration.save(path)
    load_calibration(path)     # vision/calibration_file.py: a Calibration, or a subclass

Calibration is the base of every kind: MeM's stones extend it (StoneCalibration,
vision/stone_calibration.py), and this module knows nothing of them. Reading a file, which
must choose the kind, is vision/calibration_file.py's, which imports every kind.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.colours import NEUTRAL_CHROMA, ColourModel, chroma_distance, features
from vision.common.files import write_atomically
from vision.geometry import Board, load_board
from vision.lean import Lean
from vision.plans import MAX_COLOURS, PLAN_PLACES, Place, calibration_plan

__all__ = [
    "MAX_COLOURS",
    "PLAN_PLACES",
    "Calibration",
    "CalibrationResult",
    "biggest_blob",
    "calibrated_at",
    "calibration_plan",
    "core_samples",
    "crystal_area",
    "crystal_pixels",
    "faint_crystal_pixels",
    "least_seen",
]

FORMAT = "companion-vision-calibration"
VERSION = 1


@dataclass(frozen=True, slots=True)
class Calibration:
    board_file: str
    """The board description this calibration was made with (a path, or '' for the
    packaged MemWars board)."""
    colours: tuple[ColourModel, ...]
    roles: Mapping[str, str] = field(default_factory=dict)
    """What each colour stands for in the game: 'side-1' -> 'red', 'challenge' -> 'yellow'."""
    north: str = "top"
    image_size: tuple[int, int] = (1280, 720)
    lean: Lean = field(default_factory=Lean)
    """How far crystals' pictures lean from their places (see vision/lean.py)."""
    created: str = ""

    def colour(self, name: str) -> ColourModel:
        for model in self.colours:
            if model.name == name:
                return model
        raise KeyError(name)

    def load_board(self) -> Board:
        return load_board(self.board_file or None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "created": self.created,
            "board_file": self.board_file,
            "north": self.north,
            "image_size": list(self.image_size),
            "lean": {"alpha": self.lean.alpha, "beta": list(self.lean.beta)},
            "roles": dict(self.roles),
            "colours": [
                {
                    "name": m.name,
                    "hue": m.hue,
                    "hue_spread": m.hue_spread,
                    "saturation": m.saturation,
                    "brightness": m.brightness,
                    "area": m.area,
                }
                for m in self.colours
            ],
        }

    def save(self, path: Path) -> None:
        write_atomically(path, (json.dumps(self.to_dict(), indent=2) + "\n").encode())

    @classmethod
    def from_dict(cls, data: Any) -> Calibration:
        """A calibration from what to_dict gave: the parts every calibration has (a subclass
        reads its own besides, and ignores them here)."""
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        if data.get("format") != FORMAT:
            raise ValueError(f"format is not {FORMAT!r}")
        if data.get("version") != VERSION:
            raise ValueError(f"version {data.get('version')!r} is not {VERSION}")
        colours = []
        for item in data["colours"]:
            model = ColourModel(
                name=str(item["name"]),
                hue=float(item["hue"]),
                hue_spread=float(item["hue_spread"]),
                saturation=float(item["saturation"]),
                brightness=float(item["brightness"]),
                area=float(item["area"]),
            )
            if not (model.hue_spread > 0 and model.saturation > 0 and model.area > 0):
                raise ValueError(f"colour {model.name!r}: spreads, saturation and area must be > 0")
            colours.append(model)
        if not colours:
            raise ValueError("no colours")
        width, height = (int(v) for v in data["image_size"])
        lean_data = dict(data.get("lean", {"alpha": 0.0, "beta": [0.0, 0.0]}))
        beta_x, beta_y = (float(v) for v in lean_data["beta"])
        lean = Lean(float(lean_data["alpha"]), (beta_x, beta_y))
        return cls(
            board_file=str(data.get("board_file", "")),
            colours=tuple(colours),
            roles={str(k): str(v) for k, v in dict(data.get("roles", {})).items()},
            north=str(data.get("north", "top")),
            image_size=(width, height),
            lean=lean,
            created=str(data.get("created", "")),
        )


@dataclass(frozen=True, slots=True)
class CalibrationResult:
    calibration: Calibration
    problems: tuple[str, ...]
    """What failed the checks, each a sentence; () when the calibration is sound."""
    found: Mapping[str, tuple[Place, ...]]
    """Colour -> the calibration places (of its own) where a crystal of it was found."""
    notices: tuple[str, ...] = ()
    """What passed the checks but could be better (the paper burnt out to white: its
    crystals are read, less surely), each a sentence; on a refusal they lead `problems`,
    as a likely cause."""


def crystal_area(board: Board, mm_per_px: float) -> float:
    """A crystal's area seen from above, in the sampler's pixels."""
    return float(np.pi * (board.crystal_diameter / 2 / mm_per_px) ** 2)


SEEN_SHARE = 0.2
"""The share of a crystal's area a calibration crystal must show to count as seen."""


def least_seen(board: Board, mm_per_px: float) -> float:
    """The fewest pixels a calibration crystal (or stone) must show to count as seen."""
    return SEEN_SHARE * crystal_area(board, mm_per_px)


def crystal_pixels(
    reflectance: NDArray[np.floating[Any]], mask: NDArray[np.bool_]
) -> NDArray[np.bool_]:
    """The biggest blob of non-paper pixels in a zone: the crystal put there for calibration."""
    feature = features(reflectance)
    brightness = reflectance.mean(axis=-1)
    coloured = (chroma_distance(feature) > NEUTRAL_CHROMA * 1.5) | (brightness < 0.3)
    return biggest_blob(coloured & mask)


FAINT_SPREAD = 6.0
"""How many times the paper's own spread (noise, grain, JPEG) a pixel must stand out from
it by to be taken for part of a faint crystal."""
PAPER_SPREAD = (0.004, 0.02)
"""The least spread assumed of the paper's chromaticity and log brightness: a burnt-out
sheet clipped to white shows none, yet a crystal must still stand clear of it."""


def faint_crystal_pixels(
    reflectance: NDArray[np.floating[Any]], mask: NDArray[np.bool_]
) -> NDArray[np.bool_]:
    """The biggest blob of pixels standing out from the zone's own paper, for a crystal too
    faint for `crystal_pixels`: a board far off and dim, a red crystal under a green light
    (dark, barely red), a small blue one on burnt-out paper.

    The zone is mostly paper, so its median is the paper's look and its median deviation
    the paper's spread; a pixel several spreads away in chromaticity or brightness is not
    paper."""
    feature = features(reflectance)
    own = feature[mask]
    if len(own) == 0:
        return np.zeros_like(mask)
    paper = np.median(own, axis=0)
    deviation = np.abs(own - paper)
    chroma_spread = max(1.4826 * float(np.median(np.hypot(deviation[:, 0], deviation[:, 1]))),
                        PAPER_SPREAD[0])  # fmt: skip
    level_spread = max(1.4826 * float(np.median(deviation[:, 2])), PAPER_SPREAD[1])
    chroma = np.hypot(feature[..., 0] - paper[0], feature[..., 1] - paper[1])
    level = np.abs(feature[..., 2] - paper[2])
    marked = (chroma > FAINT_SPREAD * chroma_spread) | (level > FAINT_SPREAD * level_spread)
    return biggest_blob(marked & mask)


def biggest_blob(marked: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The largest 8-connected blob of marked pixels (none marked: nothing)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        marked.astype(np.uint8), connectivity=8
    )
    if count <= 1:
        return np.zeros_like(marked)
    return np.asarray(labels == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA])))


def core_samples(
    feature: NDArray[np.floating[Any]], blob: NDArray[np.bool_]
) -> NDArray[np.float64]:
    """A blob's most strongly coloured half: its rim blends with the paper."""
    samples = feature[blob]
    if len(samples) >= 6:
        strength = chroma_distance(samples)
        samples = samples[strength >= np.quantile(strength, 0.5)]
    return np.asarray(samples, np.float64)


def calibrated_at() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
