"""Photographs of printed card codes, made up: a QR code drawn by segno on a white card,
seen at a slant through a lens, slightly out of focus and saved as a JPEG.

    picture = photograph([Placement("memdeck:d:17", centre=(320, 240), module_px=5, tilt=30)])

The scene is drawn at four times the size and shrunk, so module edges fall between pixels
as they do in a camera, then blurred, given sensor noise and JPEG-compressed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import segno
from numpy.typing import NDArray

from companion.printing.layout import QR_QUIET_MODULES

Grey = NDArray[np.uint8]

SUPERSAMPLE = 4
SOURCE_MODULE_PX = 10
"""Pixels per module of the flat code before it is warped."""
CARD_MARGIN_MODULES = 6
"""White card around the quiet zone, so that the code is not at the card's edge."""
DISTANCE_IN_SIDES = 6.0
"""How far the lens is from the card, in card widths: a camera 40 cm above a 63 mm card
sees it from about six of its widths (a real one is further, and sees less perspective)."""


@dataclass(frozen=True, slots=True)
class Placement:
    payload: str
    centre: tuple[float, float]
    """Where the code's centre lands in the picture, pixels."""
    module_px: float = 5.0
    """How wide a module would be seen head on, pixels."""
    tilt: float = 0.0
    """How far the card is turned away from facing the lens, degrees."""
    tilt_axis: float = 0.0
    """The direction, in the card's plane, of the axis it is turned about, degrees."""
    spin: float = 0.0
    """The card's turn in its own plane, degrees."""


def code_matrix(payload: str) -> NDArray[np.bool_]:
    code = segno.make(payload, error="m", micro=False, boost_error=False)
    return np.array([[bool(module & 1) for module in row] for row in code.matrix])


def flat_card(payload: str) -> tuple[Grey, int]:
    """The code on its card, head on, and how many modules wide the code is."""
    matrix = code_matrix(payload)
    modules = np.where(matrix, 20, 245).astype(np.uint8)
    card = np.pad(modules, QR_QUIET_MODULES + CARD_MARGIN_MODULES, constant_values=245)
    picture = cv2.resize(
        card, None, fx=SOURCE_MODULE_PX, fy=SOURCE_MODULE_PX, interpolation=cv2.INTER_NEAREST
    )
    return np.asarray(picture, np.uint8), len(matrix)


def seen_corners(placement: Placement, side_px: float, distance: float) -> NDArray[np.float32]:
    """Where the corners of a square of `side_px` (head on) land, turned and foreshortened,
    seen from `distance` pixels."""
    half = side_px / 2
    square = np.array([[-half, -half, 0], [half, -half, 0], [half, half, 0], [-half, half, 0]])
    spin = math.radians(placement.spin)
    turn_in_plane = np.array(
        [[math.cos(spin), -math.sin(spin), 0], [math.sin(spin), math.cos(spin), 0], [0, 0, 1]]
    )
    axis_angle = math.radians(placement.tilt_axis)
    axis = np.array([math.cos(axis_angle), math.sin(axis_angle), 0.0])
    cross = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    tilt = math.radians(placement.tilt)
    turn = np.eye(3) + math.sin(tilt) * cross + (1 - math.cos(tilt)) * cross @ cross
    points = (turn @ turn_in_plane @ square.T).T
    depth = distance + points[:, 2]
    x = placement.centre[0] + distance * points[:, 0] / depth
    y = placement.centre[1] + distance * points[:, 1] / depth
    return np.stack([x, y], axis=1).astype(np.float32)


def photograph(
    placements: Sequence[Placement],
    size: tuple[int, int] = (640, 480),
    *,
    blur: float = 1.0,
    jpeg_quality: int = 60,
    background: int = 170,
    seed: int = 0,
) -> NDArray[np.uint8]:
    """A BGR picture of `size` (width, height) with the cards placed as asked."""
    rng = np.random.default_rng(seed)
    width, height = size
    big_size = (width * SUPERSAMPLE, height * SUPERSAMPLE)
    scene = np.full((big_size[1], big_size[0]), background, np.uint8)
    for placement in placements:
        card, modules = flat_card(placement.payload)
        card_modules = modules + 2 * (QR_QUIET_MODULES + CARD_MARGIN_MODULES)
        side = card_modules * placement.module_px * SUPERSAMPLE
        big = Placement(
            placement.payload,
            (placement.centre[0] * SUPERSAMPLE, placement.centre[1] * SUPERSAMPLE),
            placement.module_px,
            placement.tilt,
            placement.tilt_axis,
            placement.spin,
        )
        target = seen_corners(big, side, DISTANCE_IN_SIDES * side)
        edge = float(card.shape[0])
        source = np.array([[0, 0], [edge, 0], [edge, edge], [0, edge]], np.float32)
        homography = cv2.getPerspectiveTransform(source, target)
        warped = cv2.warpPerspective(card, homography, big_size, flags=cv2.INTER_LINEAR)
        covered = cv2.warpPerspective(
            np.full_like(card, 255), homography, big_size, flags=cv2.INTER_NEAREST
        )
        scene = np.where(covered > 0, warped, scene).astype(np.uint8)
    picture = cv2.resize(scene, size, interpolation=cv2.INTER_AREA)
    if blur > 0:
        picture = cv2.GaussianBlur(picture, (0, 0), blur)
    noisy = picture.astype(np.float32) + rng.normal(0.0, 2.5, picture.shape)
    picture = np.clip(noisy, 0, 255).astype(np.uint8)
    colour = cv2.cvtColor(picture, cv2.COLOR_GRAY2BGR)
    ok, jpeg = cv2.imencode(".jpg", colour, [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality])
    assert ok
    return np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), np.uint8)


def code_corners(placement: Placement) -> NDArray[np.float32]:
    """Where the code's own corners (without the quiet zone) land in the picture."""
    modules = len(code_matrix(placement.payload))
    card_modules = modules + 2 * (QR_QUIET_MODULES + CARD_MARGIN_MODULES)
    distance = DISTANCE_IN_SIDES * card_modules * placement.module_px
    return seen_corners(placement, modules * placement.module_px, distance)
