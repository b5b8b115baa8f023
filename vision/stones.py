"""MeM's stones: one stone (or none) a square, told by its whole colour against the bare square.

MemWars' reader tells crystals by hue alone (vision/colours.py), which leaves white, grey
and black unreadable and red, orange, brown and pink close together. A MeM square holds
at most one stone, so the stone can be described whole:

1. **Reflectance to CIELAB.** The reader's paper-white normalisation gives each pixel over
   the paper's white at its square (vision/measure.py). Undone from the camera's gamma, that
   is the linear reflectance against the paper, and the paper is the white point: L* says
   how light a pixel is (paper 100), a* and b* which way and how strongly its colour leans.
   Dim or bright, warm or cold light cancels out, as far as the camera's channels allow.
2. **What the bare square looks like.** Calibration learns every square's bare look (L* at
   every point, the print's lines and number included, and its mean a*, b*): from the
   calibration frames for every square without a calibration stone, and for those with
   one, the typical bare square (see StoneCalibration in vision/stone_calibration.py).
3. **A stone is where the square differs from its bare look**, in lightness or colour, by
   more than the frame's noise and the print's edges moving a little could explain: a
   compact blob of about a stone's size. A white stone on white paper still shows: its
   shaded facets, its rim and its shadow differ from the bare paper.
4. **The stone's colour** is described by the blob's lightness (its dark, middle and light
   parts: a stone's lit and shaded facets, its shadow) and the a*, b* of its most strongly
   coloured half, and compared with each colour's calibration stone under the same light.
   The nearest colour is read when it is near enough and clearly nearer than the next;
   a stone between two colours reads as unsure (no stone named, low confidence), never as
   a guess; a blob like no stone at all (skin, a sleeve) makes the square occluded.

    counter = calibration.counter(measurer)   # a StoneCalibration's (vision/stone_calibration.py)
    counts = counter.count(measured)          # per square: ZoneCounts (vision/reading.py)

This module knows nothing of the calibration that learns the stones nor of the board reader
that asks for the counts: both import it. The reader finds a counter through CountsStones,
a protocol any calibration that learnt stones meets, so that it need not import the
calibration, which itself reads its frames back with the reader.
"""

from __future__ import annotations

import base64
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.measure import GAMMA, GLARE_FROM, LOCAL_POINTS, Measured, Measurer
from vision.reading import ZoneCounts
from vision.sampling import Sampler

Floats = NDArray[np.float64]

_RGB_TO_XYZ = np.array(
    [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]
)
_WHITE = _RGB_TO_XYZ.sum(axis=1)

NOISE_FLOOR = 1.5
"""The least noise (L* units) assumed of a frame: JPEG blocks and paper grain."""
EDGE_SLACK_MM = 0.6
"""How far the print may seem to move between calibration and a frame (registration, blur)."""
DIFFERENT = 3.0
"""A point differs from the bare square when it is this many noises beyond what the print
moving explains."""
DIFFERENT_LEAST = 5.0
"""... and at least this much (L* units)."""
PRESENT = 0.45
"""A blob this share of a calibration stone's blob is a stone."""
ABSENT = 0.2
"""Below this share the square is empty; between the two it is unsure."""
TOO_BIG = 3.0
"""A blob this many stones big is a hand or a sleeve, not a stone."""
UNLIKE = 4.0
"""A blob further than this (in tolerances) from every colour is no stone of the set."""
CLEARLY_NEARER = 0.6
"""The nearest colour must be this much nearer (in tolerances) than the next."""
ALIKE = 1.6
"""Two colours whose calibration stones lie closer than this (in tolerances) cannot be told
apart under this light: calibration names them, and the reader never reads them."""

LIGHTNESS_TOLERANCE = 4.0
"""L* a stone's parts may differ from its calibration stone's: stones of one colour differ
a little, and a stone elsewhere on the board is seen from a slightly different side..."""
LIGHTNESS_SHARE = 0.08
"""... and more the lighter the stone (one a tenth darker is that much lower in L*)."""
CHROMA_TOLERANCE = 6.0
"""a*, b* units, likewise; grows with the colour's own chroma (a hue a few degrees off)."""
CHROMA_SHARE = 0.15
RATIO_TOLERANCE = 0.02
"""Linear chromaticity a stone may stray by, besides CHROMA_SHARE of its own purity."""
NOISE_WEIGHT = 1.0
"""How many of the frame's noises a stone's features may stray by (noise that averages out
over the stone's points still shifts it where it clips, and JPEG blurs colour)."""
GLARE_DOUBT = 0.5
"""The share of the glare over a square that may be left after taking it away."""
BODY = 0.5
"""The share of a stone's footprint, the points most unlike the bare square, that describes
its colour."""


