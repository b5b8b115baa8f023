"""One frame, measured: where the board is, the light on its paper, each zone's reflectance.

This is everything about a frame that does not depend on which crystals exist; reading
(vision/reader.py) and calibrating (vision/calibrate.py) both start here.

    measurer = Measurer(board)
    measured = measurer.measure(image)
    measured.fit.registration.markers_seen
    measured.reflectance.shape          # (points + 1, 3), paper ~ 1.0
    measured.paper_covered              # per paper point: covered by something coloured/dark
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.colours import NEUTRAL_CHROMA, WhiteField, chroma_distance, features, fit_white
from vision.geometry import Board
from vision.glare import GlareWatch
from vision.lean import Lean
from vision.reading import Edge
from vision.registration import Fit, RegistrationTracker, not_found_reason
from vision.sampling import Patches, Sampler

Image = NDArray[np.uint8]

BURNT_OUT = 250.0
"""Paper this bright in every channel has clipped: how much glare there is is unknown."""
GLARE_FROM = 1.04
"""Paper this much brighter around a zone than the smooth field means glare there."""
GLARE_UNCERTAINTY = 0.25
"""How far off (a share of it) the glare a pixel is cleared of may be."""
LOCAL_POINTS = 6
"""How many nearby paper points set a zone's white."""
NEIGHBOUR_MM = 19.0
"""Paper points closer than this are neighbours when looking for a hand-sized cover."""


@dataclass(frozen=True, slots=True)
class Measured:
    fit: Fit
    patches: Patches
    white: WhiteField | None
    """None when too little bare paper was visible to measure the light."""
    pixels: NDArray[Any]
    """(points, 3): every zone's points, glare taken away (the camera's uint8 values where
    there was none to take away, float32 otherwise)."""
    scale: NDArray[np.float32]
    """(zones, 3): what each zone's pixels are multiplied by to give reflectance."""
    paper_covered: NDArray[np.bool_]
    """Per paper point: something coloured or dark lies on it (a crystal's edge, a hand)."""
    sampler: Sampler
    rim_crossed: tuple[Edge, ...]
    """The edges where something lies across the sheet's rim: an arm reaching over the
    board."""
    blinded: NDArray[np.bool_]
    """Per zone: the paper around it is burnt out to full white (glare, or too much
    exposure), so its colours cannot be judged."""

    @property
    def reflectance(self) -> NDArray[np.float32]:
        """(points + 1, 3): every zone's points divided by the paper's white at the zone,
        then one row of bare paper (1.0), which a point index of -1 picks."""
        points = len(self.pixels)
        values = np.empty((points + 1, 3), np.float32)
        np.multiply(self.pixels, self.sampler.per_point(self.scale), out=values[:points])
        values[points] = 1.0
        return values

    def zone(self, index: int) -> NDArray[np.float32]:
        """One zone's reflectance on its square patch (0 outside the zone's own points)."""
        first, end = self.sampler.spans[index]
        values = np.zeros((len(self.pixels), 3), np.float32)
        values[first:end] = self.pixels[first:end] * self.scale[index]
        return self.sampler.square(values, index, 0.0)


