"""Glare on the paper: one soft patch of added light, told apart from the room's light.

A lamp mirrored in semi-gloss paper adds light over a soft patch, brightest in its middle,
in the lamp's own colour. The smooth white field (vision/colours.py) is a quadratic, which
bends up under a broad patch and takes part of it for the room's light; the nearby paper
points then all see less glare than a place in the middle of the patch does. So when the
paper shows a patch brighter than the field, the paper's light (in linear units, where
light adds up) is fitted again with the quadratic plus one round Gaussian patch, in the
colour of the light there, trying a few sizes and centres; the patch is kept when it
explains the paper clearly better than the quadratic alone.

    glare = find_glare(points_mm, paper, usable, white)   # Glare | None
    glare = watch.find(points_mm, paper, usable, white)   # the same, frame after frame
    glare.added(zone_centres_mm)                          # (n, 3) light added, linear
    glare.without(points_mm, paper)                       # the paper as it is without it
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.floating[Any]]

GAMMA = 2.2
"""Cameras store about the 1/2.2 power of the light; light adds up before that."""
CLIPPED = 250.0
"""A channel this bright has clipped: it no longer shows how much light fell on it."""
SUSPECT = 0.05
"""Paper this much brighter (as a share of the field's light) than the field may be glare."""
LEAST_SUSPECTS = 3
SHADOWED = 0.1
"""Paper this much darker than the field is in shadow, which is no part of a glare fit."""
SIZES_MM = (12.0, 17.0, 24.0, 34.0, 48.0, 68.0)
"""The patch's spreads tried (standard deviation)."""
BETTER = 0.6
"""A patch is kept when it leaves at most this share of the quadratic's squared error."""
CANDIDATES = 3
"""Patches looked for at most (lamps, windows)."""
APART_MM = 60.0
"""Candidate middles closer than this are one patch."""
REFRESH = 15
"""Frames between fresh searches for glare patches (GlareWatch)."""
LEAST_SHARE = 0.04
"""A patch adding less than this share of the light at its middle is not worth taking away."""


def linear(values: NDArray[Any]) -> NDArray[np.float64]:
    return np.asarray(
        np.power(np.maximum(np.asarray(values, np.float64), 0.0) / 255.0, GAMMA), np.float64
    )


def encoded(values: NDArray[Any]) -> NDArray[np.float64]:
    return np.asarray(255.0 * np.power(np.maximum(values, 0.0), 1 / GAMMA), np.float64)


@dataclass(frozen=True, slots=True)
class Patch:
    centre: tuple[float, float]
    spread: float
    """Millimetres (the Gaussian's standard deviation)."""
    colour: Floats
    """(3,) linear light added at the middle, per channel."""

    def shape(self, points: Floats) -> Floats:
        d2 = (points[:, 0] - self.centre[0]) ** 2 + (points[:, 1] - self.centre[1]) ** 2
        return np.asarray(np.exp(-d2 / (2 * self.spread**2)), np.float64)


@dataclass(frozen=True, slots=True)
class Glare:
    patches: tuple[Patch, ...]

    def added(self, points: Floats) -> Floats:
        """(n, 3) linear light the glare adds at board points."""
        total = np.zeros((len(points), 3))
        for patch in self.patches:
            total += patch.shape(points)[:, None] * patch.colour
        return total

    def without(self, points: Floats, values: Floats) -> Floats:
        """Camera values (0..255) at board points, the glare taken away."""
        return encoded(linear(values) - self.added(points))


def _terms(points: Floats) -> Floats:
    centre = points.mean(axis=0)
    half = max(float(np.ptp(points[:, 0])), float(np.ptp(points[:, 1])), 1.0) / 2
    x = (points[:, 0] - centre[0]) / half
    y = (points[:, 1] - centre[1]) / half
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=1)


class GlareWatch:
    """The glare for a camera over the table, frame after frame. A lamp stays where it is,
    so the patches are searched for afresh only every REFRESH frames (a lamp switched on
    or moved is followed within a second at 15 frames a second); in between, only how
    bright each known patch is now is fitted again, which is far cheaper."""

    def __init__(self) -> None:
        self._patches: tuple[Patch, ...] = ()
        self._age = REFRESH

    def find(
        self, points: Floats, paper: Floats, usable: NDArray[np.bool_], field: Floats
    ) -> Glare | None:
        self._age += 1
        if self._age >= REFRESH:
            self._age = 0
            glare = find_glare(points, paper, usable, field)
            self._patches = () if glare is None else glare.patches
            return glare
        if not self._patches:
            return None
        paper_light = _PaperLight.of(paper, field, usable)
        if paper_light is None:
            return None
        shaped = tuple(
            replace(p, colour=p.colour / max(float(p.colour.max()), 1e-9)) for p in self._patches
        )
        return paper_light.amounts(points, shaped)


