"""Training frames shown again as another camera and another calibration might have given
them, so the zone network learns what varies between cameras rather than one renderer's look.

    cells, axes = varied(cells, axes, rng)   # one frame's shrunk zones, its colours' axes

The labels stay as they were: nothing here adds, takes or moves a crystal.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float32]

OVEREXPOSED = 0.4
"""The share of varied frames shown overexposed."""
MOST_GAIN = 2.0
"""The most an overexposed frame's light is raised by, against the paper's."""
SOFT = 0.3
"""The share of varied frames shown softer (out of focus, or a board far off)."""


def varied(cells: Floats, axes: Floats, rng: np.random.Generator) -> tuple[Floats, Floats]:
    """A frame's zones (zones, GRID, GRID, 3 reflectance) and its colours' axes as another
    camera and another calibration might have given them.

    - Overexposed: the paper clips at full white, so against it everything else seems
      brighter and paler than it is (the commonest fault of auto-exposure over a dark table).
    - Softer: a crystal's colour spreads into the paper around it.
    - Calibrated a little differently: each colour's hue, saturation and brightness as
      another calibration picture would have measured them.
    """
    if rng.random() < OVEREXPOSED:
        cells = np.minimum(cells * float(np.exp(rng.uniform(0.0, np.log(MOST_GAIN)))), 1.0)
    if rng.random() < SOFT:
        sigma = float(rng.uniform(0.4, 1.0))
        soft = [cv2.GaussianBlur(zone, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)
                for zone in cells]  # fmt: skip
        cells = np.stack(soft)
    axes = axes.copy()
    axes[:, 0] += rng.normal(0.0, 0.03, len(axes))
    axes[:, 1] *= np.exp(rng.normal(0.0, 0.1, len(axes)))
    axes[:, 2] += rng.normal(0.0, 0.1, len(axes))
    return cells.astype(np.float32), axes.astype(np.float32)
