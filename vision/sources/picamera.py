"""A Raspberry Pi camera module through Picamera2 (libcamera), where OpenCV cannot reach it.

    camera = PicameraSource(width=1280, height=720)   # UserError without Picamera2 or a camera

Picamera2 comes with Raspberry Pi OS (`apt install python3-picamera2`) and is not on PyPI
in a usable form, so it is imported only here, when such a camera is asked for.
"""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable
from typing import Any

from companion.errors import UserError
from vision.sources.frame import CameraLost, Frame, Source, as_bgr

log = logging.getLogger(__name__)

NOT_INSTALLED = "Picamera2 is not installed (Raspberry Pi OS: apt install python3-picamera2)"


def _picamera2() -> Any:
    try:
        return importlib.import_module("picamera2")
    except ImportError:
        raise UserError(NOT_INSTALLED) from None


class PicameraSource(Source):
    def __init__(
        self,
        width: int = 1280,
        height: int = 720,
        fps: float | None = None,
        *,
        camera_number: int = 0,
        clock_ns: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        module = _picamera2()
        self.name = f"Raspberry Pi camera {camera_number}"
        self._clock_ns = clock_ns
        self._index = 0
        try:
            camera = module.Picamera2(camera_number)
        except Exception as error:  # Picamera2 raises IndexError, RuntimeError... for no camera
            raise UserError(f"cannot open the {self.name}: {error}") from None
        self._camera: Any = camera
        try:
            # "RGB888" is libcamera's name for pixels stored B, G, R in memory: the arrays
            # come out in OpenCV's order already, and must not be swapped.
            controls = {"FrameRate": float(fps)} if fps is not None else {}
            config = camera.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"}, controls=controls
            )
            camera.configure(config)
            camera.start()
        except Exception as error:
            self.close()
            raise UserError(f"cannot start the {self.name} at {width}x{height}: {error}") from None

    def read(self) -> Frame:
        if self._camera is None:
            raise CameraLost(f"the {self.name} is not open")
        try:
            image = self._camera.capture_array("main")
        except Exception as error:
            raise CameraLost(f"the {self.name} stopped delivering frames: {error}") from None
        frame = Frame(as_bgr(image), self._clock_ns(), self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()
            finally:
                camera.close()
