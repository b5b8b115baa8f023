"""Hands reaching over the board: a palm, four fingers, a thumb and a forearm, held above the
table so they look larger than the paper under them and throw a soft shadow beside
themselves.

A hand is built in its own frame, millimetres `along` from the fingertips towards the
elbow and `across` it, with a height for every point: the fingertips hang lowest, the
palm is at `Hand.height`, the forearm rises towards the shoulder and leaves the picture.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.synth.arrangement import LaidCrystal, random_stream
from vision.synth.light import Light
from vision.synth.palette import PAPER_REFLECTANCE, crystal_colour
from vision.synth.projection import Projection
from vision.synth.scene import Hand

Floats = NDArray[np.float64]
Image = NDArray[np.uint8]
SHIFT = 3
LIGHT_SKIN = np.array([0.55, 0.38, 0.30])
DARK_SKIN = np.array([0.085, 0.050, 0.038])
"""Linear RGB reflectances at the two ends of the range of human skin tones."""
FOREARM_REACH = 1100.0
"""How far along the forearm is modelled before it is certainly out of the picture."""


@dataclass(frozen=True, slots=True)
class HandShape:
    """One hand's outline parts in board millimetres with heights: (x, y, height) rows."""

    parts: tuple[Floats, ...]
    """Forearm, palm, the thumb's two joints, then the four fingers: drawn in this order."""
    fingers: tuple[Floats, ...]
    """The thumb and fingers again, for the creases between them."""
    skin: tuple[float, float, float]
    """BGR of the skin under the paper's light, 0..255."""
    held: LaidCrystal | None


def shape(hand: Hand, seed: int, index: int, crystal_height: float) -> HandShape:
    rng = random_stream(seed, "hand", index)
    # One person's hand keeps its tone and handedness for the whole seed.
    tone = rng.beta(1.3, 1.3)
    skin_linear = np.exp((1 - tone) * np.log(LIGHT_SKIN) + tone * np.log(DARK_SKIN))
    # Undertones: a little more red, yellow or olive from one person to the next.
    skin_linear *= rng.uniform(0.92, 1.08, 3) ** 0.3
    skin = 255.0 * np.clip(skin_linear / PAPER_REFLECTANCE, 0, 1) ** (1 / 2.2)
    side = 1.0 if rng.random() < 0.8 else -1.0  # most players reach with the right hand
    scale = hand.width / 85.0
    # The fingertips hang lowest, but never down among the crystals they reach over.
    tip_height = max(crystal_height + 2.5, 0.3 * hand.height)

    def height(along: Floats) -> Floats:
        knots = [0.0, 78 * scale, 130 * scale, 175 * scale, FOREARM_REACH]
        heights = [
            tip_height,
            0.92 * hand.height,
            hand.height,
            hand.height + 6,
            hand.height + 6 + 0.22 * (FOREARM_REACH - 175 * scale),
        ]
        return np.asarray(np.interp(along, knots, heights))

    angle = math.radians(hand.angle)
    u = np.array([math.cos(angle), math.sin(angle)])
    v = np.array([-math.sin(angle), math.cos(angle)])

    def to_board(local: Floats) -> Floats:
        along, across = local[:, 0], local[:, 1]
        xy = np.asarray(hand.tip) + along[:, None] * u + across[:, None] * v
        return np.column_stack([xy, height(along)])

    w = hand.width
    palm = _rounded(
        np.array(
            [
                [82, -0.42 * w], [72, -0.22 * w], [70, 0.05 * w], [72, 0.3 * w], [85, 0.46 * w],
                [125, 0.56 * w], [160, 0.46 * w], [182, 0.33 * w], [182, -0.33 * w],
                [160, -0.4 * w], [120, -0.46 * w],
            ]
        )
        * (scale, side)
    )  # fmt: skip
    # Reaching to put something down, the fingers gather towards the tip, the ring and
    # little fingers curled under a little, the thumb coming in from the side.
    gather = rng.uniform(0.6, 1.0)
    fingers = []
    for knuckle, tip, breadth in (
        ((76, 0.3), (3, 0.07), 0.19),
        ((74, 0.08), (0, -0.04), 0.195),
        ((76, -0.14), (14, -0.15), 0.185),
        ((80, -0.34), (32, -0.27), 0.16),
    ):
        start = np.array([knuckle[0] * scale, knuckle[1] * w * side])
        straight = np.array([tip[0] * scale, knuckle[1] * w * side])
        bent = np.array([tip[0] * scale, tip[1] * w * side])
        end = straight + (bent - straight) * gather
        fingers.append(_capsule(start, end, breadth * w / 2, breadth * w * 0.4))
    thumb_root = np.array([150.0 * scale, 0.4 * w * side])
    thumb_joint = np.array([80.0 * scale, 0.52 * w * side])
    thumb_tip = np.array([14.0 * scale, (0.5 - 0.3 * gather) * w * side])
    thumb_base = _capsule(thumb_root, thumb_joint, 0.15 * w, 0.12 * w)
    thumb = _capsule(thumb_joint, thumb_tip, 0.12 * w, 0.1 * w)
    wrist = 170.0 * scale
    forearm = np.array(
        [
            [wrist, -0.34 * w],
            [FOREARM_REACH, -0.45 * w],
            [FOREARM_REACH, 0.45 * w],
            [wrist, 0.34 * w],
        ]
    )
    forearm = _densify(forearm, 40.0)
    fingers_3d = tuple(to_board(f) for f in fingers)
    held = None
    if hand.holding is not None:
        spot = np.asarray(hand.tip) - 2.0 * u
        held = LaidCrystal(
            zone="",
            colour=hand.holding,
            centre=(float(spot[0]), float(spot[1])),
            base=max(0.0, tip_height - crystal_height * 0.9),
            turn=float(rng.uniform(0, 2 * math.pi)),
            reflectance=crystal_colour(hand.holding, rng),
        )
    return HandShape(
        parts=(
            to_board(forearm),
            to_board(palm),
            to_board(thumb_base),
            to_board(thumb),
            *fingers_3d,
        ),
        fingers=(to_board(thumb), *fingers_3d),
        skin=(float(skin[2]), float(skin[1]), float(skin[0])),
        held=held,
    )


