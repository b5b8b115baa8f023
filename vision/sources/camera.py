"""A USB (or any V4L2) camera through OpenCV.

    camera = CameraSource(0, width=1280, height=720)    # UserError if it cannot be opened
    frame = camera.read()                               # CameraLost once it stops delivering
    camera.reopen()                                     # True when it is back

A camera is endless: `read()` returns a frame or raises CameraLost, never None.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from typing import Any, Protocol

import cv2

from companion.errors import UserError
from vision.sources.frame import CameraLost, Frame, Source, as_bgr
from vision.sources.opencv_log import opencv_quiet

log = logging.getLogger(__name__)

READ_ATTEMPTS = 5
"""Failed reads in a row before a camera counts as lost. A single failed read happens (a
dropped USB transfer); a camera that is gone fails every one, each after the driver's own
timeout."""


class Capture(Protocol):
    """The part of cv2.VideoCapture a camera source uses."""

    def isOpened(self) -> bool: ...

    def read(self) -> tuple[bool, Any]: ...

    def set(self, prop: int, value: float) -> bool: ...

    def get(self, prop: int) -> float: ...

    def release(self) -> None: ...


CaptureFactory = Callable[[int | str], Capture]


def open_capture(device: int | str) -> Capture:
    """cv2.VideoCapture for a camera index or device path, quietly. On Linux it asks for
    V4L2 directly, so that OpenCV does not first try the device as a video file."""
    api = cv2.CAP_V4L2 if sys.platform.startswith("linux") else cv2.CAP_ANY
    with opencv_quiet():
        return cv2.VideoCapture(device, api)


class CameraSource(Source):
    def __init__(
        self,
        device: int | str,
        width: int = 1280,
        height: int = 720,
        fps: float | None = None,
        *,
        clock_ns: Callable[[], int] = time.monotonic_ns,
        capture_factory: CaptureFactory = open_capture,
        attempts: int = READ_ATTEMPTS,
    ) -> None:
        if attempts < 1:
            raise ValueError("a camera needs at least one attempt to read a frame")
        self.device = device
        self.name = f"camera {device}"
        self.width = width
        self.height = height
        self.fps = fps
        self._clock_ns = clock_ns
        self._capture_factory = capture_factory
        self._attempts = attempts
        self._index = 0
        self._capture: Capture | None = self._open()

    def read(self) -> Frame:
        """The next frame; CameraLost when the camera delivers none after a few attempts."""
        capture = self._capture
        if capture is None:
            raise CameraLost(f"{self.name} is not open")
        for _ in range(self._attempts):
            ok, image = capture.read()
            if ok and image is not None and image.size:
                # The frame's time is when it arrived here: OpenCV's own stamps differ by
                # backend and are not all on the monotonic clock.
                frame = Frame(as_bgr(image), self._clock_ns(), self._index)
                self._index += 1
                return frame
        log.warning("%s stopped delivering frames", self.name)
        raise CameraLost(f"{self.name} stopped delivering frames")

    def reopen(self) -> bool:
        """Closes the camera and opens it again (after CameraLost); True when it is back.
        Frames go on counting from where they were."""
        self.close()
        try:
            self._capture = self._open()
        except UserError as error:
            log.debug("cannot reopen %s yet: %s", self.name, error)
            return False
        log.info("%s is back", self.name)
        return True

    def close(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()

    def _open(self) -> Capture:
        capture = self._capture_factory(self.device)
        if not capture.isOpened():
            capture.release()
            raise UserError(
                f"cannot open {self.name}: no such camera, or another program is using it"
            )
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        if self.fps is not None:
            capture.set(cv2.CAP_PROP_FPS, self.fps)
        # A camera picks the nearest size it supports; say so rather than fail, since every
        # reader works on any size.
        got = (
            round(capture.get(cv2.CAP_PROP_FRAME_WIDTH)),
            round(capture.get(cv2.CAP_PROP_FRAME_HEIGHT)),
        )
        if got != (self.width, self.height):
            log.warning(
                "%s gives %dx%d pictures, not the %dx%d asked for",
                self.name,
                *got,
                self.width,
                self.height,
            )
        log.info("%s open at %dx%d", self.name, *got)
        return capture
