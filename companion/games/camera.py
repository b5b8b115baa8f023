"""How a game's board is set up under the camera: what is laid on it to calibrate, where the
calibration is kept, and how the setup screen says what to do and what went wrong. Pure
data and words; the camera work is in companion/table/camera_setup.py.

    profile = find_plugin("mem").camera
    profile.instructions(plan)      # 'Lay the MeM board out empty, then put one stone ...'

A board whose pieces come in more colours than one game uses (a side may take one of
several) lists them all in `palette`; the setup screen lets the user choose which to
calibrate, and the colours every game has (`always`) are calibrated whatever is chosen:

    profile.chosen(("green", "red"))    # ('red', 'green', 'yellow'): the palette's order
    profile.roles(("red", "green", "yellow"))   # {'side-1': 'red', ..., 'challenge': ...}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

Plan = Mapping[str, tuple[int, ...]]
"""Colour -> the places (or squares) a piece of that colour is laid on to calibrate."""

Roles = Callable[[Sequence[str]], Mapping[str, str]]
"""The colours calibrated -> which colour plays which part ('side-1': 'red', ...)."""


def as_given(problems: Sequence[str], plan: Plan) -> tuple[str, ...]:
    return tuple(problems)


def no_roles(colours: Sequence[str]) -> Mapping[str, str]:
    return {}


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
    """The colours calibrated unless others are chosen, one piece each or more as the plan
    says."""
    calibration_file: str
    """The calibration's file name, kept beside the games store."""
    instructions: Callable[[Plan], str]
    """What to lay on the board before calibrating, in one sentence."""
    roles: Roles = no_roles
    """Which colour plays which part among those calibrated, saved with the calibration."""
    problems: Callable[[Sequence[str], Plan], tuple[str, ...]] = as_given
    """A failed calibration's problems as the screen says them."""
    one_a_line: bool = False
    """The problems are said one a line, as sentences (else run together)."""
    saved_note: str = ""
    """Said after a calibration is saved."""
    palette: tuple[str, ...] = ()
    """Every colour the board's pieces may come in, in the order they are calibrated; the
    setup screen offers those not `always` calibrated as choices. () when the board has
    only `colours`."""
    always: tuple[str, ...] = ()
    """The palette's colours every game of the board has: calibrated whatever is chosen."""

    @property
    def choices(self) -> tuple[str, ...]:
        """The colours the setup screen lets the user choose to calibrate or not."""
        return tuple(name for name in self.palette if name not in self.always)

    def chosen(self, picks: Iterable[str]) -> tuple[str, ...]:
        """The colours to calibrate when `picks` are chosen: those of the palette, in its
        order, with the ones always calibrated."""
        wanted = set(picks) | set(self.always)
        return tuple(name for name in self.palette or self.colours if name in wanted)