def draw_shadows(
    lowres: NDArray[np.float32],
    factor: float,
    shapes: list[HandShape],
    projection: Projection,
    light: Light,
) -> None:
    """Multiply `lowres` (an image-sized light map shrunk by `factor`) by the hands' shadows."""
    if not shapes:
        return
    dx, dy = light.shadow_offset
    table = projection.homography()
    cover = np.zeros(lowres.shape, np.float32)
    heights = []
    for hand in shapes:
        for part in hand.parts:
            cast = part[:, :2] + part[:, 2:3] * np.array([dx, dy])
            pixels = cv2.perspectiveTransform(cast.reshape(-1, 1, 2), table).reshape(-1, 2)
            if not np.all(np.isfinite(pixels)):
                continue
            pixels = np.clip(pixels * factor, -1e5, 1e5)
            cv2.fillPoly(cover, [_fixed(pixels)], 1.0, cv2.LINE_AA, SHIFT)
        heights.append(float(np.median(hand.parts[1][:, 2])))
    # A hand higher up throws a blurrier shadow; the lamp does not black it out entirely.
    scale = _pixels_per_mm(projection) * factor
    blur = max(1.0, scale * (1.5 + light.size * max(heights) / 3.0))
    cover = np.asarray(cv2.GaussianBlur(cover, (0, 0), blur), np.float32)
    lowres *= 1.0 - 0.55 * cover


def draw_hands(
    image: Image,
    shapes: list[HandShape],
    projection: Projection,
    lamp: Light,
    mask: NDArray[np.bool_],
    seed: int,
) -> None:
    """Paint the hands over `image` and mark the pixels they cover in `mask`."""
    for index, hand in enumerate(shapes):
        _draw_hand(image, hand, projection, lamp, mask, random_stream(seed, "skin", index))


