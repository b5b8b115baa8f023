"""Reading topology counters: black tiles with white pips (a die's 2, 3 or 5) on their value
side and a white ring on their logo side.

The patch is sampled finely in board millimetres, so a tile is square in it whatever the
camera's angle. Blur and JPEG spread each pip into a grey halo several pips wide, so pips are
not told by a fixed grey level: the tile is what is darker than halfway between the darkest
and the lightest of the patch, and the pips are the bright peaks inside it. A ring is
bright all round at its radius and dark in its middle.

    values = read_counters(classes, brightness, tile_side)   # (3,) or (None,) or (0,) ...
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.colours import FIRST_COLOUR
from vision.counter_art import PIP_DIAMETER, VALUES, pip_positions

Floats = NDArray[np.floating[Any]]

LEAST_CONTRAST = 0.2
"""A tile is at least this much darker than the paper (in paper whites)."""
PEAK = 0.25
"""A pip or the ring rises at least this share of the way from the tile to the paper."""
PIP_TOLERANCE = 0.14
"""How far (in tile widths) a pip may lie from where a die puts it."""
RING_RADIUS = 0.30
"""The logo ring's radius, in tile widths (vision/counter_art.py draws it)."""
RING_LIT = 0.8
"""Share of the ring's circle that must be bright for a ring."""


def read_counters(
    classes: NDArray[np.uint8], brightness: Floats, tile_side: float
) -> tuple[int | None, ...]:
    """The counters in a finely sampled patch: a value per tile, None face down, 0 present
    but unreadable (a crystal on it, or pips that do not make a die's pattern)."""
    coloured = classes >= FIRST_COLOUR
    spread = PIP_DIAMETER * tile_side / 4
    smooth = np.asarray(cv2.GaussianBlur(brightness.astype(np.float32), (0, 0), spread), np.float64)
    # Smoothed, the darkest and lightest points are the tile's and the paper's, not noise.
    plain = smooth[~coloured]
    if plain.size == 0:
        return ()
    darkest, lightest = float(plain.min()), float(plain.max())
    if lightest - darkest < LEAST_CONTRAST:
        return ()
    middle = darkest + 0.5 * (lightest - darkest)
    dark = ((brightness < middle) & ~coloured).astype(np.uint8)
    # Pips and the ring cut holes in the tile; closing over them gives back whole tiles.
    size = max(3, round(0.3 * tile_side)) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    # Closing treats the patch's edge as dark: pad it, or a tile near the edge grows to it.
    padded = cv2.copyMakeBorder(dark, size, size, size, size, cv2.BORDER_CONSTANT, value=0)
    tiles = cv2.morphologyEx(padded, cv2.MORPH_CLOSE, kernel)[size:-size, size:-size]
    count, labels, stats, _ = cv2.connectedComponentsWithStats(tiles, connectivity=8)
    tile_area = tile_side**2
    values: list[int | None] = []
    for label in range(1, count):
        if not 0.45 * tile_area <= stats[label, cv2.CC_STAT_AREA] <= 1.6 * tile_area:
            continue
        outlines, _ = cv2.findContours(
            (labels == label).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE
        )
        rect = cv2.minAreaRect(np.concatenate(outlines))
        outline = np.zeros(dark.shape, np.uint8)
        cv2.fillConvexPoly(outline, np.round(cv2.boxPoints(rect)).astype(np.int32), 1)
        margin = max(1, round(0.06 * tile_side))
        inner = cv2.erode(outline, np.ones((2 * margin + 1, 2 * margin + 1), np.uint8)).astype(bool)
        if (inner & coloured).sum() > 0.15 * tile_area:
            values.append(0)
            continue
        tile_level = float(smooth[inner].min()) if inner.any() else 0.0
        rise = float(lightest) - tile_level
        # Blur spreads the tile's outline: its centre and turn are right, its size is known.
        tile = (rect[0], (tile_side, tile_side), rect[2])
        if _is_ring(smooth, tile, tile_level, rise):
            values.append(None)
            continue
        floor = tile_level + PEAK * rise
        value = _value(_peaks(smooth, inner, floor, tile_side), tile)
        if value and _ring_lit_between(smooth, tile, floor):
            # Pips on a ring's circle, the rest of it lit too: a ring seen in part (a 2's
            # pips lie on the ring), not pips. Better unreadable than a wrong value.
            value = 0
        values.append(value)
    return tuple(values)


