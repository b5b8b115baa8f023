"""Telling crystals from paper, whatever the light: the paper's own white is the reference.

Every frame the bare paper points are measured and a smooth white field (a quadratic in
board millimetres, per channel, fitted robustly so covered points drop out) is fitted; each
zone's pixels are divided by the white at its centre. What is left is close to the
material's reflectance: paper near 1 in every channel under dim or bright, warm or cold
light, a red crystal high in red and low in the rest.

Each pixel is then described by its chromaticity (how the three channels share the light)
and its brightness, and looked up in a table of classes built once from the calibration:
BACKGROUND (paper, its shadows and the grey print), BLACK (a counter's tile), UNKNOWN
(coloured, but like no crystal: skin, a sleeve), or one of the calibrated colours.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.floating[Any]]

BACKGROUND = 0
BLACK = 1
UNKNOWN = 2
FIRST_COLOUR = 3
"""Class numbers: calibrated colour i is FIRST_COLOUR + i."""

BINS = 40
TOP = 1.6
"""Reflectance is looked up in BINS steps per channel from 0 to TOP (glare saturates)."""

NEUTRAL_CHROMA = 0.045
"""How far from grey (in chromaticity) paper, print and shadows may drift."""
DARK_GREY = 0.6
"""Below this reflectance a grey surface may drift further from grey (NEUTRAL_CHROMA
times the square root of how many times darker it is)."""
BLACK_BELOW = 0.35
"""Reflectance under which a grey pixel is a black tile rather than a shadow or print.
Reflectance is the camera's value against the paper's, and a camera stores about the
1/2.2 power of the light: a tile sending back a twentieth of the paper's light shows at a
quarter to a third of its value, more with the lens's flare and blur. At 0.22 no counter
was found on the physically based scenes (their tiles showed at about 0.3)."""
DARK_BELOW = 0.2
"""Reflectance under which colour cannot be judged (noise and print edges dominate
chromaticity): such pixels count as black unless they match a calibrated colour."""
BRIGHTNESS_SPREAD = 0.6
"""How far (in log brightness) a crystal's shaded or lit side may stray from calibration."""
CHROMA_FLOOR = 0.012
"""Chromaticity noise of a paper-white pixel (sensor noise, JPEG)."""
HUE_FLOOR = 0.1
"""The least hue spread (radians) a colour gets."""
MIN_SATURATION_SHARE = 0.35
"""A colour's pixel has at least this share of the colour's calibrated saturation (within
0.04..0.1): the rim of a crystal, half paper, still counts; a faint tint of the paper
never does."""
DARKEST_COLOUR = 0.12
"""Below this reflectance a pixel's hue is noise: it is black, whatever it looks like."""
FAINT_SHARE = 0.6
"""A pixel with less than this share of a colour's saturation must also have this share
of its brightness to be that colour."""
COLOUR_LIMIT = 3.5
"""Hue errors (in spreads) beyond which a pixel is not the colour."""


def features(reflectance: Floats) -> Floats:
    """(..., 3) BGR reflectance -> (..., 3): chromaticity b, chromaticity r, log brightness."""
    clipped = np.clip(reflectance, 1e-3, None)
    total = clipped.sum(axis=-1)
    chroma_b = clipped[..., 0] / total
    chroma_r = clipped[..., 2] / total
    brightness = np.log(total / 3)
    return np.stack([chroma_b, chroma_r, brightness], axis=-1)


def chroma_distance(feature: Floats) -> Floats:
    """How far a pixel's chromaticity is from grey (1/3, 1/3)."""
    return np.asarray(np.hypot(feature[..., 0] - 1 / 3, feature[..., 1] - 1 / 3), np.float64)


def hue_and_saturation(feature: Floats) -> tuple[Floats, Floats]:
    """The direction (radians) and length of a pixel's chromaticity away from grey."""
    x = feature[..., 0] - 1 / 3
    y = feature[..., 1] - 1 / 3
    return np.arctan2(y, x), np.hypot(x, y)


