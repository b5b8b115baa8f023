"""The room's light over the whole picture: exposure, the colour cast a camera's white balance
leaves, light falling off across the table, lens vignetting, soft shadows of things off the
board, and glare off the semi-gloss paper.

All of it varies slowly across the picture, so it is worked out at a quarter of the
resolution and kept per (board, conditions). It multiplies pixel values (which are sRGB,
so a linear factor k becomes k ** (1 / 2.2)), except the glare, which adds light.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.blackbody import blackbody_srgb
from vision.geometry import Board
from vision.synth.conditions import Conditions
from vision.synth.kept import kept
from vision.synth.projection import Projection, projection

Floats = NDArray[np.float32]
LOWRES = 4
"""The light map is worked out at 1 / LOWRES of the picture's size."""
PAPER_LEVEL = 0.9
"""At exposure 1 the paper (255 in the textures) comes out at 0.9 of full scale."""
BALANCED_FOR = 5000.0
"""The colour temperature the camera's white balance is set for."""
WHITE_BALANCE_LEFT = 0.65
"""How much of a light's colour cast the camera's automatic white balance leaves in."""
GAMMA = 2.2


@dataclass(frozen=True, slots=True)
class Lighting:
    gain: Floats
    """Per-pixel, per-channel factor on the pixel values, full size (H x W x 3)."""
    glare: Floats | None
    """Added light per pixel (H x W), as a fraction of paper white in linear light."""
    glare_box: tuple[int, int, int, int]
    """left, top, right, bottom of where the glare is worth computing."""
    tint: tuple[float, float, float]
    """The light's colour after white balance, BGR, linear."""


def lighting(board: Board, conditions: Conditions) -> Lighting:
    return _lighting(board, conditions)