class Measurer:
    def __init__(self, board: Board, lean: Lean | None = None) -> None:
        self.board = board
        self.tracker = RegistrationTracker(board)
        self.glare = GlareWatch()
        self.sampler = Sampler(board, lean=lean)
        self._zone_centres = np.array([zone.centre for zone in self.sampler.zones], np.float64)
        points = self.sampler.paper_points
        distance = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=-1)
        self.paper_neighbours = (distance < NEIGHBOUR_MM) & (distance > 0)
        # Each zone's nearest paper points, for the light right around it.
        to_zone = np.linalg.norm(self._zone_centres[:, None, :] - points[None, :, :], axis=-1)
        self._nearest = np.argsort(to_zone, axis=1)[:, :LOCAL_POINTS]
        self._weights = 1 / np.maximum(np.take_along_axis(to_zone, self._nearest, axis=1), 5.0)

    def measure(self, image: Image) -> Measured | None:
        fit = self.tracker.update(image)
        if fit is None:
            return None
        patches = self.sampler.sample(image, fit.mapping)
        # A mean, not a median: paper points are chosen clear of print, and it is cheaper.
        paper = patches.paper.reshape(len(patches.paper), -1, 3).mean(axis=1)
        white = fit_white(self.sampler.paper_points, paper, patches.paper_inside)
        blinded = np.zeros(len(self.sampler.zones), bool)
        if white is None:
            pixels = np.zeros(patches.zones.shape, np.float32)
            scale = np.zeros((len(self.sampler.zones), 3), np.float32)
            covered = patches.paper_inside.copy()
        else:
            # Light around a zone darker than the smooth field is shadow, which scales
            # everything there: divide by it. Brighter is glare, which adds light (in
            # linear units, before the camera's gamma): take it away first.
            points = self.sampler.paper_points
            local = np.maximum(white.near(self._zone_centres, self._nearest, self._weights), 1.0)
            blinded = local.min(axis=1) >= BURNT_OUT
            glare = self.glare.find(points, paper, white.bare, white.at(points))
            if glare is not None:
                # The room's light is what is left of the paper once the glare is taken away.
                without = fit_white(points, glare.without(points, paper), patches.paper_inside)
                if without is not None:
                    white = without
                    local = np.maximum(
                        white.near(self._zone_centres, self._nearest, self._weights), 1.0
                    )
            smooth = np.maximum(white.at(self._zone_centres), 1.0)
            paper_white = np.maximum(white.at(points), 1.0)
            added = self._local_glare(smooth, local)
            if glare is not None:
                added = added + glare.added(self._zone_centres)
            pixels = self._without_glare(patches.zones, added)
            scale = (1 / np.minimum(local, smooth)).astype(np.float32)
            ratio = paper / paper_white
            chromatic = chroma_distance(features(ratio)) > NEUTRAL_CHROMA * 1.5
            dark = ratio.mean(axis=1) < 0.35
            covered = patches.paper_inside & (chromatic | dark)
        return Measured(
            fit,
            patches,
            white,
            pixels,
            scale,
            covered,
            self.sampler,
            rim_crossed(patches, self.sampler.rim_sides, self.sampler.rim_at_corner),
            blinded,
        )

    def _local_glare(
        self, smooth: NDArray[np.float64], local: NDArray[np.float64]
    ) -> NDArray[np.float64]:
        """Per zone and channel, the light that glare too small to fit as a patch adds there
        (linear units; 0 where there is none), from the paper right around the zone.

        Glare is the lamp itself mirrored, so it has the colour of the room's light, which
        is the colour of the smooth field: what it adds is measured as a share of that. The
        paper clips at 255 in its brightest channel and hides the glare there, so the
        channels that did not clip tell the share."""
        glared = (local > smooth * GLARE_FROM).any(axis=1)
        share = np.where(glared, _glare_share(local, smooth), 0.0)
        return np.asarray(share[:, None] * _linear(smooth), np.float64)

    def _without_glare(self, pixels: Image, added: NDArray[np.float64]) -> NDArray[Any]:
        glared = added.max(axis=1) > 0
        if not glared.any():
            # Most frames: the camera's own values serve, with no copy of every pixel.
            return pixels
        values = pixels.astype(np.float32)
        # A zone's points lie together, zone after zone: the glared zones' points are a few
        # runs, cleared at once and put back run by run (far cheaper than by a mask).
        runs = self.sampler.runs(glared)
        light = self.sampler.per_point_of(added, glared)
        under = (
            pixels[runs[0][0] : runs[0][1]]
            if len(runs) == 1
            else np.concatenate([pixels[first:end] for first, end in runs])
        )
        cleared = without_glare(under, light)
        done = 0
        for first, end in runs:
            values[first:end] = cleared[done : done + end - first]
            done += end - first
        return values

    def largest_cover(self, covered: NDArray[np.bool_]) -> int:
        """The most paper points one connected cover spans (a crystal: 1 or 2; a hand: many)."""
        return len(self.largest_cover_points(covered))

    def largest_cover_points(self, covered: NDArray[np.bool_]) -> list[int]:
        """The paper points of the largest connected cover (indices into the board's paper
        points); [] when nothing is covered."""
        best: list[int] = []
        unseen = set(np.flatnonzero(covered).tolist())
        while unseen:
            stack = [unseen.pop()]
            cover: list[int] = []
            while stack:
                point = stack.pop()
                cover.append(point)
                for other in np.flatnonzero(self.paper_neighbours[point] & covered).tolist():
                    if other in unseen:
                        unseen.remove(other)
                        stack.append(other)
            if len(cover) > len(best):
                best = cover
        return best


