"""What the zone network sees: one small picture of a zone per calibrated colour.

A zone's square patch (its own points, as reflectance: the paper near 1 whatever the light)
is shrunk to GRID x GRID cells, and each cell described against one colour at a time: how
far its chromaticity goes in that colour's direction (1 = as far as the colour's crystals
went at calibration) and across it, how bright it is against the colour and against the
paper, how near it is to any *other* calibrated colour, and how much of the cell is the
zone's own. Turning every colour to the same axis is what lets one network count any
colour, including one it never saw in training: a new colour needs calibrating, not
training.

    inputs = zone_inputs(squares, own, colours)     # (zones * colours, CHANNELS, GRID, GRID)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from vision.colours import ColourModel
from vision.measure import Measured

GRID = 20
"""Cells across a zone's picture (a crystal is about 7 cells wide)."""
CHANNELS = 6
LIMIT = 4.0
"""Inputs are kept within +-LIMIT: a pixel far off every colour needs no finer measure."""

Floats = NDArray[np.float32]


def zone_squares(
    measured: Measured, which: NDArray[np.intp] | None = None
) -> tuple[Floats, NDArray[np.bool_]]:
    """The reflectance of zones `which` (all by default) on their square patches, 0 off
    their own points, and the masks of their own points."""
    sampler = measured.sampler
    count = len(sampler.zones)
    chosen = np.arange(count) if which is None else np.asarray(which, np.intp)
    size = sampler.size
    position = np.full(count, -1, np.intp)
    position[chosen] = np.arange(len(chosen))
    slot = position[sampler.zone_of_point]
    kept = slot >= 0
    squares = np.zeros((len(chosen), size * size, 3), np.float32)
    squares[slot[kept], sampler.place_in_patch[kept]] = measured.reflectance[kept]
    return squares.reshape(len(chosen), size, size, 3), sampler.masks[chosen]


def shrink(squares: NDArray[np.floating], own: NDArray[np.bool_]) -> tuple[Floats, Floats]:
    """(zones, S, S, 3) reflectance and (zones, S, S) own-point masks -> the mean
    reflectance of each zone's own points in every GRID x GRID cell, and the share of
    each cell that is the zone's own."""
    zones, size = squares.shape[0], squares.shape[1]
    cell = -(-size // GRID)
    padded = GRID * cell
    values = np.zeros((zones, padded, padded, 3), np.float32)
    weights = np.zeros((zones, padded, padded), np.float32)
    start = (padded - size) // 2
    inner = slice(start, start + size)
    mask = own.astype(np.float32)
    values[:, inner, inner] = squares * mask[..., None]
    weights[:, inner, inner] = mask
    summed = values.reshape(zones, GRID, cell, GRID, cell, 3).sum(axis=(2, 4))
    share = weights.reshape(zones, GRID, cell, GRID, cell).sum(axis=(2, 4))
    mean = summed / np.maximum(share, 1e-6)[..., None]
    # A cell with none of the zone's points reads as bare paper.
    mean[share == 0] = 1.0
    return mean.astype(np.float32), (share / (cell * cell)).astype(np.float32)


def colour_axes(colours: Sequence[ColourModel]) -> Floats:
    """(colours, 3): each calibrated colour's hue, saturation and log brightness."""
    return np.array([[c.hue, c.saturation, c.brightness] for c in colours], np.float32)


def zone_inputs(
    squares: NDArray[np.floating], own: NDArray[np.bool_], colours: Sequence[ColourModel]
) -> Floats:
    """The network's input for every zone and colour, zone after zone:
    (zones * colours, CHANNELS, GRID, GRID)."""
    mean, share = shrink(squares, own)
    return cell_inputs(mean, share, colour_axes(colours))


def cell_inputs(mean: Floats, share: Floats, axes: Floats) -> Floats:
    """Shrunk zones (zones, GRID, GRID, 3) and their own shares (zones, GRID, GRID), against
    colours (colours, 3: hue, saturation, log brightness) -> the network's input."""
    clipped = np.clip(mean.astype(np.float32), 1e-3, None)
    total = clipped.sum(axis=-1)
    x = clipped[..., 0] / total - 1 / 3
    y = clipped[..., 2] / total - 1 / 3
    level = np.log(total / 3)
    hue = axes[None, :, 0, None, None]
    saturation = np.maximum(axes[None, :, 1, None, None], 0.02)
    brightness = axes[None, :, 2, None, None]
    cos, sin = np.cos(hue), np.sin(hue)
    # (zones, colours, GRID, GRID): each cell in each colour's own frame.
    along = (x[:, None] * cos + y[:, None] * sin) / saturation
    across = (y[:, None] * cos - x[:, None] * sin) / saturation
    distance = np.hypot(along - 1.0, across)
    count = len(axes)
    if count > 1:
        others = np.stack(
            [np.delete(distance, k, axis=1).min(axis=1) for k in range(count)], axis=1
        )
    else:
        others = np.full_like(distance, LIMIT)
    zones = mean.shape[0]
    planes = np.empty((zones, count, CHANNELS, GRID, GRID), np.float32)
    planes[:, :, 0] = along
    planes[:, :, 1] = across
    planes[:, :, 2] = level[:, None] - brightness
    planes[:, :, 3] = level[:, None]
    planes[:, :, 4] = others
    planes[:, :, 5] = share[:, None]
    np.clip(planes, -LIMIT, LIMIT, out=planes)
    return planes.reshape(zones * count, CHANNELS, GRID, GRID)
