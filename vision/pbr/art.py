"""The printed pictures as reflectance textures: the board's own print on the paper, the
topology counters' faces. Linear RGB, float32, rows top down, drawn once and kept.

The print is the drawing `companion print board` prints (vision/board_art.py), its sRGB
ink values turned into reflectance under the paper's own white.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from vision.board_art import draw_board
from vision.counter_art import draw_counter
from vision.geometry import Board

Texture = NDArray[np.float32]

PRINT_PX_PER_MM = 4.0
COUNTER_PX_PER_MM = 10.0
QUADRANT_NAMES = ("Greek", "Roman", "Egyptian", "Norse")


def to_linear(bgr: NDArray[np.uint8]) -> Texture:
    """sRGB BGR bytes -> linear RGB 0..1."""
    srgb = bgr[:, :, ::-1].astype(np.float32) / 255.0
    low = srgb / 12.92
    high = ((srgb + 0.055) / 1.055) ** 2.4
    return np.asarray(np.where(srgb <= 0.04045, low, high), np.float32)


@lru_cache(maxsize=2)
def print_texture(board: Board) -> Texture:
    """The board's print, 1 where the paper is bare: the paper's white multiplies it."""
    names = QUADRANT_NAMES if board.game == "memwars" else None
    art = to_linear(draw_board(board, PRINT_PX_PER_MM, names))
    art.setflags(write=False)
    return art


@lru_cache(maxsize=8)
def counter_texture(value: int | None, size: float) -> Texture:
    face = to_linear(draw_counter(value, COUNTER_PX_PER_MM, size))
    # The white pips are printed on card, not a perfect white.
    face = np.asarray(face * 0.82 + 0.004, np.float32)
    face.setflags(write=False)
    return face