def linear(reflectance: NDArray[Any]) -> Floats:
    """(..., 3) BGR reflectance against the paper's white, camera-encoded -> (..., 3) RGB
    linear reflectance against the paper (the light's own proportions)."""
    encoded = np.clip(np.asarray(reflectance, np.float64), 0.0, 4.0)
    return np.asarray(np.power(encoded, GAMMA)[..., ::-1], np.float64)


def lab(reflectance: NDArray[Any]) -> Floats:
    """(..., 3) BGR reflectance against the paper's white (camera-encoded, paper ~ 1) ->
    (..., 3) CIELAB with the paper as the white point."""
    return lab_of_linear(linear(reflectance))


def lab_of_linear(rgb: Floats) -> Floats:
    xyz = rgb @ _RGB_TO_XYZ.T / _WHITE
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    lightness = 116 * f[..., 1] - 16
    a = 500 * (f[..., 0] - f[..., 1])
    b = 200 * (f[..., 1] - f[..., 2])
    return np.stack([lightness, a, b], axis=-1)


_MAX_BARE_BYTES = 16_000_000
"""Far above any board's bare squares (a byte a pixel of every square's patch)."""

FEATURES = ("dark", "middle", "light", "a", "b", "red", "green")


@dataclass(frozen=True, slots=True)
class Doubt:
    """What may have disturbed a square's colours in one frame, beyond the stones' own
    differences."""

    noise: float = NOISE_FLOOR
    """The frame's noise on bare paper, L* units (a* and b* alike)."""
    glare: float = 0.0
    """Light added over the square by glare, as a share of the paper's white (linear): the
    measurement takes it away, but how much there is is only estimated."""


@dataclass(frozen=True, slots=True)
class StoneColour:
    """One colour's calibration stone as the camera saw it under this light."""

    name: str
    dark: float
    """L* of the darkest fifth of the stone's body (its shaded facets)."""
    middle: float
    light: float
    """L* of the lightest fifth (its lit facets)."""
    a: float
    """a* and b* of the body's more strongly coloured half."""
    b: float
    red: float
    """The same half's linear chromaticity: red over red + green + blue."""
    green: float
    area: float
    """Points of its blob."""
    noise: float = NOISE_FLOOR
    glare: float = 0.0
    """The Doubt its calibration square had."""

    def vector(self) -> Floats:
        return np.array([getattr(self, name) for name in FEATURES])

    def tolerance(self, doubt: Doubt) -> Floats:
        """How far each feature of a stone of this colour may stray, on a square with
        `doubt`: the stones' own differences, the frame's noise, and glare left over."""
        added = GLARE_DOUBT * float(np.hypot(doubt.glare, self.glare))
        luminance = _luminance(np.array([self.dark, self.middle, self.light]))
        shift = _lightness(luminance + added) - np.array([self.dark, self.middle, self.light])
        noise = NOISE_WEIGHT * float(np.hypot(doubt.noise, self.noise))
        own = LIGHTNESS_TOLERANCE + LIGHTNESS_SHARE * (self.vector()[:3] + 16)
        lightness = np.sqrt(own**2 + noise**2 + shift**2)
        # Added white light washes colours out towards the paper's.
        fade = added / max(float(_luminance(np.array([self.middle]))[0]) + added, 1e-6)
        chroma = float(np.hypot(self.a, self.b))
        ab = float(
            np.hypot(CHROMA_TOLERANCE + CHROMA_SHARE * chroma, np.hypot(noise, fade * chroma))
        )
        purity = float(np.hypot(self.red - 1 / 3, self.green - 1 / 3))
        rg = RATIO_TOLERANCE + CHROMA_SHARE * purity + fade * purity
        return np.array([*lightness, ab, ab, rg, rg])


def _luminance(lightness: Floats) -> Floats:
    """L* -> Y (paper 1)."""
    f = (np.asarray(lightness, np.float64) + 16) / 116
    return np.asarray(np.where(f > 6 / 29, f**3, (f - 16 / 116) / 7.787), np.float64)


def _lightness(luminance: Floats) -> Floats:
    y = np.asarray(luminance, np.float64)
    f = np.where(y > 0.008856, np.cbrt(np.maximum(y, 0.0)), 7.787 * y + 16 / 116)
    return np.asarray(116 * f - 16, np.float64)


