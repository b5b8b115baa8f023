"""The colours MemWars' crystals are drawn in on the screen, as 0..1 RGB."""

from __future__ import annotations

RGB: dict[str, tuple[float, float, float]] = {
    "red": (0.85, 0.15, 0.15),
    "blue": (0.15, 0.35, 0.9),
    "green": (0.1, 0.65, 0.25),
    "black": (0.1, 0.1, 0.1),
    "yellow": (0.98, 0.85, 0.1),
    "white": (0.95, 0.95, 0.95),
    "orange": (0.95, 0.5, 0.1),
    "purple": (0.55, 0.2, 0.7),
}


def colour_rgb(name: str) -> tuple[float, float, float]:
    return RGB.get(name, (0.5, 0.5, 0.5))