def measure_all(
    measurer: Measurer, images: list[Image], problems: list[str]
) -> list[tuple[Image, Measured]]:
    """Each calibration frame measured, with the frames that cannot be used named in
    `problems` (board not found, too little bare paper) and left out."""
    measured = []
    for image in images:
        result = measurer.measure(image)
        if result is None:
            problems.append(not_found_reason(image, measurer.board))
        elif result.white is None:
            problems.append("too little bare paper was seen in a frame: clear the board")
        else:
            measured.append((image, result))
    return measured


GAMMA = 2.2
"""Cameras store about the 1/2.2 power of the light; light adds up before that."""


def without_glare(pixels: NDArray[Any], glare: NDArray[np.float64]) -> NDArray[np.float32]:
    """Camera values (n, 3) with `glare` (the light it adds there, linear, per channel:
    (3,) or one per pixel) taken away, as far as each pixel caught it.

    Glare adds the light's own colour to every channel, so a pixel's darkest channel
    (against that colour) bounds how much of it the pixel caught: a crystal's facets turned
    away from the lamp catch less than the paper round them, and taking the paper's glare
    off them whole would blacken them."""
    # Channel by channel, each a row of its own: numpy is slow along a row of three.
    linear = _linear(pixels).T.copy()
    light = np.asarray(glare, np.float32)
    light = light[:, None] if light.ndim == 1 else light.T.copy()
    shares = linear / np.maximum(light, np.float32(1e-6))
    caught = np.minimum(shares[0], shares[1], out=shares[0])
    np.minimum(caught, shares[2], out=caught)
    np.minimum(caught, 1.0, out=caught)
    removed = caught * light
    left = np.subtract(linear, removed, out=linear)
    np.maximum(left, 0.0, out=left)
    # What is left of a grey under more glare than it caught is dark, and its small
    # differences between channels, all error, would pass for a colour: a colour fainter
    # than the glare's own uncertainty is taken for grey.
    b, g, r = left
    spread = np.maximum(np.maximum(b, g), r) - np.minimum(np.minimum(b, g), r)
    most = np.maximum(np.maximum(removed[0], removed[1]), removed[2])
    grey = spread < GLARE_UNCERTAINTY * most
    np.copyto(left, (b + g + r) / 3, where=grey)
    return _encoded(left.T)


def _linear(values: NDArray[Any]) -> NDArray[np.float32]:
    if values.dtype == np.uint8:
        # A camera's own values: looked up, the same numbers several times faster.
        return np.asarray(cv2.LUT(values, _LINEAR), np.float32)
    return _power(values)


def _power(values: NDArray[Any]) -> NDArray[np.float32]:
    return np.asarray(np.power(np.asarray(values, np.float32) / 255.0, GAMMA), np.float32)


_LINEAR = _power(np.arange(256, dtype=np.float32))
"""Every camera value in linear units."""


def _glare_share(seen: NDArray[np.float64], smooth: NDArray[np.float64]) -> NDArray[np.float64]:
    """How much light, as a share of the smooth field's, glare adds: judged on the channels
    that did not clip (all of them clipped: on the brightest)."""
    share = _linear(seen) / np.maximum(_linear(smooth), 1e-6) - 1.0
    clipped = seen >= BURNT_OUT
    usable = np.where(clipped.all(axis=1, keepdims=True), True, ~clipped)
    return np.asarray(np.where(usable, share, -np.inf).max(axis=1), np.float64)


def _encoded(linear: NDArray[np.float32]) -> NDArray[np.float32]:
    return np.asarray(255.0 * np.power(linear, 1 / GAMMA), np.float32)