def describe(values: Floats, rgb: Floats) -> Floats:
    """A stone's body (Lab points and their linear RGB) -> its features (see FEATURES)."""
    lightness = values[:, 0]
    dark, middle, light = np.percentile(lightness, (20, 50, 80))
    chroma = np.hypot(values[:, 1], values[:, 2])
    strong = chroma >= np.median(chroma)
    total = rgb[strong].sum(axis=0)
    red, green, _blue = total / max(float(total.sum()), 1e-9)
    return np.array(
        [
            dark,
            middle,
            light,
            float(np.median(values[strong, 1])),
            float(np.median(values[strong, 2])),
            red,
            green,
        ]
    )


def distances(feature: Floats, colours: Sequence[StoneColour], doubt: Doubt) -> Floats:
    """How far (in tolerances) a stone is from each colour: its lightness (the three parts
    together, as they rise and fall together) and its colour (CIELAB's a* and b*, and the
    linear chromaticity, which part different pairs best) added in quadrature."""
    if not colours:
        return np.zeros(0)
    vectors = np.stack([c.vector() for c in colours])
    tolerances = np.stack([c.tolerance(doubt) for c in colours])
    errors = ((feature - vectors) / tolerances) ** 2
    lightness = errors[:, :3].mean(axis=1)
    colour = errors[:, 3:].sum(axis=1)
    return np.asarray(np.sqrt(lightness + colour))


@dataclass(frozen=True, slots=True)
class BareSquares:
    """What every square looks like with no stone on it, on the sampler's square patches."""

    lightness: NDArray[np.float32]
    """(squares, n, n): L* at every point of each square's patch."""
    ab: NDArray[np.float32]
    """(squares, 2): each square's mean a*, b*."""
    seen: NDArray[np.bool_]
    """Per square: its own bare look was seen at calibration (else the typical square's)."""

    def to_dict(self) -> dict[str, Any]:
        packed = np.clip(np.round(self.lightness * 2), 0, 255).astype(np.uint8)
        return {
            "shape": list(packed.shape),
            "lightness": base64.b64encode(zlib.compress(packed.tobytes(), 9)).decode("ascii"),
            "ab": [[round(float(v), 2) for v in row] for row in self.ab],
            "seen": [bool(v) for v in self.seen],
        }

    @classmethod
    def from_dict(cls, data: Any) -> BareSquares:
        shape = tuple(int(v) for v in data["shape"])
        # Bounded: a few bytes of zlib can stand for gigabytes of zeros.
        inflate = zlib.decompressobj()
        try:
            raw = inflate.decompress(base64.b64decode(data["lightness"]), _MAX_BARE_BYTES)
        except zlib.error as error:
            raise ValueError(f"bare squares: 'lightness' is not zlib data ({error})") from None
        if inflate.unconsumed_tail:
            raise ValueError(f"bare squares: 'lightness' holds more than {_MAX_BARE_BYTES:,} bytes")
        lightness = (np.frombuffer(raw, np.uint8).reshape(shape) / 2).astype(np.float32)
        ab = np.array(data["ab"], np.float32).reshape(shape[0], 2)
        seen = np.array([bool(v) for v in data["seen"]], bool)
        if len(seen) != shape[0]:
            raise ValueError("bare squares: one 'seen' per square")
        return cls(lightness, ab, seen)


@dataclass(frozen=True, slots=True)
class Blob:
    """What differs from the bare square on one square."""

    area: float
    """Points of the largest blob."""
    values: Floats
    """(points, 3) Lab of the stone's body: the blob's points most unlike the bare square."""
    rgb: Floats
    """(points, 3) the same points' linear RGB reflectance."""
    centre: tuple[float, float]
    """The blob's centre, points from the patch's centre (x, y)."""


def noise(measured: Measured) -> float:
    """The frame's noise on bare paper: the spread of L*, a* or b* (the largest) within each
    paper point's tiny patch, typical over the points. Dim or strongly coloured light shows
    here, as a channel the light is short of is amplified by the paper's normalisation."""
    white = measured.white
    if white is None:
        return NOISE_FLOOR
    patches = measured.patches.paper.astype(np.float64)
    paper_white = np.maximum(white.at(measured.sampler.paper_points), 1.0)
    values = lab(patches / paper_white[:, None, None, :]).reshape(len(patches), -1, 3)
    spread = values.std(axis=1).max(axis=1)
    usable = measured.patches.paper_inside & white.bare
    if not usable.any():
        return NOISE_FLOOR
    return max(NOISE_FLOOR, float(np.median(spread[usable])))