@dataclass(frozen=True, slots=True)
class _PaperLight:
    """The paper points' light (linear) and what of it can be fitted."""

    light: Floats
    smooth: Floats
    unclipped: NDArray[np.bool_]
    share: Floats
    usable: NDArray[np.bool_]

    @classmethod
    def of(cls, paper: Floats, field: Floats, usable: NDArray[np.bool_]) -> _PaperLight | None:
        light = linear(paper)
        smooth = np.maximum(linear(field), 1e-6)
        unclipped = paper < CLIPPED
        share = np.where(unclipped, light / smooth - 1.0, -np.inf).max(axis=1)
        # Shadows take light away, which glare never does: leave them to the white field.
        usable = usable & (share > -SHADOWED)
        if usable.sum() < 12:
            return None
        return cls(light, smooth, unclipped, share, usable)

    def amounts(self, points: Floats, patches: tuple[Patch, ...]) -> Glare | None:
        """The patches, each as bright as the paper shows it now, fitted together so each
        takes only its own light; those that add too little are dropped."""
        usable = self.usable
        terms = _terms(points[usable])
        lights = [_lit(patch, points[usable]) for patch in patches]
        amounts = _fitted(terms, self.light[usable], self.unclipped[usable], lights)[1]
        kept = []
        for patch, amount in zip(patches, amounts, strict=True):
            colour = patch.colour * amount
            middle = self.smooth[np.argmin(np.hypot(*(points - np.array(patch.centre)).T))]
            if amount > 0 and float((colour / middle).max()) >= LEAST_SHARE:
                kept.append(replace(patch, colour=colour))
        return Glare(tuple(kept)) if kept else None


def find_glare(
    points: Floats, paper: Floats, usable: NDArray[np.bool_], field: Floats
) -> Glare | None:
    """The glare patches on the paper, or None.

    `paper` holds each paper point's colour (0..255), `usable` the points that show bare
    paper (covered ones left out), `field` the smooth white field's colour at each point."""
    paper_light = _PaperLight.of(paper, field, usable)
    if paper_light is None:
        return None
    usable = paper_light.usable
    share = paper_light.share
    suspects = usable & (share > SUSPECT)
    if suspects.sum() < LEAST_SUSPECTS:
        return None
    smooth = paper_light.smooth
    quadratic = _Quadratic(
        _terms(points[usable]), paper_light.light[usable], paper_light.unclipped[usable]
    )
    found: list[Patch] = []
    for guess in _candidates(points, share, suspects):
        tint = smooth[np.argmin(np.hypot(*(points - guess).T))]
        tint = tint / tint.max()
        patches = [
            Patch((float(guess[0] + dx * spread), float(guess[1] + dy * spread)), spread, tint)
            for spread in SIZES_MM
            for dx in (-0.5, 0.0, 0.5)
            for dy in (-0.5, 0.0, 0.5)
        ]
        shapes = _shapes(points[usable], patches)
        error, near_error, plain_near = quadratic.with_patches(shapes, tint)
        if not np.isfinite(error).any():
            continue
        best = int(np.nanargmin(error))
        # Judged where the patch is: light the quadratic misses elsewhere (a shadow's edge,
        # a corner) must not hide a clear patch, nor pass for one.
        patch = patches[best]
        if _surrounded(patch, points[usable]) and near_error[best] <= BETTER * plain_near[best]:
            found.append(patch)
    if not found:
        return None
    return paper_light.amounts(points, tuple(found))


