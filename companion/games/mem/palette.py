"""The colours of each MeM player's frame on the screen, as 0..1 RGB: colours no stone has."""

from __future__ import annotations

SIDE_RGB = ((0.25, 0.7, 0.95), (0.98, 0.7, 0.25))


def side_rgb(side: int) -> tuple[float, float, float]:
    return SIDE_RGB[side % len(SIDE_RGB)]
