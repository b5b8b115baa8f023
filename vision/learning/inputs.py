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
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.colours import ColourModel
from vision.measure import Measured
from vision.sampling import Sampler

GRID = 20
"""Cells across a zone's picture (a crystal is about 7 cells wide)."""
CHANNELS = 6
NEAR = 0.9
"""A cell this close to a colour (in its own spread, 1 = a crystal's) may be part of one."""
LIMIT = 4.0
"""Inputs are kept within +-LIMIT: a pixel far off every colour needs no finer measure."""

Floats = NDArray[np.float32]


def context_index(sampler: Sampler) -> NDArray[np.intp]:
    """(zones, S * S): for every pixel of every zone's square patch, the sampled point that
    shows the same spot of the picture (its own zone's, or a neighbour's), -1 for none.

    A zone's square reaches into its neighbours: a crystal pushed across the line shows
    whole, and the network sees on which side most of it lies."""
    size = sampler.size
    zones = len(sampler.zones)
    flat = np.full((zones, size * size), -1, np.intp)
    flat[sampler.zone_of_point, sampler.place_in_patch] = np.arange(len(sampler.zone_of_point))
    point_at = flat.reshape(zones, size, size)
    index = np.full((zones, size, size), -1, np.intp)
    rows, columns = np.mgrid[0:size, 0:size]
    for zone in range(zones):
        # A point on the line between two zones is sampled by both: it is the zone's own.
        own = sampler.masks[zone]
        owners = np.where(own, zone, sampler.owners[zone])
        for owner in np.unique(owners[owners >= 0]).tolist():
            drow, dcolumn = (0, 0) if owner == zone else sampler.across(zone, owner)
            here = owners == owner
            r = rows[here] + drow
            c = columns[here] + dcolumn
            fits = (r >= 0) & (r < size) & (c >= 0) & (c < size)
            picked = np.full(len(r), -1, np.intp)
            picked[fits] = point_at[owner, r[fits], c[fits]]
            index[zone][here] = picked
    return index.reshape(zones, size * size)


def zone_squares(
    measured: Measured, index: NDArray[np.intp], reflectance: Floats | None = None
) -> tuple[Floats, NDArray[np.bool_]]:
    """Every zone's square patch as reflectance, reaching into its neighbours (bare paper
    where no zone is), and the masks of each zone's own points. `index` is the sampler's
    `context_index`; `reflectance` the frame's `measured.reflectance`, where it is at hand."""
    if reflectance is None:
        reflectance = measured.reflectance
    # The reflectance's last row is bare paper, which an index of -1 picks.
    squares = reflectance.take(index.reshape(-1), axis=0)
    size = measured.sampler.size
    return squares.reshape(len(index), size, size, 3), measured.sampler.masks


def shrink(squares: NDArray[np.floating], own: NDArray[np.bool_]) -> tuple[Floats, Floats]:
    """(zones, S, S, 3) reflectance and (zones, S, S) own-point masks -> the mean
    reflectance in every GRID x GRID cell, and the share of each cell that is the zone's
    own."""
    zones, size = squares.shape[0], squares.shape[1]
    cell = -(-size // GRID)
    padded = GRID * cell
    if zones == 0:
        return np.ones((0, GRID, GRID, 3), np.float32), np.zeros((0, GRID, GRID), np.float32)
    start = (padded - size) // 2
    inner = slice(start, start + size)
    # The zones side by side in one picture, each padded with bare paper to a whole number
    # of cells: shrinking it by area averages every cell exactly, in one call.
    values = np.ones((padded, zones, padded, 3), np.float32)
    weights = np.zeros((padded, zones, padded), np.float32)
    values[inner, :, inner] = squares.transpose(1, 0, 2, 3)
    weights[inner, :, inner] = own.transpose(1, 0, 2)
    shrunk = (zones * GRID, GRID)
    mean = cv2.resize(values.reshape(padded, -1, 3), shrunk, interpolation=cv2.INTER_AREA)
    share = cv2.resize(weights.reshape(padded, -1), shrunk, interpolation=cv2.INTER_AREA)
    return (
        np.ascontiguousarray(mean.reshape(GRID, zones, GRID, 3).transpose(1, 0, 2, 3)),
        np.ascontiguousarray(share.reshape(GRID, zones, GRID).transpose(1, 0, 2)),
    )


def colour_axes(colours: Sequence[ColourModel]) -> Floats:
    """(colours, 3): each calibrated colour's hue, saturation and log brightness."""
    return np.array([[c.hue, c.saturation, c.brightness] for c in colours], np.float32)


def cell_inputs(mean: Floats, share: Floats, axes: Floats) -> Floats:
    """Shrunk zones (zones, GRID, GRID, 3) and their own shares (zones, GRID, GRID), against
    colours (colours, 3: hue, saturation, log brightness) -> the network's input."""
    frames = _colour_frames(mean, axes)
    return _planes(frames, share, axes, np.arange(len(mean) * len(axes)))


def near_inputs(mean: Floats, share: Floats, axes: Floats) -> tuple[NDArray[np.intp], Floats]:
    """The pairs of `cell_inputs` that `near_colour` keeps, as (their indices, their
    inputs): the same values, without working out the rest's (most of them)."""
    frames = _colour_frames(mean, axes)
    # As near_colour sees them: a cell clipped at LIMIT is far from the colour either way.
    pairs = np.flatnonzero((frames[2] < NEAR).any(axis=(2, 3)))
    return pairs, _planes(frames, share, axes, pairs)


def _planes(
    frames: tuple[Floats, Floats, Floats, Floats, Floats],
    share: Floats,
    axes: Floats,
    pairs: NDArray[np.intp],
) -> Floats:
    """The network's input for the zone-colour `pairs` (zone * colours + colour)."""
    along, across, _distance, others, level = frames
    zone, colour = np.divmod(pairs, len(axes))
    planes = np.empty((len(pairs), CHANNELS, GRID, GRID), np.float32)
    planes[:, 0] = along[zone, colour]
    planes[:, 1] = across[zone, colour]
    planes[:, 2] = level[zone] - axes[colour, 2, None, None]
    planes[:, 3] = level[zone]
    planes[:, 4] = others[zone, colour]
    planes[:, 5] = share[zone]
    np.clip(planes, -LIMIT, LIMIT, out=planes)
    return planes


def _colour_frames(mean: Floats, axes: Floats) -> tuple[Floats, Floats, Floats, Floats, Floats]:
    """Every cell in every colour's own frame, (zones, colours, GRID, GRID): how far it goes
    in the colour's direction and across it, how far from the colour, and how near it comes
    to any other colour; and each cell's log level, (zones, GRID, GRID)."""
    clipped = np.clip(mean.astype(np.float32), 1e-3, None)
    # Channel by channel: numpy is slow to sum along a row of three.
    total: NDArray[Any] = clipped[..., 0] + clipped[..., 1] + clipped[..., 2]
    x = clipped[..., 0] / total - 1 / 3
    y = clipped[..., 2] / total - 1 / 3
    level = np.log(total / 3)
    hue = axes[None, :, 0, None, None]
    saturation = np.maximum(axes[None, :, 1, None, None], 0.02)
    cos, sin = np.cos(hue), np.sin(hue)
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
    return along, across, distance, others, level


def near_colour(inputs: Floats) -> NDArray[np.bool_]:
    """Per zone-colour pair: whether any cell comes near the colour. The rest hold none of
    it, surely."""
    distance = np.hypot(inputs[:, 0] - 1.0, inputs[:, 1])
    return np.asarray((distance < NEAR).any(axis=(1, 2)))
