"""The topology counters as pictures: what `companion print counters` prints and the
virtual camera films, and what the reader recognises.

A counter is a black square tile. Face up it shows its value as white pips laid out like a
die's (2, 3 or 5): a person reads it at a glance and the camera counts the pips. Face down
it shows a white ring, the logo side, which has no pips to count.

    tile = draw_counter(5, px_per_mm=8, size_mm=11)   # BGR, black with five white pips
    tile = draw_counter(None, px_per_mm=8, size_mm=11)  # face down
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

VALUES = (5, 3, 2)
"""The values of the topology counters (MW-C7)."""

PIP_DIAMETER = 0.2
"""A pip's diameter as a fraction of the tile's side."""

_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((0.28, 0.28), (0.72, 0.72)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    5: ((0.26, 0.26), (0.74, 0.26), (0.5, 0.5), (0.26, 0.74), (0.74, 0.74)),
}
"""Pip centres as fractions of the tile's side, x right and y down."""


def pip_positions(value: int) -> tuple[tuple[float, float], ...]:
    if value not in _PIPS:
        raise ValueError(f"a topology counter is worth 5, 3 or 2, not {value}")
    return _PIPS[value]


def draw_counter(value: int | None, px_per_mm: float, size_mm: float) -> NDArray[np.uint8]:
    """One tile, BGR, `size_mm` square: pips for a value, a ring for the face-down side."""
    side = max(8, round(size_mm * px_per_mm))
    tile = np.full((side, side, 3), 20, np.uint8)
    white = (255, 255, 255)
    if value is None:
        centre = (side // 2, side // 2)
        cv2.circle(tile, centre, round(side * 0.30), white, max(1, round(side * 0.09)), cv2.LINE_AA)
    else:
        radius = max(1, round(side * PIP_DIAMETER / 2))
        for fx, fy in pip_positions(value):
            cv2.circle(tile, (round(fx * side), round(fy * side)), radius, white, -1, cv2.LINE_AA)
    return tile
