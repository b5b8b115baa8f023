"""The colour names crystals can be told by from their hue alone, and where each one's hue lies.

The hues are as the reader measures them (vision/colours.py: the direction of a pixel's
chromaticity away from grey, radians, after dividing by the paper's white), so they hold
under warm or cold, dim or bright light. They are the crystal colours of the board's sets
and of the app's side colours (red, blue, green, purple, orange; yellow for challenges)
plus pink and cyan. White, grey and black have no hue, and brown shares orange's: those
need a plan that says where they lie.

    nameable(["red", "blue"])            # None, or the reason a name cannot be told by hue
    nearest(2.1, ["red", "yellow"])      # 'red'
"""

from __future__ import annotations

import math
from collections.abc import Sequence

USUAL_HUES: dict[str, float] = {
    "red": 2.03,
    "orange": 2.35,
    "yellow": 2.59,
    "green": -2.2,
    "cyan": -1.03,
    "blue": -0.66,
    "purple": 0.12,
    "pink": 1.72,
}
"""Radians; measured on the virtual camera's crystals under easy and dim warm light."""

FAR = 0.6
"""How far (radians) a group's hue may lie from its name's usual hue: red to yellow is 0.56,
so a group further than this from every name is a colour nobody named."""


def turn(angle: float) -> float:
    """An angle difference folded into -pi..pi."""
    return (angle + math.pi) % (2 * math.pi) - math.pi


def nameable(colours: Sequence[str]) -> str | None:
    """Why these names cannot be told apart by hue, or None when they can."""
    unknown = [name for name in colours if name not in USUAL_HUES]
    if unknown:
        return (
            f"{unknown[0]} crystals cannot be found by their hue (known: "
            f"{', '.join(USUAL_HUES)}): lay the crystals to a plan instead (--plan FILE)"
        )
    return None


def nearest(hue: float, colours: Sequence[str]) -> str:
    """The named colour whose usual hue is nearest `hue`."""
    return min(colours, key=lambda name: abs(turn(hue - USUAL_HUES[name])))


def distance(hue: float, name: str) -> float:
    return abs(turn(hue - USUAL_HUES[name]))