def _draw_hand(
    image: Image,
    hand: HandShape,
    projection: Projection,
    lamp: Light,
    mask: NDArray[np.bool_],
    rng: np.random.Generator,
) -> None:
    rows, columns = image.shape[:2]
    outlines = [_project(projection, part, (columns, rows)) for part in hand.parts]
    every = np.vstack(outlines)
    pad = 6
    left = int(max(0, math.floor(every[:, 0].min()) - pad))
    top = int(max(0, math.floor(every[:, 1].min()) - pad))
    right = int(min(columns, math.ceil(every[:, 0].max()) + pad))
    bottom = int(min(rows, math.ceil(every[:, 1].max()) + pad))
    if right <= left or bottom <= top:
        return
    origin = np.array([left, top], np.float64)
    size = (bottom - top, right - left)
    cover = np.zeros(size, np.uint8)
    for outline in outlines:
        cv2.fillPoly(cover, [_fixed(outline - origin)], 255, cv2.LINE_AA, SHIFT)
    shade = _shading(hand, projection, lamp, outlines, origin, size, rng)
    colour = cv2.merge([np.clip(shade * c, 0, 255).astype(np.uint8) for c in hand.skin])
    alpha = cv2.GaussianBlur(cover.astype(np.float32) * (1 / 255), (0, 0), 0.7)
    patch = image[top:bottom, left:right]
    image[top:bottom, left:right] = cv2.blendLinear(colour, patch, alpha, 1.0 - alpha)
    mask[top:bottom, left:right] |= alpha > 0.5


