"""Reading a calibration file of any kind: the crystals' (vision/calibration.py) or MeM's
stones' (vision/stone_calibration.py).

    calibration = load_calibration(path)     # UserError for a file that is no calibration
    isinstance(calibration, StoneCalibration)  # True for a file with stones in it

The kinds form a tree (StoneCalibration extends Calibration), and the base knows none of
its subclasses: the choice between them lives here, in a table keyed by the kind a file
holds, so the dependency runs one way, this module -> every kind -> the base. A new kind is
one more entry in KINDS.

Writing needs no such choice: `calibration.save(path)` writes what its class's to_dict gives.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from vision.calibration import Calibration
from vision.common.errors import UserError
from vision.common.files import parsing, read_input_text
from vision.stone_calibration import StoneCalibration

Kind = Literal["crystals", "stones"]

KINDS: Mapping[Kind, Callable[[dict[str, Any]], Calibration]] = {
    "crystals": Calibration.from_dict,
    "stones": StoneCalibration.from_dict,
}
"""How each kind of calibration is read from its JSON object."""


def kind_of(data: Mapping[str, object]) -> Kind:
    """The kind of calibration a file's object holds. The files carry no kind of their own
    (the format predates the stones): a stone calibration is the one with its stones."""
    return "stones" if "stones" in data else "crystals"


def calibration_from_dict(data: object) -> Calibration:
    """The calibration of the kind `data` holds; ValueError, KeyError or TypeError for an
    object no calibration wrote."""
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    return KINDS[kind_of(data)](data)


def load_calibration(path: Path) -> Calibration:
    """The calibration saved at `path`, of whatever kind, or a UserError saying what is
    wrong with the file in one line."""
    if not os.path.lexists(path):
        raise UserError("no such calibration file", where=str(path))
    text = read_input_text(path, "calibration file")
    try:
        with parsing(str(path), "calibration file"):
            data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise UserError(f"not a calibration file: {error}", where=str(path)) from None
    try:
        with parsing(str(path), "calibration file"):
            calibration = calibration_from_dict(data)
    except (KeyError, TypeError, IndexError, AttributeError) as error:
        raise UserError(f"not a calibration file: {error!r}", where=str(path)) from None
    try:
        # "nan" and "inf" as text get past float(); no colour can be measured so.
        json.dumps(calibration.to_dict(), allow_nan=False)
    except ValueError:
        raise UserError(
            "not a calibration file: a number in it is not finite", where=str(path)
        ) from None
    return calibration


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")
