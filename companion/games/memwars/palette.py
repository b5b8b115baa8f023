"""MemWars' crystal colours: those a side may take and the challenge pieces', and how each
is drawn on the screen, as 0..1 RGB."""

from __future__ import annotations

SIDE_COLOURS = ("red", "blue", "green", "purple", "orange")
"""The crystal colours a side may take, as the printed board and the rule book allow; the
virtual camera can render them all."""
CHALLENGE_COLOUR = "yellow"
"""The challenge pieces' colour, whatever the sides'."""

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