def _shading(
    hand: HandShape,
    projection: Projection,
    lamp: Light,
    outlines: list[Floats],
    origin: Floats,
    size: tuple[int, int],
    rng: np.random.Generator,
) -> NDArray[np.float32]:
    """How brightly each pixel of the hand's box shows its skin, 1 for skin facing up.

    Worked out at half resolution (it varies smoothly): skin curves away at every edge, so
    it darkens there, lit on the side facing the lamp; the creases between fingers split
    the silhouette so each finger is rounded on its own."""
    half = ((size[0] + 1) // 2, (size[1] + 1) // 2)
    solid = np.zeros(half, np.uint8)
    for outline in outlines:
        cv2.fillPoly(solid, [_fixed((outline - origin) / 2)], 1, cv2.LINE_8, SHIFT)
    creases = np.zeros(half, np.float32)
    rows, columns = size
    for finger in hand.fingers:
        outline = (_project(projection, finger, (columns, rows)) - origin) / 2
        cv2.polylines(creases, [_fixed(outline)], True, 1.0, 1, cv2.LINE_AA, SHIFT)
    solid[creases > 0.5] = 0
    inside = cv2.distanceTransform(solid, cv2.DIST_L2, 3)
    finger_px = _finger_width_px(projection, hand) / 2
    roundness = np.sqrt(np.minimum(inside * (1.0 / max(1.0, 0.45 * finger_px)), 1.0))
    gx = cv2.Sobel(inside, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(inside, cv2.CV_32F, 0, 1, ksize=3)
    steep = np.sqrt(gx * gx + gy * gy) + 1e-6
    toward = _light_in_picture(projection, hand, lamp)
    facing = -(gx * toward[0] + gy * toward[1]) / steep
    shade = 0.52 + 0.48 * roundness + 0.28 * facing * (1.0 - roundness) + 0.07 * roundness**8
    shade *= _blotches(half, rng)
    shade *= 1.0 - 0.22 * cv2.GaussianBlur(creases, (0, 0), 0.6)
    # The distance field is stepped pixel by pixel; skin shading is smooth.
    shade = cv2.GaussianBlur(shade.astype(np.float32), (0, 0), 1.0)
    full = cv2.resize(shade, (columns, rows), interpolation=cv2.INTER_LINEAR)
    return np.asarray(full, np.float32)


def _project(projection: Projection, part: Floats, size: tuple[int, int]) -> Floats:
    """A part's outline in the picture. Points at or behind the lens are dropped, and where
    the outline is cut (the forearm coming at the camera) its edges are carried on in the
    direction they were going, out of the picture."""
    world = projection.to_world(part)
    depth = (world @ projection.rotation.T + projection.translation)[:, 2]
    keep = depth > 30.0
    pixels = np.full((len(part), 2), np.nan)
    pixels[keep] = projection.project_world(world[keep])
    if keep.all():
        return np.asarray(np.clip(pixels, -1e5, 1e5))
    reach = float(sum(size)) * 2
    count = len(part)
    out = []
    for index in np.flatnonzero(keep):
        before, after = (index - 1) % count, (index + 1) % count
        if not keep[before] and keep[after]:
            out.append(_beyond(pixels[index], pixels[after], reach))
        out.append(pixels[index])
        if not keep[after] and keep[before]:
            out.append(_beyond(pixels[index], pixels[before], reach))
    return np.clip(np.array(out), -1e5, 1e5)


def _beyond(point: Floats, neighbour: Floats, reach: float) -> Floats:
    """`point` pushed `reach` pixels further in the direction from `neighbour` to it."""
    step = point - neighbour
    return np.asarray(point + reach * step / (np.linalg.norm(step) + 1e-9))


def _rounded(points: Floats, passes: int = 2) -> Floats:
    """Chaikin's corner cutting: a closed polygon with its corners rounded off."""
    for _ in range(passes):
        following = np.roll(points, -1, axis=0)
        points = np.column_stack(
            [0.75 * points + 0.25 * following, 0.25 * points + 0.75 * following]
        ).reshape(-1, 2)
    return points


def _capsule(start: Floats, end: Floats, root: float, tip: float, steps: int = 8) -> Floats:
    """A finger's outline: a tapering band with round ends, from `start` (the knuckle, half
    width `root`) to `end` (the tip, half width `tip`); the tip's arc first."""
    direction = end - start
    heading = math.atan2(direction[1], direction[0])
    points = []
    for centre, radius, first in (
        (end, tip, heading - math.pi / 2),
        (start, root, heading + math.pi / 2),
    ):
        for k in range(steps + 1):
            a = first + math.pi * k / steps
            points.append(centre + radius * np.array([math.cos(a), math.sin(a)]))
    return np.array(points)


def _densify(points: Floats, spacing: float) -> Floats:
    """Extra points along each edge, so heights vary smoothly along a long outline."""
    out = []
    for a, b in zip(points, np.roll(points, -1, axis=0), strict=True):
        steps = max(1, int(np.linalg.norm(b - a) // spacing))
        for k in range(steps):
            out.append(a + (b - a) * k / steps)
    return np.array(out)


def _light_in_picture(projection: Projection, hand: HandShape, lamp: Light) -> Floats:
    """The direction towards the lamp as it appears in the picture near the hand."""
    palm = hand.parts[1].mean(axis=0)
    world = projection.to_world(palm[None, :])[0]
    ends = projection.project_world(np.array([world, world + 20.0 * lamp.towards]))
    step = ends[1] - ends[0]
    return np.asarray(step / (np.linalg.norm(step) + 1e-9))


def _blotches(size: tuple[int, int], rng: np.random.Generator) -> NDArray[np.float32]:
    """Skin is not one flat colour: slow variations of a few percent."""
    coarse = rng.normal(1.0, 0.04, (max(2, size[0] // 40), max(2, size[1] // 40)))
    smooth = cv2.resize(
        coarse.astype(np.float32), (size[1], size[0]), interpolation=cv2.INTER_CUBIC
    )
    return np.asarray(smooth, np.float32)


def _pixels_per_mm(projection: Projection) -> float:
    h = projection.homography()
    here = cv2.perspectiveTransform(np.array([[[210.0, 148.0]], [[211.0, 148.0]]]), h)
    return float(np.linalg.norm(here[1, 0] - here[0, 0]))


def _finger_width_px(projection: Projection, hand: HandShape) -> float:
    finger = hand.fingers[2]
    centre = finger.mean(axis=0)
    ends = projection.project(np.array([centre, centre + np.array([17.0, 0.0, 0.0])]))
    return float(np.linalg.norm(ends[1] - ends[0]))


def _fixed(points: NDArray[np.floating]) -> NDArray[np.int32]:
    return np.round(points * (1 << SHIFT)).astype(np.int32)
