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
    plain = brightness[~coloured]
    if plain.size == 0:
        return ()
    darkest, lightest = np.percentile(plain, (3, 97))
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
    spread = PIP_DIAMETER * tile_side / 4
    smooth = np.asarray(cv2.GaussianBlur(brightness.astype(np.float32), (0, 0), spread), np.float64)
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
        tile_level = float(np.percentile(smooth[inner], 10)) if inner.any() else 0.0
        rise = float(lightest) - tile_level
        # Blur spreads the tile's outline: its centre and turn are right, its size is known.
        tile = (rect[0], (tile_side, tile_side), rect[2])
        if _is_ring(smooth, tile, tile_level, rise):
            values.append(None)
            continue
        values.append(_value(_peaks(smooth, inner, tile_level + PEAK * rise, tile_side), tile))
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
