"""Crystal colours as physical surfaces: diffuse reflectance in linear RGB (0..1) and a gloss.

The renderer shades these under its light and only then encodes to sRGB, so a red crystal
in dim warm light comes out the way a camera would show it rather than as a fixed pixel
value. Real acrylic crystals of one colour differ a little from each other (moulding batch,
thickness, wear): `crystal_colour` draws one such individual.

    PALETTE["red"].reflectance          # (0.5, 0.035, 0.04)
    crystal_colour("red", rng)          # this particular red crystal, linear RGB
"""

from __future__ import annotations

import colorsys
from dataclasses import dataclass

import numpy as np

from vision.synth.lighting import GAMMA

Rgb = tuple[float, float, float]

MEM_STONES = (
    "white", "black", "red", "blue", "green", "yellow",
    "orange", "purple", "brown", "pink", "grey",
)  # fmt: skip
"""The eleven stone colours of MeM, in the rule book's order of counts (8, 7, 3, 3, ...)."""

SIDES = ("red", "blue")
"""The two players' crystals in a default MemWars set."""
CHALLENGE = "yellow"
"""The challenge pieces of a default MemWars set."""

PAPER_REFLECTANCE = 0.86
"""What the board's white paper reflects; the board texture's 255 stands for this."""


@dataclass(frozen=True, slots=True)
class Pigment:
    reflectance: Rgb
    """Diffuse reflectance, linear RGB."""
    gloss: float
    """How strongly the polished facets mirror the light, 0..1."""
    hue_jitter: float = 0.012
    """Spread of hue between individual crystals, as a fraction of the colour wheel as seen
    (gamma-encoded), not of linear RGB: a saturated red's hue in linear RGB turns about
    three times further once encoded, which would make one red crystal in twenty nearer
    orange than red."""


PALETTE: dict[str, Pigment] = {
    "red": Pigment((0.50, 0.035, 0.040), 0.8),
    "blue": Pigment((0.030, 0.085, 0.45), 0.8),
    "green": Pigment((0.040, 0.30, 0.070), 0.8),
    "yellow": Pigment((0.62, 0.48, 0.030), 0.7, hue_jitter=0.008),
    "purple": Pigment((0.17, 0.040, 0.33), 0.8),
    "orange": Pigment((0.66, 0.19, 0.020), 0.7, hue_jitter=0.008),
    "white": Pigment((0.72, 0.72, 0.69), 0.6, hue_jitter=0.0),
    "black": Pigment((0.030, 0.030, 0.035), 0.9, hue_jitter=0.0),
    "pink": Pigment((0.70, 0.21, 0.33), 0.7),
    "cyan": Pigment((0.045, 0.42, 0.52), 0.8),
    # MeM's stones add a brown and a grey (companion/games/mem/colours.py).
    "brown": Pigment((0.20, 0.075, 0.022), 0.7, hue_jitter=0.008),
    "grey": Pigment((0.20, 0.20, 0.19), 0.7, hue_jitter=0.0),
}


def pigment(name: str) -> Pigment:
    try:
        return PALETTE[name]
    except KeyError:
        known = ", ".join(PALETTE)
        raise ValueError(f"no crystal colour {name!r}; known: {known}") from None


def crystal_colour(name: str, rng: np.random.Generator) -> Rgb:
    """One individual crystal of colour `name`: the pigment with its own small hue,
    saturation and lightness differences, linear RGB."""
    base = pigment(name)
    seen = (channel ** (1 / GAMMA) for channel in base.reflectance)
    hue, saturation, value = colorsys.rgb_to_hsv(*seen)
    hue = (hue + rng.normal(0.0, base.hue_jitter)) % 1.0
    turned = (channel**GAMMA for channel in colorsys.hsv_to_rgb(hue, saturation, value))
    hue, saturation, value = colorsys.rgb_to_hsv(*turned)
    saturation = min(1.0, saturation * rng.uniform(0.88, 1.06))
    value = min(1.0, value * rng.uniform(0.85, 1.12))
    r, g, b = colorsys.hsv_to_rgb(hue, saturation, value)
    return (r, g, b)