@lru_cache(maxsize=4)
def _lighting(board: Board, conditions: Conditions) -> Lighting:
    view = projection(board, conditions)
    width, height = conditions.size
    small = (max(2, width // LOWRES), max(2, height // LOWRES))
    board_xy = _board_coordinates(view, small, width / small[0])
    light = _illumination(board, conditions, board_xy)
    light *= _vignetting(small, conditions.vignetting)
    for shadow in conditions.shadows:
        light *= 1.0 - shadow.darkness * _ellipse(board_xy, shadow.centre, shadow.size,
                                                  shadow.angle, shadow.softness)  # fmt: skip
    tint = white_balance(conditions.colour_temperature)
    level = PAPER_LEVEL * (conditions.brightness * light) ** (1 / GAMMA)
    gain_small = level[:, :, None] * (np.array(tint, np.float32) ** (1 / GAMMA))
    gain = np.asarray(
        cv2.resize(gain_small.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR),
        np.float32,
    )
    glare, box = _glare(board_xy, board, conditions, (width, height))
    return Lighting(kept(gain), None if glare is None else kept(glare), box, tint)


def white_balance(temperature: float) -> tuple[float, float, float]:
    """BGR linear factors a light of `temperature` kelvin leaves after the camera's white
    balance; green is kept at 1 (the exposure sees to the overall level)."""
    here = _blackbody(temperature)
    reference = _blackbody(BALANCED_FOR)
    r, g, b = (
        (here[k] / reference[k] / (here[1] / reference[1])) ** (WHITE_BALANCE_LEFT * GAMMA)
        for k in range(3)
    )
    return (b, g, r)


def _blackbody(temperature: float) -> tuple[float, float, float]:
    """The sRGB colour of a black body at `temperature`, 0..1, never quite black."""
    return blackbody_srgb(temperature, darkest=1 / 255)


def _board_coordinates(view: Projection, small: tuple[int, int], step: float) -> Floats:
    """Board millimetres seen at the centre of every low-resolution pixel, (h, w, 2)."""
    xs = (np.arange(small[0], dtype=np.float64) + 0.5) * step - 0.5
    ys = (np.arange(small[1], dtype=np.float64) + 0.5) * step - 0.5
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 1, 2)
    inverse = np.linalg.inv(view.homography())
    board = cv2.perspectiveTransform(grid, inverse).reshape(small[1], small[0], 2)
    return board.astype(np.float32)


def _illumination(board: Board, conditions: Conditions, xy: Floats) -> Floats:
    """Light falling off from one side of the sheet to the other, linear, mean about 1."""
    angle = math.radians(conditions.gradient_direction)
    direction = np.array([math.cos(angle), math.sin(angle)], np.float32)
    centre = np.array([board.width / 2, board.height / 2], np.float32)
    reach = abs(direction[0]) * board.width / 2 + abs(direction[1]) * board.height / 2
    ramp = np.clip(((xy - centre) @ direction) / reach, -1.6, 1.6)
    g = conditions.gradient
    return np.asarray((1.0 + g * (ramp + 1.0) / 2.0) / (1.0 + g / 2.0), np.float32)


def _vignetting(small: tuple[int, int], strength: float) -> Floats:
    xs = np.linspace(-1.0, 1.0, small[0], dtype=np.float32)
    ys = np.linspace(-1.0, 1.0, small[1], dtype=np.float32) * small[1] / small[0]
    radius2 = (xs[None, :] ** 2 + ys[:, None] ** 2) / (1.0 + (small[1] / small[0]) ** 2)
    return np.asarray(1.0 - strength * radius2, np.float32)


def _ellipse(
    xy: Floats, centre: tuple[float, float], size: tuple[float, float], angle: float, soft: float
) -> Floats:
    """1 inside the ellipse, 0 outside, with an edge `soft` millimetres wide."""
    a = math.radians(angle)
    d = xy - np.array(centre, np.float32)
    along = d[..., 0] * math.cos(a) + d[..., 1] * math.sin(a)
    across = -d[..., 0] * math.sin(a) + d[..., 1] * math.cos(a)
    q = np.sqrt((along / size[0]) ** 2 + (across / size[1]) ** 2)
    outside_mm = (q - 1.0) * min(size)
    return np.asarray(1.0 / (1.0 + np.exp(np.clip(outside_mm / (soft / 4.0), -30, 30))))


def _on_sheet(xy: Floats, board: Board) -> Floats:
    """1 on the sheet, 0 off it, with an edge about a millimetre wide."""
    inside = np.minimum(
        np.minimum(xy[..., 0], board.width - xy[..., 0]),
        np.minimum(xy[..., 1], board.height - xy[..., 1]),
    )
    return np.asarray(np.clip(inside + 0.5, 0.0, 1.0), np.float32)


def _glare(
    xy: Floats, board: Board, conditions: Conditions, size: tuple[int, int]
) -> tuple[Floats | None, tuple[int, int, int, int]]:
    glare = conditions.glare
    if glare is None:
        return None, (0, 0, 0, 0)
    d2 = np.sum((xy - np.array(glare.centre, np.float32)) ** 2, axis=-1)
    patch = glare.strength * conditions.brightness * np.exp(-d2 / (2 * (glare.radius / 2) ** 2))
    # It is the semi-gloss paper that mirrors the lamp, not the table around it.
    patch *= _on_sheet(xy, board)
    rows, columns = np.nonzero(patch > 0.004)
    if len(rows) == 0:
        return None, (0, 0, 0, 0)
    full = np.asarray(
        cv2.resize(patch.astype(np.float32), size, interpolation=cv2.INTER_LINEAR), np.float32
    )
    step_x, step_y = size[0] / patch.shape[1], size[1] / patch.shape[0]
    box = (
        max(0, int((columns.min() - 1) * step_x)),
        max(0, int((rows.min() - 1) * step_y)),
        min(size[0], int((columns.max() + 2) * step_x)),
        min(size[1], int((rows.max() + 2) * step_y)),
    )
    return full, box
