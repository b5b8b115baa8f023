"""The physical colours of this scene source: crystals as tinted acrylic, lamps by their
colour temperature.

The names are the game's (the sides' and the challenge's); the colours are this package's
own, as a specular transmittance of the gem's surface: light is tinted each time it crosses
into or out of it, so a crystal's body is deeper than its rim.
"""

from __future__ import annotations

from vision.blackbody import blackbody_srgb

Rgb = tuple[float, float, float]

CRYSTALS: dict[str, Rgb] = {
    "red": (0.92, 0.10, 0.09),
    "blue": (0.10, 0.26, 0.95),
    "yellow": (0.97, 0.80, 0.06),
    "green": (0.10, 0.80, 0.22),
    "purple": (0.55, 0.10, 0.85),
    "orange": (0.98, 0.42, 0.04),
    "white": (0.93, 0.93, 0.92),
    "black": (0.05, 0.05, 0.06),
}
CRYSTAL_IOR = 1.49
"""Acrylic (PMMA)."""


def crystal_transmittance(name: str) -> Rgb:
    try:
        return CRYSTALS[name]
    except KeyError:
        raise ValueError(f"no crystal colour {name!r}; known: {', '.join(CRYSTALS)}") from None


def kelvin_rgb(kelvin: float) -> Rgb:
    """A black body's colour at `kelvin`, linear RGB, scaled to luminance 1 (a fit to the
    Planckian locus in sRGB primaries, good to a few percent from 1500 K to 12000 K)."""
    srgb = blackbody_srgb(kelvin)
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in srgb]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    r, g, b = (c / luminance for c in linear)
    return (r, g, b)