class _Quadratic:
    """The paper's light as a quadratic per channel, ready to be fitted again with one patch
    more, many candidate patches at once: with Q an orthonormal basis of the quadratic's
    terms, the part of the light (and of a patch) the quadratic cannot explain is what is
    left after projecting onto Q; the patch's amount is then one least-squares ratio."""

    def __init__(self, terms: Floats, samples: Floats, fit: NDArray[np.bool_]) -> None:
        self.fit = fit
        self.bases = [np.linalg.qr(terms[fit[:, c]])[0] for c in range(3)]
        self.left = [self._unexplained(c, samples[fit[:, c], c]) for c in range(3)]

    def _unexplained(self, channel: int, values: Floats) -> Floats:
        basis = self.bases[channel]
        return np.asarray(values - basis @ (basis.T @ values), np.float64)

    def with_patches(self, shapes: Floats, tint: Floats) -> tuple[Floats, Floats, Floats]:
        """For each candidate patch (columns of `shapes`, one amount shared by the channels
        in proportion to `tint`): the squared error left everywhere, the same where the
        patch is, and the quadratic's own error there. Error is inf for a patch that would
        take light away."""
        across = np.zeros(shapes.shape[1])
        dot = np.zeros(shapes.shape[1])
        lits = []
        for channel in range(3):
            rows = self.fit[:, channel]
            lit = self._unexplained(channel, shapes[rows] * tint[channel])
            lits.append(lit)
            across += np.sum(lit * lit, axis=0)
            dot += lit.T @ self.left[channel]
        amount = dot / np.maximum(across, 1e-12)
        error = np.zeros(shapes.shape[1])
        near_error = np.zeros(shapes.shape[1])
        plain_near = np.zeros(shapes.shape[1])
        for channel in range(3):
            rows = self.fit[:, channel]
            near = shapes[rows] > 0.2
            residual = self.left[channel][:, None] - lits[channel] * amount
            error += np.sum(residual**2, axis=0)
            near_error += np.sum(residual**2 * near, axis=0)
            plain_near += np.sum(self.left[channel][:, None] ** 2 * near, axis=0)
        return np.where(amount > 0, error, np.inf), near_error, plain_near


def _shapes(points: Floats, patches: list[Patch]) -> Floats:
    """(points, patches) each patch's shape at each point."""
    centres = np.array([patch.centre for patch in patches])
    spreads = np.array([patch.spread for patch in patches])
    dx = points[:, 0, None] - centres[None, :, 0]
    dy = points[:, 1, None] - centres[None, :, 1]
    return np.asarray(np.exp(-(dx * dx + dy * dy) / (2 * spreads**2)), np.float64)


def _surrounded(patch: Patch, points: Floats) -> bool:
    """Whether paper is seen on every side of the patch where it has faded: a bright
    stretch along the sheet's edge or in a corner may be the room's light that the
    quadratic cannot follow, and nothing shows it fading there."""
    offset = points - np.array(patch.centre)
    distance = np.hypot(offset[:, 0], offset[:, 1])
    ring = (distance > 1.5 * patch.spread) & (distance < 3.5 * patch.spread)
    angle = np.arctan2(offset[ring, 1], offset[ring, 0])
    sides = np.floor((angle + np.pi) / (np.pi / 2)).astype(int) % 4
    return len(set(sides.tolist())) == 4


def _lit(patch: Patch, points: Floats) -> Floats:
    """(n, 3) the patch's light at points, for an amount of 1."""
    return np.asarray(patch.shape(points)[:, None] * patch.colour, np.float64)


def _candidates(points: Floats, share: Floats, suspects: NDArray[np.bool_]) -> list[Floats]:
    """Where patches may be centred: the brightest suspects, each far from the others."""
    chosen: list[Floats] = []
    for index in np.argsort(-np.where(suspects, share, -np.inf)):
        if not suspects[index] or len(chosen) == CANDIDATES:
            break
        point = points[index]
        if all(np.hypot(*(point - other)) > APART_MM for other in chosen):
            chosen.append(point)
    return chosen


def _fitted(
    terms: Floats, samples: Floats, fit: NDArray[np.bool_], shapes: list[Floats]
) -> tuple[Floats, Floats]:
    """The residuals (channel after channel, fitted samples only) of a quadratic per
    channel plus each patch's light (n, 3) times an amount (the same in every channel: a
    patch has its lamp's colour), and the amounts."""
    count = len(terms)
    columns = terms.shape[1]
    extra = len(shapes)
    design = np.zeros((3 * count, 3 * columns + extra))
    target = np.zeros(3 * count)
    keep = np.zeros(3 * count, bool)
    for channel in range(3):
        rows = slice(channel * count, (channel + 1) * count)
        design[rows, channel * columns : (channel + 1) * columns] = terms
        for number, shape in enumerate(shapes):
            design[rows, 3 * columns + number] = shape[:, channel]
        target[rows] = samples[:, channel]
        keep[rows] = fit[:, channel]
    solution, *_ = np.linalg.lstsq(design[keep], target[keep], rcond=None)
    residual = design[keep] @ solution - target[keep]
    return np.asarray(residual, np.float64), np.asarray(solution[3 * columns :], np.float64)
