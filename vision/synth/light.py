"""The main light as the objects see it: its direction, and how brightly a surface facing a
given way is lit compared with the bare paper.

The light is an extended lamp (plus the room's ambient light from above), so surfaces facing
away from it are dim rather than black, and shadows are soft.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.synth.conditions import Conditions

AMBIENT = 0.45
"""Light from the room and ceiling, reaching anything that faces up."""
DIRECT = 0.75
"""The lamp, for a surface facing it squarely."""

Vector = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Light:
    towards: Vector
    """Unit vector from the table towards the lamp, world axes (z down, so its z < 0)."""
    size: float
    """Angular size, radians."""

    @property
    def elevation(self) -> float:
        return math.asin(-float(self.towards[2]))

    @property
    def shadow_offset(self) -> tuple[float, float]:
        """Where the shadow of a point 1 mm above the table falls, relative to its foot."""
        x, y, z = self.towards
        return (float(x / z), float(y / z))

    def shade(self, normals: NDArray[np.float64]) -> NDArray[np.float64]:
        """Irradiance of surfaces with these unit normals (N x 3), as a fraction of what the
        flat paper receives."""
        up = np.array([0.0, 0.0, -1.0])
        ambient = AMBIENT * (0.55 + 0.45 * (normals @ up))
        direct = DIRECT * np.clip(normals @ self.towards, 0.0, None)
        return np.asarray((ambient + direct) / (AMBIENT + DIRECT * math.sin(self.elevation)))


def light(conditions: Conditions) -> Light:
    azimuth = math.radians(conditions.light_azimuth)
    elevation = math.radians(conditions.light_elevation)
    towards = np.array(
        [
            math.cos(elevation) * math.cos(azimuth),
            math.cos(elevation) * math.sin(azimuth),
            -math.sin(elevation),
        ]
    )
    return Light(towards, conditions.light_size)