def glare(measured: Measured, nearest: NDArray[np.intp], weights: Floats) -> Floats:
    """Per square, the light glare added there (as a share of the paper's white, linear):
    how much brighter the paper around it is than the smooth light over the board."""
    white = measured.white
    zones = measured.sampler.zones
    if white is None:
        return np.zeros(len(zones))
    centres = np.array([zone.centre for zone in zones], np.float64)
    smooth = np.maximum(white.at(centres), 1.0)
    local = np.maximum(white.near(centres, nearest, weights), 1.0)
    # As the measurement does: only paper clearly brighter than the smooth light is glare.
    glared = (local > smooth * GLARE_FROM).any(axis=1)
    added = (np.power(local / 255, GAMMA) - np.power(smooth / 255, GAMMA)) / np.power(
        smooth / 255, GAMMA
    )
    return np.asarray(np.where(glared, np.clip(added, 0.0, None).max(axis=1), 0.0), np.float64)


def nearest_paper(sampler: Sampler) -> tuple[NDArray[np.intp], Floats]:
    """Each square's nearest paper points and their weights, as the measurement takes its
    local white (vision/measure.py)."""
    centres = np.array([zone.centre for zone in sampler.zones], np.float64)
    to_zone = np.linalg.norm(centres[:, None, :] - sampler.paper_points[None, :, :], axis=-1)
    nearest = np.argsort(to_zone, axis=1)[:, :LOCAL_POINTS]
    weights = 1 / np.maximum(np.take_along_axis(to_zone, nearest, axis=1), 5.0)
    return nearest, weights


def edge_tolerance(bare: NDArray[np.float32], mm_per_px: float) -> NDArray[np.float32]:
    """How much L* may change at each point if the print moves by EDGE_SLACK_MM: its
    gradient times the slack, spread over the slack (a line's whole width may move)."""
    gx = cv2.Sobel(bare, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(bare, cv2.CV_32F, 0, 1, ksize=3) / 8
    gradient = np.hypot(gx, gy) / mm_per_px
    reach = max(3, 2 * round(EDGE_SLACK_MM / mm_per_px) + 1)
    spread = cv2.dilate(gradient, np.ones((reach, reach), np.uint8))
    return np.asarray(spread * EDGE_SLACK_MM, np.float32)


class BlobFinder:
    """Per square, the points that differ from its bare look, and their largest blob."""

    def __init__(
        self, bare: BareSquares, masks: NDArray[np.bool_], mm_per_px: float, diameter: float
    ) -> None:
        self.bare = bare
        self.footprint = float(np.pi * (diameter / 2 / mm_per_px) ** 2)
        """Points a stone covers seen straight from above."""
        self.masks = masks
        self.mm_per_px = mm_per_px
        self.slack = np.stack([edge_tolerance(b, mm_per_px) for b in bare.lightness])
        self._sigma = max(0.8, 0.8 / mm_per_px)
        """Smoothing, in points: about a millimetre."""

    def find(self, index: int, reflectance: NDArray[Any], frame_noise: float) -> Blob:
        """`reflectance`: (n, n, 3) BGR on the square's patch, against the paper's white."""
        mask = self.masks[index]
        rgb = linear(reflectance)
        values = lab_of_linear(rgb)
        d_lightness = values[..., 0] - self.bare.lightness[index]
        d_ab = values[..., 1:] - self.bare.ab[index]
        difference = np.sqrt(d_lightness**2 + (d_ab**2).sum(axis=-1))
        excess = np.maximum(difference - self.slack[index], 0.0) * mask
        weight = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), self._sigma)
        smooth = cv2.GaussianBlur(excess.astype(np.float32), (0, 0), self._sigma)
        smooth = smooth / np.maximum(weight, 1e-3)
        threshold = max(DIFFERENT_LEAST, DIFFERENT * frame_noise)
        different = ((smooth > threshold) & mask).astype(np.uint8)
        count, labels, stats, centroids = cv2.connectedComponentsWithStats(
            different, connectivity=8
        )
        if count <= 1:
            return Blob(0.0, np.zeros((0, 3)), np.zeros((0, 3)), (0.0, 0.0))
        biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        blob = labels == biggest
        middle = (mask.shape[0] - 1) / 2
        cx, cy = centroids[biggest]
        # The stone's body is what differs most: its shadow and its blurred rim less.
        order = np.argsort(-excess[blob])[: max(8, round(BODY * self.footprint))]
        return Blob(
            float(stats[biggest, cv2.CC_STAT_AREA]),
            np.asarray(values[blob][order], np.float64),
            np.asarray(rgb[blob][order], np.float64),
            (float(cx - middle), float(cy - middle)),
        )


def zone_lab(measured: Measured, index: int) -> Floats:
    """One square's points as Lab on its patch (0 outside its own points)."""
    return lab(measured.zone(index))