@dataclass(frozen=True, slots=True)
class ColourModel:
    """A crystal colour as calibrated: mostly its hue.

    A crystal's edge blends with the paper and its shaded side is darker, but both keep the
    crystal's hue; so a pixel belongs to the colour when its hue is close, it is at least
    somewhat saturated, and its brightness is roughly right."""

    name: str
    hue: float
    """Radians, the direction of the colour's chromaticity away from grey."""
    hue_spread: float
    saturation: float
    brightness: float
    """Log of the mean reflectance."""
    area: float
    """Pixels one crystal of this colour covers in a zone patch, as the reader counts them."""

    @classmethod
    def fit(cls, name: str, samples: Floats, area: float) -> ColourModel:
        # Dark pixels' chromaticity is mostly noise: judge the colour on the lit ones.
        lit = samples[np.exp(samples[:, 2]) >= 0.2]
        if len(lit) >= max(5, len(samples) // 4):
            samples = lit
        hue, saturation = hue_and_saturation(samples)
        centre = float(np.arctan2(np.sin(hue).mean(), np.cos(hue).mean()))
        spread = float(np.sqrt(np.mean(_turn(hue - centre) ** 2)))
        return cls(
            name=name,
            hue=centre,
            hue_spread=max(HUE_FLOOR, spread),
            saturation=float(np.median(saturation)),
            brightness=float(np.median(samples[:, 2])),
            area=float(area),
        )

    def hue_error(self, feature: Floats) -> Floats:
        """How far each pixel's hue is from this colour's, in spreads."""
        hue, saturation = hue_and_saturation(feature)
        return self._hue_error(hue, saturation, _level(feature))

    def _hue_error(self, hue: Floats, saturation: Floats, level: Floats) -> Floats:
        # Hue is noisy where saturation or brightness is low: widen the tolerance there.
        noise = np.arctan2(CHROMA_FLOOR / level, np.maximum(saturation, 1e-6))
        return np.asarray(np.abs(_turn(hue - self.hue)) / np.hypot(self.hue_spread, noise))

    def distance(self, feature: Floats) -> Floats:
        """How unlike this colour each pixel is (in spreads); inf where it cannot be it."""
        hue, saturation = hue_and_saturation(feature)
        level = _level(feature)
        hue_error = self._hue_error(hue, saturation, level)
        saturation_error = (saturation - self.saturation) / (self.saturation * 0.5)
        brightness_error = (feature[..., 2] - self.brightness) / BRIGHTNESS_SPREAD
        score = np.sqrt(hue_error**2 + 0.3 * saturation_error**2 + 0.3 * brightness_error**2)
        least = min(max(MIN_SATURATION_SHARE * self.saturation, 0.04), 0.1)
        # Glare on a crystal adds the lamp's white: the colour's share of the light falls as
        # the pixel brightens, while its hue holds. Short of the paper's own tint, though.
        washed = np.minimum(1.0, np.exp(self.brightness) / level)
        least_here = np.maximum(least * washed, min(least, NEUTRAL_CHROMA))
        possible = (
            (saturation >= least_here) & (hue_error < COLOUR_LIMIT) & (level >= DARKEST_COLOUR)
        )
        # Shading keeps a crystal's chromaticity; a faint tint that is also dark is where a
        # crystal's picture blurs into its own shadow, whose hue drifts.
        possible &= (saturation >= FAINT_SHARE * self.saturation) | (
            level >= FAINT_SHARE * np.exp(self.brightness)
        )
        return np.asarray(np.where(possible, score, np.inf), np.float64)


def _level(feature: Floats) -> Floats:
    """Each pixel's reflectance, kept off zero."""
    return np.asarray(np.maximum(np.exp(feature[..., 2]), 0.05), np.float64)


def _turn(angle: Floats) -> Floats:
    """An angle difference folded into -pi..pi."""
    return np.asarray((angle + np.pi) % (2 * np.pi) - np.pi, np.float64)


def classify(reflectance: Floats, colours: Sequence[ColourModel]) -> NDArray[np.uint8]:
    """The class of each pixel, straight from the rules (the table is built from this)."""
    feature = features(reflectance)
    brightness = reflectance.mean(axis=-1)
    # A dark surface's tint is mostly what it mirrors (a glossy black counter shows the
    # lamps' warmth) and noise: the darker, the further from grey it may drift.
    darkness = np.sqrt(np.maximum(1.0, DARK_GREY / np.maximum(brightness, 0.05)))
    grey = chroma_distance(feature) < NEUTRAL_CHROMA * darkness
    classes = np.full(reflectance.shape[:-1], UNKNOWN, np.uint8)
    if colours:
        distances = np.stack([model.distance(feature) for model in colours])
        # A crystal's rim, shade or washed-out side keeps its hue and loses saturation: a
        # pixel nearest one colour's hue is never another colour, even where it is too
        # faint to be its own.
        hue_errors = np.stack([model.hue_error(feature) for model in colours])
        nearest_hue = hue_errors.argmin(axis=0)
        others = np.arange(len(colours)).reshape((-1,) + (1,) * nearest_hue.ndim)
        distances = np.where(others == nearest_hue, distances, np.inf)
        nearest = distances.argmin(axis=0)
        close = np.isfinite(distances.min(axis=0))
        classes[close] = (FIRST_COLOUR + nearest[close]).astype(np.uint8)
    else:
        close = np.zeros(classes.shape, bool)
    background = grey & (brightness >= BLACK_BELOW) & ~close
    classes[background] = BACKGROUND
    black = ((grey & (brightness < BLACK_BELOW)) | (brightness < DARK_BELOW)) & ~close
    classes[black] = BLACK
    return classes


class ClassTable:
    """classify() for every reflectance cell, so a frame costs one table look-up per pixel."""

    def __init__(self, colours: Sequence[ColourModel]) -> None:
        centres = (np.arange(BINS) + 0.5) * (TOP / BINS)
        b, g, r = np.meshgrid(centres, centres, centres, indexing="ij")
        cells = np.stack([b, g, r], axis=-1)
        self.table = classify(cells, colours).reshape(-1)
        self.levels = cells.mean(axis=-1).reshape(-1).astype(np.float32)
        """Each cell's mean reflectance."""
        self.colours = tuple(colours)

    def lookup_levels(self, reflectance: Floats) -> tuple[NDArray[np.uint8], NDArray[np.float32]]:
        """lookup(reflectance), in fewer passes over the pixels; with each pixel's mean
        reflectance, to the table's step."""
        steps = np.multiply(reflectance, np.float32(BINS / TOP), dtype=np.float32)
        index = steps.astype(np.int32)
        np.minimum(index, BINS - 1, out=index)
        # In place, a channel at a time: the fewest passes over the pixels.
        flat = index[..., 0] * (BINS * BINS)
        flat += index[..., 1] * BINS
        flat += index[..., 2]
        return np.asarray(self.table.take(flat), np.uint8), self.levels.take(flat)

    def lookup(self, reflectance: Floats) -> NDArray[np.uint8]:
        index = np.clip((reflectance * (BINS / TOP)).astype(np.int32), 0, BINS - 1)
        flat = (index[..., 0] * BINS + index[..., 1]) * BINS + index[..., 2]
        return np.asarray(self.table[flat], np.uint8)


@dataclass(frozen=True, slots=True)
class WhiteField:
    """The paper's colour across the board: a quadratic in board millimetres per channel."""

    coefficients: Floats
    """(6, 3): terms 1, x, y, xx, xy, yy; x and y scaled to about -1..1."""
    scale: tuple[float, float, float, float]
    inliers: NDArray[np.bool_]
    """Which paper points the fit kept (the others were covered or in deep shadow)."""
    residual: Floats
    """(points, 3): each paper point's colour over the quadratic's there."""
    bare: NDArray[np.bool_]
    """Paper points that show bare paper, however lit (glare and shadow included)."""

    def at(self, points: Floats) -> Floats:
        return np.asarray(_terms(points, self.scale) @ self.coefficients, np.float64)

    def near(self, points: Floats, nearest: NDArray[np.intp], weights: Floats) -> Floats:
        """The white at `points`, following local light the quadratic cannot (a glare spot,
        a shadow's edge): the quadratic times the bare paper points nearby over it.

        `nearest` and `weights` (points x k) name each point's nearby paper points."""
        chosen = weights * self.bare[nearest]
        total = chosen.sum(axis=1, keepdims=True)
        correction = (self.residual[nearest] * chosen[..., None]).sum(axis=1)
        correction = np.where(total > 0, correction / np.maximum(total, 1e-9), 1.0)
        return np.asarray(self.at(points) * correction, np.float64)


def _terms(points: Floats, scale: tuple[float, float, float, float]) -> Floats:
    x = (points[:, 0] - scale[0]) / scale[1]
    y = (points[:, 1] - scale[2]) / scale[3]
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=1)


