"""Closed meshes for the parts of a hand: capsules (a tube with round ends) between two
points, wound anticlockwise seen from outside.

    positions, faces = capsule_mesh(start, end, radius)
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

AROUND = 16
LATITUDES = 5
"""Rings on each round end, pole excluded."""


def capsule_mesh(
    start: NDArray[np.float64], end: NDArray[np.float64], radius: float
) -> tuple[NDArray[np.float32], NDArray[np.uint32]]:
    axis = np.asarray(end, np.float64) - np.asarray(start, np.float64)
    length = float(np.linalg.norm(axis))
    along = axis / length if length > 1e-9 else np.array([0.0, 0.0, 1.0])
    helper = np.array([1.0, 0.0, 0.0]) if abs(along[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    first = np.cross(along, helper)
    first /= np.linalg.norm(first)
    second = np.cross(along, first)
    # Rings from the start's pole to the end's: (height along the axis, ring radius).
    rings = [
        (-radius * math.cos(a), radius * math.sin(a))
        for a in np.linspace(0, math.pi / 2, LATITUDES + 1)[1:]
    ] + [
        (length + radius * math.sin(a), radius * math.cos(a))
        for a in np.linspace(0, math.pi / 2, LATITUDES + 1)[:-1]
    ]
    turns = np.arange(AROUND) * 2 * math.pi / AROUND
    points = [np.asarray(start) - along * radius]
    for height, ring in rings:
        for turn in turns:
            offset = ring * (math.cos(turn) * first + math.sin(turn) * second)
            points.append(np.asarray(start) + along * height + offset)
    points.append(np.asarray(start) + along * (length + radius))
    faces: list[tuple[int, int, int]] = []
    last = len(points) - 1
    for k in range(AROUND):
        after = (k + 1) % AROUND
        faces.append((0, 1 + after, 1 + k))
        for ring in range(len(rings) - 1):
            low, high = 1 + ring * AROUND, 1 + (ring + 1) * AROUND
            faces.append((low + k, low + after, high + after))
            faces.append((low + k, high + after, high + k))
        top = 1 + (len(rings) - 1) * AROUND
        faces.append((top + k, top + after, last))
    positions = np.array(points, np.float32)
    triangles = np.array(faces, np.uint32)
    # Make every triangle face outwards, whichever way the frame above turned out.
    centre = (np.asarray(start) + np.asarray(end)) / 2
    a, b, c = (positions[triangles[:, i]] for i in range(3))
    normals = np.cross(b - a, c - a)
    inward = np.einsum("ij,ij->i", normals, (a + b + c) / 3 - centre) < 0
    triangles[inward] = triangles[inward][:, ::-1]
    return positions, triangles