RIM_CHROMA = 0.06
"""Rim points further than this from the rim's usual chromaticity are covered."""
RIM_DARK = 0.55
"""Rim points darker than this share of the rim's usual brightness are covered."""
BLEND = 0.12
"""A rim point this near (as a share of the paper's distance from the table) to a mix of
the paper and the table beside it shows the sheet's edge seen a little off, not an arm."""
TABLE_CHANGE = 0.35
"""The table beyond a rim point differing this much (in log brightness, or ten times as
much in chromaticity) from its side's usual table has something on it: an arm."""

EDGES = (Edge.NORTH, Edge.EAST, Edge.SOUTH, Edge.WEST)
"""The rim's sides in Board.rim_sides' order."""


def rim_crossed(
    patches: Patches, sides: NDArray[np.int32], at_corner: NDArray[np.bool_] | None = None
) -> tuple[Edge, ...]:
    """The edges where two neighbouring rim points look unlike the rest of their side of
    the sheet (one alone may be a speck). Each side is its own reference: a blurred picture
    mixes the table into a whole side alike, an arm changes a stretch of it.

    A sheet that does not lie flat may be seen a millimetre or two off at its edge (more
    where it curls): a rim point then shows the paper mixed with the table beside it. So a
    rim point looking like a mix of its side's paper and the table just beyond it, where
    that table looks as the rest of its side's does, is not covered: an arm crossing the
    rim puts something else on it, and covers the table beyond too.

    A corner curled up shows its underside and its shadow on the few rim points round it
    (`at_corner`): a stretch of covered points that lies within a corner alone is the
    curl. An arm crossing there covers the rim beyond the corner too."""
    values = patches.rim.astype(np.float64)
    table = patches.beyond.astype(np.float64)
    feature = features(values)
    table_feature = features(table)
    covered = np.zeros(len(values), bool)
    for side in range(4):
        mine = (sides == side) & patches.rim_inside
        if mine.sum() < 8:
            continue
        usual = np.median(values[mine], axis=0)
        typical = features(usual[None, :])[0]
        chroma = np.hypot(feature[:, 0] - typical[0], feature[:, 1] - typical[1])
        dark = values.mean(axis=1) < RIM_DARK * usual.mean()
        unlike = mine & ((chroma > RIM_CHROMA) | dark)
        beside = (sides == side) & patches.beyond_inside
        if unlike.any() and beside.sum() >= 8:
            usual_table = features(np.median(table[beside], axis=0)[None, :])[0]
            change = np.maximum(
                np.abs(table_feature[:, 2] - usual_table[2]),
                10
                * np.hypot(
                    table_feature[:, 0] - usual_table[0], table_feature[:, 1] - usual_table[1]
                ),
            )
            plain_table = beside & (change < TABLE_CHANGE)
            unlike &= ~(plain_table & _blend(values, usual, table))
        covered |= unlike
    pairs = covered & np.roll(covered, 1)
    if at_corner is not None:
        pairs &= ~_within_corners(covered, at_corner)
    return tuple(edge for side, edge in enumerate(EDGES) if (pairs & (sides == side)).any())


def _within_corners(covered: NDArray[np.bool_], at_corner: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Per rim point: whether it is covered in a stretch of covered points that lies within
    a corner alone (the rim runs round the sheet, so stretches wrap)."""
    inside = np.zeros(len(covered), bool)
    if covered.all() or not covered.any():
        return inside
    start = int(np.flatnonzero(~covered)[0])
    order = np.roll(np.arange(len(covered)), -start)
    run: list[int] = []
    for index in [*order.tolist(), start]:
        if covered[index]:
            run.append(index)
            continue
        if run and at_corner[run].all():
            inside[run] = True
        run = []
    return inside


def _blend(
    values: NDArray[np.float64], paper: NDArray[np.float64], table: NDArray[np.float64]
) -> NDArray[np.bool_]:
    """Per point: whether `values` lie near the line from its `table` colour to `paper`
    (between the two), as a picture blurred across the sheet's edge shows it."""
    towards = paper[None, :] - table
    length = np.maximum(np.linalg.norm(towards, axis=1), 10.0)
    share = np.clip(((values - table) * towards).sum(axis=1) / length**2, 0.0, 1.0)
    off = np.linalg.norm(values - table - share[:, None] * towards, axis=1)
    return np.asarray(off < BLEND * length, np.bool_)