def _is_ring(smooth: Floats, tile: Any, tile_level: float, rise: float) -> bool:
    """Bright all round near the ring's radius (the brightest along each ray, as blur and
    a slightly wrong centre move it) and dark in the middle."""
    (cx, cy), (side, _), _angle = tile
    angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    radii = side * np.linspace(RING_RADIUS - 0.08, RING_RADIUS + 0.08, 5)
    xs = np.round(cx + radii[None, :] * np.cos(angles)[:, None]).astype(int)
    ys = np.round(cy + radii[None, :] * np.sin(angles)[:, None]).astype(int)
    xs = np.clip(xs, 0, smooth.shape[1] - 1)
    ys = np.clip(ys, 0, smooth.shape[0] - 1)
    brightest = smooth[ys, xs].max(axis=1)
    row = int(np.clip(round(cy), 0, smooth.shape[0] - 1))
    column = int(np.clip(round(cx), 0, smooth.shape[1] - 1))
    centre = float(smooth[row, column])
    lit = brightest > max(tile_level, centre) + PEAK * rise
    return bool(lit.mean() >= RING_LIT and centre < tile_level + PEAK * rise)


def _ring_lit_between(smooth: Floats, tile: Any, floor: float) -> bool:
    """Whether the ring's circle is bright away from the diagonals where pips may lie."""
    (cx, cy), (side, _), angle = tile
    turn = np.deg2rad(angle)
    # Across and along the tile, between the corner pips: dark on every die face.
    probes = np.deg2rad(np.array([0.0, 90.0, 180.0, 270.0])) + turn
    radius = RING_RADIUS * side
    xs = np.clip(np.round(cx + radius * np.cos(probes)).astype(int), 0, smooth.shape[1] - 1)
    ys = np.clip(np.round(cy + radius * np.sin(probes)).astype(int), 0, smooth.shape[0] - 1)
    return bool((smooth[ys, xs] > floor).sum() >= 2)


def _peaks(smooth: Floats, inner: NDArray[np.bool_], floor: float, tile_side: float) -> Floats:
    """The centres of the bright peaks inside a tile, (n, 2) x, y."""
    reach = max(3, round(0.25 * tile_side)) | 1
    highest = cv2.dilate(smooth, np.ones((reach, reach), np.uint8))
    peaks = ((smooth >= highest) & inner & (smooth > floor)).astype(np.uint8)
    # A flat top may be a few pixels: one peak.
    _count, _labels, _stats, centroids = cv2.connectedComponentsWithStats(peaks, connectivity=8)
    return np.asarray(centroids[1:], np.float64)


def _value(peaks: Floats, rect: Any) -> int:
    """The die value whose pips lie where the peaks are, every way the tile may be turned
    or mirrored; 0 when no value fits."""
    if len(peaks) not in VALUES:
        return 0
    spots = _tile_coordinates(peaks, rect)
    expected = np.array(pip_positions(len(peaks)))
    for flip_x in (False, True):
        for flip_y in (False, True):
            for swap in (False, True):
                seen = spots.copy()
                if swap:
                    seen = seen[:, ::-1]
                if flip_x:
                    seen[:, 0] = 1 - seen[:, 0]
                if flip_y:
                    seen[:, 1] = 1 - seen[:, 1]
                distances = np.linalg.norm(seen[:, None, :] - expected[None, :, :], axis=-1)
                if (distances.min(axis=0) < PIP_TOLERANCE).all():
                    return len(peaks)
    return 0


def _tile_coordinates(points: Floats, rect: Any) -> Floats:
    """Patch points -> (0..1, 0..1) across the tile, from its rotated rectangle."""
    (cx, cy), (width, height), angle = rect
    turn = np.deg2rad(angle)
    dx, dy = points[:, 0] - cx, points[:, 1] - cy
    u = (dx * np.cos(turn) + dy * np.sin(turn)) / max(width, 1e-6) + 0.5
    v = (-dx * np.sin(turn) + dy * np.cos(turn)) / max(height, 1e-6) + 0.5
    return np.asarray(np.stack([u, v], axis=1), np.float64)
