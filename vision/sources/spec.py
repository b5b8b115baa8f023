"""A frame source from the few words a user types for it (`--camera`, the config file).

open_source("0")                # camera index 0
open_source("/dev/video2")      # a camera by its device
open_source("picamera")         # the Raspberry Pi camera module
open_source("synthetic")        # the virtual camera filming the MemWars board (seed 0)
open_source("synthetic:7")      # the same with seed 7
open_source("shots/")           # every image in a folder
open_source("game.mp4")         # a video file
open_source("board.png")        # one image
"""

from __future__ import annotations

import importlib
from pathlib import Path

from vision.common.errors import UserError
from vision.geometry import load_board
from vision.sources.camera import CameraSource
from vision.sources.frame import Source
from vision.sources.images import IMAGE_SUFFIXES, ImageFolderSource
from vision.sources.picamera import PicameraSource
from vision.sources.synthetic import SyntheticSource
from vision.sources.video import VIDEO_SUFFIXES, VideoFileSource

FORMS = (
    "a camera index (0), a camera device (/dev/video2), picamera, synthetic[:seed], "
    "a folder of images, a video file (.mp4, .avi, ...) or an image file (.png, .jpg, ...)"
)


def open_source(
    spec: str, *, width: int = 1280, height: int = 720, fps: float | None = None
) -> Source:
    """The source `spec` names, opened; a UserError naming the spec when it names none, or
    when what it names cannot be opened. `width`, `height` and `fps` apply to cameras."""
    text = spec.strip()
    if text.isascii() and text.isdigit():
        return CameraSource(int(text), width, height, fps)
    if text.startswith("/dev/"):
        return CameraSource(text, width, height, fps)
    if text.lower() == "picamera":
        return PicameraSource(width, height, fps)
    if text.lower() == "synthetic" or text.lower().startswith("synthetic:"):
        return synthetic_source(_seed(text), fps)
    path = Path(text).expanduser()
    if text and path.is_dir():
        return ImageFolderSource(path)
    suffix = path.suffix.lower()
    if suffix in VIDEO_SUFFIXES:
        return VideoFileSource(path)
    if suffix in IMAGE_SUFFIXES:
        return ImageFolderSource(path)
    missing = " (no such file or folder)" if text and not path.exists() else ""
    raise UserError(f"{spec!r} is not a frame source{missing}; give {FORMS}")


def synthetic_source(seed: int = 0, fps: float | None = None) -> SyntheticSource:
    """The virtual camera filming the MemWars board under easy conditions, at its own frame
    rate unless `fps` is given."""
    # Imported when asked for: the virtual camera is large, and only tests and demos use it.
    try:
        camera_module = importlib.import_module("vision.synth.camera")
        conditions_module = importlib.import_module("vision.synth.conditions")
    except ModuleNotFoundError as error:
        if error.name not in ("vision.synth.camera", "vision.synth.conditions"):
            raise
        raise UserError(f"the synthetic camera is not available: {error.name} is missing") from None
    conditions = conditions_module.Conditions.easy()
    camera = camera_module.SyntheticCamera(load_board(), conditions, seed)
    return SyntheticSource(camera, fps, name=f"synthetic camera (seed {seed})")


def _seed(text: str) -> int:
    _, _, seed = text.partition(":")
    if not seed:
        return 0
    try:
        return int(seed)
    except ValueError:
        raise UserError(f"{text!r}: the synthetic camera's seed must be a whole number") from None
