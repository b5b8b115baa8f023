"""How a game's board is set up under the camera: what is laid on it to calibrate, where the
calibration is kept, and how the setup screen says what to do and what went wrong. Pure
data and words; the camera work is in companion/table/camera_setup.py.

    profile = find_plugin("mem").camera
    profile.instructions(plan)      # 'Lay the MeM board out empty, then put one stone ...'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

Plan = Mapping[str, tuple[int, ...]]
"""Colour -> the places (or squares) a piece of that colour is laid on to calibrate."""


def as_given(problems: Sequence[str], plan: Plan) -> tuple[str, ...]:
    return tuple(problems)


def crystal_instructions(plan: Plan) -> str:
    """Crystals laid on the places of a board: the calibration of any board file."""
    crystals = "; ".join(
        f"one {name} crystal on places {' and '.join(map(str, places))}"
        for name, places in plan.items()
    )
    return f"Lay the board out empty, then put {crystals}."


@dataclass(frozen=True)
class CameraProfile:
    colours: tuple[str, ...]
    """The colours calibrated, one piece each or more as the plan says."""
    calibration_file: str
    """The calibration's file name, kept beside the games store."""
    instructions: Callable[[Plan], str]
    """What to lay on the board before calibrating, in one sentence."""
    roles: Mapping[str, str] | None = None
    """Which colour plays which part ('side-1': 'red', ...), saved with the calibration."""
    problems: Callable[[Sequence[str], Plan], tuple[str, ...]] = as_given
    """A failed calibration's problems as the screen says them."""
    one_a_line: bool = False
    """The problems are said one a line, as sentences (else run together)."""
    saved_note: str = ""
    """Said after a calibration is saved."""
