"""Physically based camera scenes of the printed board, rendered with Mitsuba 3: a second,
independent source of frames that the board reader is never tuned on (docs/scenes.md).

    setup = random_setup(np.random.default_rng(3))
    frame = render_frame(load_board(), Scene(crystals={"17": ("red",)}), setup, seed=1)
    frame.image          # BGR, as decoded from frame.jpeg
"""

from vision.pbr.conditions import SetUp, flat_setup, random_setup
from vision.pbr.render import SAMPLES, SIZE, Frame, camera_for, render_frame

__all__ = [
    "SAMPLES", "SIZE", "Frame", "SetUp", "camera_for", "flat_setup", "random_setup",
    "render_frame",
]  # fmt: skip
