"""A virtual camera filming the printed board on a table, with crystals, counters, a card and
hands on it, under varied camera poses, light and sensors: for tests, benchmarks and
`companion run --simulate`.

    shot = render(load_board(), Scene(crystals={"17": ("red",)}), Conditions.easy(), seed=1)
    camera = SyntheticCamera(load_board(), random_conditions(rng), seed=3)
"""

from vision.synth.camera import FilmedFrame, SyntheticCamera
from vision.synth.conditions import CastShadow, Conditions, Glare, random_conditions
from vision.synth.palette import CHALLENGE, PALETTE, SIDES, Pigment
from vision.synth.render import Rendered, render
from vision.synth.scene import Hand, Scene

__all__ = [
    "CHALLENGE",
    "PALETTE",
    "SIDES",
    "CastShadow",
    "Conditions",
    "FilmedFrame",
    "Glare",
    "Hand",
    "Pigment",
    "Rendered",
    "Scene",
    "SyntheticCamera",
    "random_conditions",
    "render",
]
