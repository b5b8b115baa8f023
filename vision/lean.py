"""Where crystals appear to stand, seen from an angle: the lean of their picture.

A crystal is a few millimetres tall. Mapped onto the board's plane, its picture stretches
away from the point under the camera, the more so the further it is from that point and
the lower the camera. Calibration measures where the calibration crystals' pictures lie
against their places and fits `offset = alpha * (p - nadir)`, written `alpha * p + beta`;
the reader then looks for each place's crystals that much further out, so a tall crystal
seen from the side is read on its own place and not spilling onto the next.

    lean = fit_lean(places_mm, picture_centres_mm - places_mm)
    lean.at(points)      # offsets, millimetres
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float64]

MAX_ALPHA = 0.2
"""A lean steeper than this (a camera level with the crystals' tops) is not believed."""


@dataclass(frozen=True, slots=True)
class Lean:
    alpha: float = 0.0
    beta: tuple[float, float] = (0.0, 0.0)

    def at(self, points: NDArray[Any]) -> Floats:
        """(n, 2) board points -> (n, 2) offsets, millimetres."""
        return np.asarray(self.alpha * np.asarray(points, np.float64) + np.array(self.beta))


def fit_lean(points: Floats, offsets: Floats) -> Lean:
    """The lean that best explains `offsets` seen at `points` (least squares); none from
    fewer than two points."""
    if len(points) < 2:
        return Lean()
    rows = []
    values = []
    for (x, y), (dx, dy) in zip(points, offsets, strict=True):
        rows.append((x, 1.0, 0.0))
        values.append(dx)
        rows.append((y, 0.0, 1.0))
        values.append(dy)
    solution, *_ = np.linalg.lstsq(np.array(rows), np.array(values), rcond=None)
    alpha = float(np.clip(solution[0], -MAX_ALPHA, MAX_ALPHA))
    if alpha != solution[0]:
        return Lean()
    return Lean(alpha, (float(solution[1]), float(solution[2])))
