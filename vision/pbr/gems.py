"""A crystal as a closed faceted solid: an octagonal gem with a short upright girdle, a
sloping crown and a flat table on top, about 0.7 of its width tall, the size the board is
drawn for. Closed, with its faces turned outwards, so a dielectric knows inside from out.

    positions, faces = gem_mesh(diameter=8.0, turn=0.3)   # around (0, 0), foot at z = 0
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

SIDES = 8
RINGS = ((1.0, 0.0), (0.99, 0.3), (0.8, 0.72), (0.5, 1.0))
"""(radius, height) of each ring of corners, as fractions of the gem's radius and height."""
HEIGHT_RATIO = 0.7


def gem_height(diameter: float) -> float:
    return diameter * HEIGHT_RATIO


def gem_mesh(diameter: float, turn: float) -> tuple[NDArray[np.float32], NDArray[np.uint32]]:
    """Corners (right-handed, z up, foot on z = 0) and triangles wound anticlockwise seen
    from outside."""
    radius = diameter / 2
    height = gem_height(diameter)
    angles = turn + np.arange(SIDES) * 2 * math.pi / SIDES
    rings = [
        np.stack(
            [radius * r * np.cos(angles), radius * r * np.sin(angles), np.full(SIDES, height * h)],
            axis=1,
        )
        for r, h in RINGS
    ]
    bottom_centre = np.array([[0.0, 0.0, 0.0]])
    top_centre = np.array([[0.0, 0.0, height]])
    positions = np.concatenate([*rings, bottom_centre, top_centre])
    bottom = len(RINGS) * SIDES
    top = bottom + 1
    faces: list[tuple[int, int, int]] = []
    for side in range(SIDES):
        after = (side + 1) % SIDES
        faces.append((bottom, after, side))
        for ring in range(len(RINGS) - 1):
            low, high = ring * SIDES, (ring + 1) * SIDES
            faces.append((low + side, low + after, high + after))
            faces.append((low + side, high + after, high + side))
        last = (len(RINGS) - 1) * SIDES
        faces.append((last + side, last + after, top))
    return positions.astype(np.float32), np.array(faces, np.uint32)
