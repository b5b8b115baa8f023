"""Crystals as small faceted solids: an octagonal gem with a short upright girdle, a sloping
crown and a flat table on top, about as tall as 0.7 of its width.

Each visible facet is projected and filled flat in the crystal's colour, shaded by how it
faces the lamp, with the lamp mirrored in the facets that catch it. A translucent acrylic
crystal also lets light through, so facets facing away from the lamp still glow a little.
Shadows go onto the paper before the crystals are drawn over them.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.synth.arrangement import LaidCrystal
from vision.synth.light import Light
from vision.synth.palette import PAPER_REFLECTANCE, pigment
from vision.synth.projection import Projection

SIDES = 8
RINGS = ((1.0, 0.0), (0.99, 0.3), (0.8, 0.72), (0.5, 1.0))
"""(radius, height) of each ring of corners, as fractions of the crystal's radius and height."""
HEIGHT_RATIO = 0.7
SHIFT = 4
"""Sub-pixel bits for OpenCV's polygon filling."""
COUNTER_BLACK = 0.06
"""What a counter's black tile gives back of the light through a crystal on it."""

Image = NDArray[np.uint8]
Floats = NDArray[np.float64]


def corners(crystals: Sequence[LaidCrystal], projection: Projection, diameter: float) -> Floats:
    """World corners of every crystal, shape (crystals, rings, sides, 3)."""
    count = len(crystals)
    sizes = np.array([c.size for c in crystals])[:, None]
    radius = sizes * diameter / 2
    height = sizes * diameter * HEIGHT_RATIO
    centres = projection.to_world(
        np.array([[c.centre[0], c.centre[1], c.base] for c in crystals], np.float64)
    )
    turns = np.array([c.turn for c in crystals])[:, None] + np.arange(SIDES) * 2 * np.pi / SIDES
    points = np.empty((count, len(RINGS), SIDES, 3))
    for index, (ring_radius, ring_height) in enumerate(RINGS):
        points[:, index, :, 0] = centres[:, 0:1] + radius * ring_radius * np.cos(turns)
        points[:, index, :, 1] = centres[:, 1:2] + radius * ring_radius * np.sin(turns)
        points[:, index, :, 2] = centres[:, 2:3] - height * ring_height
    return points


def draw_shadows(
    image: Image,
    crystals: Sequence[LaidCrystal],
    projection: Projection,
    light: Light,
    diameter: float,
) -> None:
    """Darken the paper where each crystal keeps the lamp off it, and a little all around its
    foot where it hides the room's light too."""
    if not crystals:
        return
    world = corners(crystals, projection, diameter)
    dx, dy = light.shadow_offset
    heights = -world[..., 2]
    cast = world[..., :2] + heights[..., None] * np.array([dx, dy])
    table = projection.table_homography()
    flat = cv2.perspectiveTransform(cast.reshape(-1, 1, 2), table).reshape(cast.shape)
    feet = cv2.perspectiveTransform(world[:, 0, :, :2].reshape(-1, 1, 2), table)
    feet = feet.reshape(len(crystals), SIDES, 2)
    scale = _pixels_per_mm(table, world[:, 0, 0, :2])
    height, width = image.shape[:2]
    for index in range(len(crystals)):
        outline = flat[index].reshape(-1, 2)
        crystal_height = diameter * HEIGHT_RATIO
        soft = max(0.7, float(scale[index]) * (0.4 + 0.25 * light.size * crystal_height))
        pad = int(3 * soft) + 2
        left, top = np.floor(outline.min(axis=0)).astype(int) - pad
        right, bottom = np.ceil(outline.max(axis=0)).astype(int) + pad
        left, top = max(left, 0), max(top, 0)
        right, bottom = min(right, width), min(bottom, height)
        if right <= left or bottom <= top:
            continue
        mask = np.zeros((bottom - top, right - left), np.float32)
        hull = cv2.convexHull((outline - (left, top)).astype(np.float32))
        cv2.fillConvexPoly(mask, _fixed(hull.reshape(-1, 2)), 0.55, cv2.LINE_AA, SHIFT)
        foot = feet[index] - (left, top)
        centre = foot.mean(axis=0)
        grown = centre + (foot - centre) * 1.08
        cv2.fillConvexPoly(mask, _fixed(grown), 0.6, cv2.LINE_AA, SHIFT)
        mask = cv2.GaussianBlur(mask, (0, 0), soft)
        patch = image[top:bottom, left:right].astype(np.float32)
        image[top:bottom, left:right] = (patch * (1.0 - mask[:, :, None])).astype(np.uint8)


