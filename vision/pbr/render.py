"""One frame of a physically based scene: the truth (a Scene) under one camera set-up,
rendered with Mitsuba, then through the camera's lens and sensor.

    frame = render_frame(load_board(), scene, random_setup(rng), seed=5)
    frame.image, frame.jpeg, frame.hand_over_board
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.geometry import Board
from vision.pbr import sensor
from vision.pbr.assemble import mitsuba, scene_dict
from vision.pbr.conditions import SetUp
from vision.pbr.hands import over_board
from vision.pbr.layout import lay_counters, lay_gems, stream
from vision.pbr.lens import Camera, aim_camera, distort
from vision.pbr.world import Table, sheet_corners
from vision.synth.scene import Scene

SIZE = (1280, 720)
SAMPLES = 6
"""Samples per pixel: with the lens's softness and the sensor's own noise on top, more
buys nothing the reader can see."""


@dataclass(frozen=True, slots=True)
class Frame:
    image: NDArray[np.uint8]
    """BGR, as decoded from `jpeg`."""
    jpeg: bytes
    scene: Scene
    hand_over_board: bool
    camera: Camera
    seconds: float
    """How long the render took."""


def camera_for(board: Board, setup: SetUp, size: tuple[int, int] = SIZE) -> Camera:
    return aim_camera(setup.camera, sheet_corners(Table.of(board, setup.sheet)), size)


def render_frame(
    board: Board,
    scene: Scene,
    setup: SetUp,
    seed: int,
    size: tuple[int, int] = SIZE,
    spp: int = SAMPLES,
    layout_seed: int | None = None,
) -> Frame:
    """`seed` draws this frame's noise, smear and JPEG quality; `layout_seed` (default: the
    same) where crystals without given placements lie."""
    started = time.perf_counter()
    mi = mitsuba()
    camera = camera_for(board, setup, size)
    placed = seed if layout_seed is None else layout_seed
    counters = lay_counters(board, scene, placed)
    gems = lay_gems(board, scene, placed, counters)
    loaded = mi.load_dict(scene_dict(board, scene, setup, camera, gems, counters, spp))
    light = np.array(mi.render(loaded, seed=seed % (1 << 31)), np.float32)[:, :, :3]
    picture = distort(camera, light)
    image, jpeg = sensor.develop(picture, setup.sensor, stream(seed, "sensor"))
    return Frame(
        image=image,
        jpeg=jpeg,
        scene=scene,
        hand_over_board=over_board(board, scene.hands),
        camera=camera,
        seconds=time.perf_counter() - started,
    )
