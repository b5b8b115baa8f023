"""The colour of light from a black body at a colour temperature: lamps, daylight.

blackbody_srgb(2700.0)      # a warm bulb, sRGB-encoded 0..1 per channel
"""

from __future__ import annotations

import math


def blackbody_srgb(kelvin: float, darkest: float = 0.0) -> tuple[float, float, float]:
    """A black body's colour at `kelvin`, sRGB-encoded, each channel within darkest..1
    (Tanner Helland's fit to the Planckian locus, good to a few percent from 1500 K to
    12000 K)."""
    t = kelvin / 100.0
    if t <= 66:
        r = 255.0
        g = 99.4708025861 * math.log(t) - 161.1195681661
    else:
        r = 329.698727446 * (t - 60) ** -0.1332047592
        g = 288.1221695283 * (t - 60) ** -0.0755148492
    if t >= 66:
        b = 255.0
    elif t <= 19:
        b = 0.0
    else:
        b = 138.5177312231 * math.log(t - 10) - 305.0447927307
    red, green, blue = (min(1.0, max(darkest, c / 255.0)) for c in (r, g, b))
    return red, green, blue
