"""Thin flat things lying on the board: topology counters and the card.

Each is a printed texture on the top of a slab (a counter is about 1 mm thick, a card
0.3 mm): the slab's edge shows on the side facing the camera, it throws a narrow soft shadow
away from the lamp, and its outline is anti-aliased like any edge a lens sees.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import Point
from vision.synth.light import Light
from vision.synth.projection import Projection

Image = NDArray[np.uint8]
Matrix = NDArray[np.float64]
SHIFT = 4


def lay_flat(
    image: Image,
    texture: Image,
    size: tuple[float, float],
    centre: Point,
    angle: float,
    thickness: float,
    edge: tuple[int, int, int],
    projection: Projection,
    light: Light,
) -> None:
    """Draw `texture` (size millimetres, portrait as given) turned by `angle` degrees about
    `centre` (board millimetres), on a slab `thickness` thick."""
    width, height = size
    half = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * (width / 2, height / 2)
    a = math.radians(angle)
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    outline = half @ turn.T + centre
    foot = projection.project(np.column_stack([outline, np.zeros(4)]))
    top = projection.project(np.column_stack([outline, np.full(4, thickness)]))
    dx, dy = light.shadow_offset
    shadow_outline = outline + thickness * 1.5 * np.array([dx, dy])
    shadow = projection.project(np.column_stack([shadow_outline, np.zeros(4)]))
    every = np.vstack([foot, top, shadow])
    rows, columns = image.shape[:2]
    pad = 4
    left = max(math.floor(every[:, 0].min()) - pad, 0)
    upper = max(math.floor(every[:, 1].min()) - pad, 0)
    right = min(math.ceil(every[:, 0].max()) + pad, columns)
    lower = min(math.ceil(every[:, 1].max()) + pad, rows)
    if right <= left or lower <= upper:
        return
    origin = np.array([left, upper], np.float64)
    patch = image[upper:lower, left:right].astype(np.float32)
    box = (right - left, lower - upper)

    # The narrow shadow the slab's edge throws, then the slab's edge itself.
    shade = np.zeros(patch.shape[:2], np.float32)
    hull = cv2.convexHull(np.vstack([foot, shadow]).astype(np.float32)).reshape(-1, 2)
    cv2.fillConvexPoly(shade, _fixed(hull - origin), 0.35, cv2.LINE_AA, SHIFT)
    shade = np.asarray(cv2.GaussianBlur(shade, (0, 0), 1.2), np.float32)
    patch *= 1.0 - shade[:, :, None]
    slab = np.zeros(patch.shape[:2], np.float32)
    hull = cv2.convexHull(np.vstack([foot, top]).astype(np.float32)).reshape(-1, 2)
    cv2.fillConvexPoly(slab, _fixed(hull - origin), 1.0, cv2.LINE_AA, SHIFT)
    patch += slab[:, :, None] * (np.array(edge, np.float32) - patch)

    # The printed top, through the plane homography at its height.
    scale = _pixels_per_texture_pixel(texture, size, projection, centre)
    art = texture
    if scale < 0.5:
        # Shrink first, as a lens would average, so the warp does not alias the print.
        factor = min(1.0, 2.0 * scale)
        art = np.asarray(
            cv2.resize(texture, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA), np.uint8
        )
    art_h, art_w = art.shape[:2]
    # Texture pixel centres sit half a pixel in from the slab's edges.
    sx, sy = width / art_w, height / art_h
    to_mm = np.array([[sx, 0, sx / 2 - width / 2], [0, sy, sy / 2 - height / 2], [0, 0, 1.0]])
    place = np.array(
        [[turn[0, 0], turn[0, 1], centre[0]], [turn[1, 0], turn[1, 1], centre[1]], [0, 0, 1.0]]
    )
    shift = np.array([[1, 0, -left], [0, 1, -upper], [0, 0, 1.0]])
    homography = shift @ projection.homography(thickness) @ place @ to_mm
    printed = cv2.warpPerspective(
        art, homography, box, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    ).astype(np.float32)
    cover = np.zeros(patch.shape[:2], np.float32)
    cv2.fillConvexPoly(cover, _fixed(top - origin), 1.0, cv2.LINE_AA, SHIFT)
    patch += cover[:, :, None] * (printed - patch)
    image[upper:lower, left:right] = np.clip(patch, 0, 255).astype(np.uint8)


def _pixels_per_texture_pixel(
    texture: Image, size: tuple[float, float], projection: Projection, centre: Point
) -> float:
    """How many image pixels one texture pixel covers near `centre`."""
    mm_per_texel = size[0] / texture.shape[1]
    ends = projection.project(
        np.array([[centre[0], centre[1], 0.0], [centre[0] + 1, centre[1], 0]])
    )
    return float(np.linalg.norm(ends[1] - ends[0]) * mm_per_texel)


def _fixed(points: NDArray[np.floating]) -> NDArray[np.int32]:
    return np.round(points * (1 << SHIFT)).astype(np.int32)
