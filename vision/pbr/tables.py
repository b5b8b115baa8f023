"""Table tops as procedural reflectance textures: woods with growth rings and planks,
laminates with a faint mottle, felt and cloth with a weave. Linear RGB, 1 pixel a
millimetre, tiled by the renderer.

    texture = table_texture("walnut", seed=4)
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

Texture = NDArray[np.float32]
SIDE = 768
"""The texture's side, pixels (millimetres); it repeats beyond that."""

WOODS = {
    "maple": ((0.50, 0.36, 0.20), (0.68, 0.52, 0.32)),
    "oak": ((0.30, 0.18, 0.08), (0.52, 0.36, 0.18)),
    "walnut": ((0.06, 0.03, 0.015), (0.16, 0.09, 0.05)),
    "cherry": ((0.22, 0.08, 0.04), (0.40, 0.17, 0.08)),
}
"""Dark and light of each wood's grain, linear RGB."""
PLAIN = {
    "white-laminate": ((0.70, 0.70, 0.68), 0.01),
    "grey-laminate": ((0.16, 0.16, 0.155), 0.03),
    "black-laminate": ((0.018, 0.018, 0.02), 0.05),
    "green-felt": ((0.03, 0.14, 0.04), 0.12),
    "blue-felt": ((0.02, 0.05, 0.20), 0.12),
    "black-cloth": ((0.012, 0.012, 0.014), 0.15),
    "linen": ((0.50, 0.44, 0.34), 0.08),
    "red-cloth": ((0.25, 0.02, 0.025), 0.12),
}
"""Each plain top's colour, linear RGB, and how strongly its weave or mottle shows."""
GLOSSY = {"white-laminate", "grey-laminate", "black-laminate", "maple", "oak", "walnut", "cherry"}
"""Tops with a varnish or a laminate's coating; the rest are cloth."""


@lru_cache(maxsize=4)
def table_texture(kind: str, seed: int) -> Texture:
    rng = np.random.default_rng(seed)
    if kind in WOODS:
        dark, light = (np.array(c, np.float32) for c in WOODS[kind])
        tone = _wood(rng)
        texture = dark + (light - dark) * tone[:, :, None]
    elif kind in PLAIN:
        colour, weave = PLAIN[kind]
        texture = np.array(colour, np.float32) * (1.0 + weave * _weave(rng))[:, :, None]
    else:
        raise ValueError(f"no table {kind!r}")
    result = np.asarray(np.clip(texture, 0.003, 1.0), np.float32)
    result.setflags(write=False)
    return result


def _noise(rng: np.random.Generator, along: float, across: float) -> NDArray[np.float32]:
    noise = rng.normal(0, 1, (SIDE, SIDE)).astype(np.float32)
    # Wrapped borders, so the tiles join without a seam.
    pad = int(3 * max(along, across)) + 1
    wrapped = np.pad(noise, pad, mode="wrap")
    smooth = cv2.GaussianBlur(wrapped, (0, 0), along, None, across)[pad:-pad, pad:-pad]
    return np.asarray(smooth / (float(np.std(smooth)) + 1e-6), np.float32)


def _wood(rng: np.random.Generator) -> NDArray[np.float32]:
    """Planks along x with rings drifting across them, 0..1."""
    y = np.arange(SIDE, dtype=np.float32)[:, None]
    plank_width = SIDE / int(rng.integers(4, 8))
    plank = np.floor(y / plank_width)
    drift = _noise(rng, 90, 30)
    period = float(rng.uniform(4, 10))
    rings = 0.5 + 0.5 * np.sin(2 * np.pi * (y / period + 1.5 * drift + plank * 2.7))
    tone = 0.55 - 0.25 * rings**3 + 0.12 * _noise(rng, 30, 0.7) + 0.1 * np.sin(plank * 1.9)
    seam = np.abs(((y + plank_width / 2) % plank_width) - plank_width / 2) < 0.7
    return np.asarray(np.clip(np.where(seam, tone * 0.4, tone), 0, 1), np.float32)


def _weave(rng: np.random.Generator) -> NDArray[np.float32]:
    """-1..1-ish: a fine weave and soft blotches."""
    fine = _noise(rng, 0.6, 0.6)
    blotch = _noise(rng, 40, 40)
    return np.asarray(np.clip(0.5 * fine + 0.5 * blotch, -2.5, 2.5) / 2.5, np.float32)