@dataclass(frozen=True, slots=True)
class StoneRead:
    """What one square holds, with the evidence."""

    name: str | None
    """The stone's colour; None for an empty square, or a stone whose colour is unsure."""
    present: bool | None
    """True a stone, False empty, None unsure whether."""
    confidence: float
    occluded: bool = False
    candidates: tuple[str, ...] = ()
    """For an unsure colour, the colours it lies between."""


def judge(
    blob: Blob,
    colours: Sequence[StoneColour],
    stone_area: float,
    doubt: Doubt,
    alike: frozenset[str] = frozenset(),
) -> StoneRead:
    """One square's blob -> what it holds. `alike`: colours calibration found too alike to
    tell apart, never read."""
    share = blob.area / max(stone_area, 1.0)
    if share < ABSENT or len(blob.values) < 8:
        return StoneRead(None, False, 1.0 if share < ABSENT / 2 else 0.8)
    if share >= TOO_BIG:
        return StoneRead(None, None, 0.0, occluded=True)
    feature = describe(blob.values, blob.rgb)
    distance = distances(feature, colours, doubt)
    order = np.argsort(distance)
    best = float(distance[order[0]])
    runner = float(distance[order[1]]) if len(order) > 1 else np.inf
    if best > UNLIKE:
        if share >= PRESENT:
            # Something is there, like none of the stones: a finger, a sleeve, a stranger.
            return StoneRead(None, None, 0.0, occluded=True)
        return StoneRead(None, None, 0.3)
    if share < PRESENT:
        return StoneRead(None, None, 0.3)
    name = colours[int(order[0])].name
    second = colours[int(order[1])].name if len(order) > 1 else name
    if runner - best < CLEARLY_NEARER or name in alike:
        return StoneRead(None, True, 0.3, candidates=(name, second))
    margin = min(1.0, (runner - best) / (2 * CLEARLY_NEARER))
    return StoneRead(name, True, 0.6 + 0.4 * margin)


def alike_pairs(colours: Sequence[StoneColour], doubt: Doubt) -> list[tuple[str, str]]:
    """Pairs of colours whose stones lie within ALIKE tolerances of each other under this
    light: the camera cannot tell them apart."""
    pairs = []
    for i, one in enumerate(colours):
        for other in colours[i + 1 :]:
            apart = float(distances(other.vector(), [one], doubt)[0])
            back = float(distances(one.vector(), [other], doubt)[0])
            if min(apart, back) < ALIKE:
                pairs.append((one.name, other.name))
    return pairs


class StoneCounter:
    """Reads every square of a measured frame (see the module's docstring)."""

    def __init__(
        self,
        colours: Sequence[StoneColour],
        bare: BareSquares,
        sampler: Sampler,
        diameter: float,
    ) -> None:
        self.colours = tuple(colours)
        self.finder = BlobFinder(bare, sampler.masks, sampler.mm_per_px, diameter)
        self.stone_area = float(np.median([c.area for c in colours])) if colours else 1.0
        self._nearest, self._weights = nearest_paper(sampler)
        typical = Doubt(float(np.median([c.noise for c in colours])) if colours else NOISE_FLOOR)
        self.alike = frozenset(name for pair in alike_pairs(self.colours, typical) for name in pair)
        """Colours calibration found too alike to tell apart: read as unsure."""
        self.last: tuple[StoneRead, ...] = ()
        """The last frame's reading of every square, with its evidence."""

    def read_squares(self, measured: Measured) -> tuple[StoneRead, ...]:
        frame_noise = noise(measured)
        glared = glare(measured, self._nearest, self._weights)
        reads = []
        for index in range(len(self.finder.masks)):
            if not measured.patches.inside[index]:
                reads.append(StoneRead(None, None, 0.0, occluded=True))
                continue
            blob = self.finder.find(index, measured.zone(index), frame_noise)
            doubt = Doubt(frame_noise, float(glared[index]))
            reads.append(judge(blob, self.colours, self.stone_area, doubt, self.alike))
        self.last = tuple(reads)
        return self.last

    def count(self, measured: Measured) -> list[ZoneCounts]:
        """The squares as the board reader counts its zones."""
        return [
            ZoneCounts(
                (read.name,) if read.name is not None else (),
                read.confidence,
                read.occluded,
                0,
            )
            for read in self.read_squares(measured)
        ]


@runtime_checkable
class CountsStones(Protocol):
    """A calibration that learnt single stones (MeM's, vision/stone_calibration.py): it gives
    the counter that reads a board's squares for the stones it learnt."""

    def counter(self, measurer: Measurer) -> StoneCounter: ...