def fit_white(points: Floats, values: Floats, usable: NDArray[np.bool_]) -> WhiteField | None:
    """Fit the white field to paper points' median colours, dropping the covered ones.

    A point counts as covered when its colour is not grey or is far darker or lighter than
    the fit around it; the fit is redone without such points. None when too few are left."""
    scale = (
        float(points[:, 0].mean()),
        float(np.ptp(points[:, 0]) / 2 or 1),
        float(points[:, 1].mean()),
        float(np.ptp(points[:, 1]) / 2 or 1),
    )
    terms = _terms(points, scale)
    keep = usable & (values.min(axis=1) > 8)
    # The light may tint all the paper; a covered point differs from the rest of it.
    feature = features(values)
    typical = np.median(feature[keep], axis=0) if keep.any() else np.array([1 / 3, 1 / 3, 0])
    keep &= np.hypot(feature[:, 0] - typical[0], feature[:, 1] - typical[1]) < 0.04
    coefficients = np.zeros((6, 3))
    for _round in range(4):
        if keep.sum() < 12:
            return None
        coefficients, *_ = np.linalg.lstsq(terms[keep], values[keep], rcond=None)
        predicted = np.maximum(terms @ coefficients, 1.0)
        ratio = values / predicted
        grey = chroma_distance(features(ratio)) < NEUTRAL_CHROMA
        level = ratio.mean(axis=1)
        # Covers darken and glare lightens: both are outliers to the smooth light. How far
        # out is judged from the spread of the points kept so far, so a board with a
        # strong gradient keeps its points and a glare spot does not pull the field up.
        spread = float(np.median(np.abs(level[keep] - np.median(level[keep]))))
        upper = 1.0 + min(0.25, max(0.05, 4 * spread))
        keep_next = usable & grey & (level > 0.8) & (level < upper)
        if np.array_equal(keep_next, keep):
            break
        keep = keep_next
    predicted = np.maximum(terms @ coefficients, 1.0)
    ratio = values / predicted
    bare = usable & (chroma_distance(features(ratio)) < NEUTRAL_CHROMA) & (ratio.mean(axis=1) > 0.6)
    return WhiteField(coefficients, scale, keep, ratio, bare)