def draw_crystals(
    image: Image,
    crystals: Sequence[LaidCrystal],
    projection: Projection,
    light: Light,
    shine: float,
    diameter: float,
    seed: int,
    clarity: float = 0.0,
) -> None:
    """Fill every crystal's visible facets, farthest crystal first. `clarity` is the share
    of a crystal's colour that is light through it from what it stands on (a counter's
    black gives none back)."""
    if not crystals:
        return
    world = corners(crystals, projection, diameter)
    count = len(crystals)
    gems = world.reshape(count, -1, 3)
    pixels = _fixed(projection.project_world(gems.reshape(-1, 3))).reshape(count, -1, 2)
    camera = projection.position
    centroids = np.concatenate([gems[:, QUADS].mean(axis=2), gems[:, TOP].mean(axis=1)[:, None]], 1)
    normals = _normals(gems, world[:, 0].mean(axis=1))
    towards_camera = camera - centroids
    towards_camera /= np.linalg.norm(towards_camera, axis=2, keepdims=True)
    visible = np.einsum("nfi,nfi->nf", normals, towards_camera) > 0.02
    rng = np.random.default_rng(seed % (1 << 63))
    colours = _facet_colours(crystals, normals, towards_camera, light, shine, rng, clarity)
    distance = np.linalg.norm(world[:, 0].mean(axis=1) - camera, axis=1)
    for index in np.argsort(-distance):
        points = pixels[index]
        for facet in np.flatnonzero(visible[index]):
            outline = points[QUADS[facet]] if facet < len(QUADS) else points[TOP]
            colour = colours[index, facet]
            cv2.fillConvexPoly(
                image, outline, (colour[0], colour[1], colour[2]), cv2.LINE_AA, SHIFT
            )


def _facet_indices() -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Corner indices of each sloping facet (quads) and of the flat top, into a crystal's
    (rings x sides) corners flattened."""
    quads = [
        [
            ring * SIDES + side,
            ring * SIDES + (side + 1) % SIDES,
            (ring + 1) * SIDES + (side + 1) % SIDES,
            (ring + 1) * SIDES + side,
        ]
        for ring in range(len(RINGS) - 1)
        for side in range(SIDES)
    ]
    top = len(RINGS) - 1
    return np.array(quads), np.arange(top * SIDES, (top + 1) * SIDES)


QUADS, TOP = _facet_indices()


def _normals(gems: Floats, feet: Floats) -> Floats:
    """Outward unit normals of every facet, (crystals, facets, 3); the top faces up."""
    a, b, c = (gems[:, QUADS[:, k]] for k in range(3))
    normals = np.cross(b - a, c - a)
    inward = np.einsum("nfi,nfi->nf", normals, a - feet[:, None]) < 0
    normals[inward] *= -1
    normals /= np.linalg.norm(normals, axis=2, keepdims=True) + 1e-12
    top = np.broadcast_to(np.array([0.0, 0.0, -1.0]), (len(gems), 1, 3))
    return np.concatenate([normals, top], axis=1)


def _facet_colours(
    crystals: Sequence[LaidCrystal],
    normals: Floats,
    towards_camera: Floats,
    light: Light,
    shine: float,
    rng: np.random.Generator,
    clarity: float = 0.0,
) -> Floats:
    """BGR of every facet, (crystals, facets, 3), 0..255."""
    reflectance = np.array([c.reflectance for c in crystals])[:, None, :]
    # Light through a clear crystal comes back off what is under it: paper returns it, a
    # counter's black does not.
    ground = np.array([COUNTER_BLACK if c.base > 0 else 1.0 for c in crystals])
    reflectance = reflectance * (1.0 - clarity * (1.0 - ground))[:, None, None]
    gloss = np.array([pigment(c.colour).gloss for c in crystals])[:, None] * shine
    lit = light.shade(normals.reshape(-1, 3)).reshape(normals.shape[:2])
    # Light passing through the acrylic leaves by the facets facing away from the lamp.
    through = 0.35 * np.clip(-(normals @ light.towards), 0.0, None)
    # Refraction makes neighbouring facets of one gem differ in depth of colour.
    depth = rng.uniform(0.8, 1.15, lit.shape)
    diffuse = ((lit + through) * depth)[:, :, None] * reflectance
    halfway = light.towards + towards_camera
    halfway /= np.linalg.norm(halfway, axis=2, keepdims=True)
    facing = np.clip(np.einsum("nfi,nfi->nf", normals, halfway), 0.0, 1.0)
    specular = 1.3 * gloss * facing**60
    linear = (diffuse + specular[:, :, None]) / PAPER_REFLECTANCE
    srgb = 255.0 * np.clip(linear, 0.0, 1.0) ** (1 / 2.2)
    # OpenCV images are BGR.
    return np.asarray(srgb[:, :, ::-1])


def _fixed(points: NDArray[np.floating]) -> NDArray[np.int32]:
    return np.round(points * (1 << SHIFT)).astype(np.int32)


def _pixels_per_mm(homography: Floats, points: Floats) -> Floats:
    """Roughly how many pixels a millimetre spans at each table point."""
    here = cv2.perspectiveTransform(points.reshape(-1, 1, 2), homography).reshape(-1, 2)
    there = cv2.perspectiveTransform((points + np.array([1.0, 0.0])).reshape(-1, 1, 2), homography)
    return np.asarray(np.linalg.norm(there.reshape(-1, 2) - here, axis=1))
