"""Calibration files, mutated from a crystal calibration and a MeM stone one: every one
loads, or is one clear line."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.harness import FUZZ, hostile_scalar, mutated, survives, write
from tests.fuzz.test_fuzz_records import leaves, replaced

COLOUR = {
    "name": "red",
    "hue": 3.0,
    "hue_spread": 8.0,
    "saturation": 180.0,
    "brightness": 150.0,
    "area": 300.0,
}
CRYSTALS: dict[str, Any] = {
    "format": "companion-vision-calibration",
    "version": 1,
    "created": "2026-11-22T10:00:00Z",
    "board_file": "",
    "north": "top",
    "image_size": [1280, 720],
    "lean": {"alpha": 0.0, "beta": [0.0, 0.0]},
    "roles": {"side-1": "red"},
    "colours": [COLOUR, {**COLOUR, "name": "blue", "hue": 110.0}],
}
STONES: dict[str, Any] = {
    **CRYSTALS,
    "stones": {
        "colours": [
            {
                "name": "white",
                **dict.fromkeys(("dark", "middle", "light", "a", "b", "red", "green"), 1.0),
                "area": 200.0,
                "noise": 1.0,
                "glare": 0.0,
            }
        ],
        "bare": {
            "shape": [2, 4],
            "lightness": base64.b64encode(zlib.compress(bytes(8))).decode(),
            "ab": [[0.0, 0.0], [0.0, 0.0]],
            "seen": [True, False],
        },
    },
}
BOMB = base64.b64encode(zlib.compress(bytes(200_000_000), 9)).decode()
"""A few hundred kB that inflate to 200 MB."""
SEEDS = [CRYSTALS, STONES]


def load(path: Path) -> None:
    from vision.calibration_file import load_calibration

    load_calibration(path)


@FUZZ
@given(which=st.integers(0, 1), data=st.data())
def test_a_mutated_calibration_loads_or_is_refused(
    tmp_path: Path, which: int, data: st.DataObject
) -> None:
    seed = json.dumps(SEEDS[which], indent=2).encode()
    path = write(tmp_path / "calibration.json", data.draw(mutated(seed)))
    survives("calibration bytes", lambda: load(path))


@FUZZ
@given(which=st.integers(0, 1), data=st.data())
def test_a_calibration_with_a_hostile_value_loads_or_is_refused(
    tmp_path: Path, which: int, data: st.DataObject
) -> None:
    seed = SEEDS[which]
    at = data.draw(st.sampled_from(leaves(seed)))
    value = data.draw(st.one_of(hostile_scalar(), st.just(BOMB)))
    text = json.dumps(replaced(seed, at, value))
    path = write(tmp_path / "calibration.json", text.encode("utf-8", "surrogatepass"))
    survives("calibration values", lambda: load(path))
