"""A USB (or any V4L2) camera through OpenCV.

    camera = CameraSource(0, width=1280, height=720)    # UserError if it cannot be opened
    frame = camera.read()                               # CameraLost once it stops delivering
    camera.reopen()                                     # True when it is back

A camera is endless: `read()` returns a frame or raises CameraLost, never None.
`camera.controls` sets its exposure and white balance through V4L2 (vision/sources/
controls.py); what was set is set again when the camera is reopened.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from typing import Any, Protocol

import cv2

from vision.common.errors import UserError
from vision.sources.controls import Unsupported, WhiteBalance
from vision.sources.frame import CameraLost, Frame, Source, as_bgr
from vision.sources.opencv_log import opencv_quiet

log = logging.getLogger(__name__)

READ_ATTEMPTS = 5
"""Failed reads in a row before a camera counts as lost. A single failed read happens (a
dropped USB transfer); a camera that is gone fails every one, each after the driver's own
timeout."""
MANUAL_EXPOSURE = 1.0
AUTO_EXPOSURE = 3.0
"""V4L2's exposure modes as OpenCV passes them through: manual, and aperture priority
(the automatic mode UVC webcams offer)."""
EXPOSURE_LIMITS = (1.0, 5000.0)
"""V4L2 counts exposure in 100 µs: 0.1 ms to half a second (a camera clamps to its own)."""
BUFFERED_FRAMES = 4
"""Frames OpenCV's V4L2 backend keeps queued: taken before a change, read after it."""
TAKEN = 0.25
"""How far (a share of it) a camera may round a value set and still count as taking it."""


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
        self._held: dict[int, float] = {}
        """Controls set through `controls`, set again when the camera is reopened."""
        self._capture: Capture | None = self._open()
        self.controls = V4l2Controls(self)

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
        for prop, value in self._held.items():
            capture.set(prop, value)
        log.info("%s open at %dx%d", self.name, *got)
        return capture

    def capture(self) -> Capture:
        """The open capture, for the controls; CameraLost when it is not open."""
        if self._capture is None:
            raise CameraLost(f"{self.name} is not open")
        return self._capture

    def hold(self, prop: int, value: float) -> None:
        self._held[prop] = value


class V4l2Controls:
    """A webcam's exposure and white balance through OpenCV's V4L2 properties. Each value
    set is read back: a camera that refuses one (`set` is False) or ignores it (reads back
    what it had) raises Unsupported."""

    unit = "× 100 µs"
    limits = EXPOSURE_LIMITS
    settle_frames = BUFFERED_FRAMES

    def __init__(self, camera: CameraSource) -> None:
        self._camera = camera
        self.name = camera.name

    def set_auto_exposure(self, on: bool) -> None:
        mode = AUTO_EXPOSURE if on else MANUAL_EXPOSURE
        self._set(cv2.CAP_PROP_AUTO_EXPOSURE, mode, "automatic exposure", exact=True)

    def exposure(self) -> float:
        return self._get(cv2.CAP_PROP_EXPOSURE, "exposure")

    def set_exposure(self, value: float) -> float:
        self.set_auto_exposure(False)
        return self._set(cv2.CAP_PROP_EXPOSURE, float(max(1, round(value))), "exposure")

    def white_balance(self) -> WhiteBalance:
        return WhiteBalance(kelvin=self._get(cv2.CAP_PROP_WB_TEMPERATURE, "white balance"))

    def lock_white_balance(self) -> WhiteBalance:
        # Read while automatic white balance still runs: where it has got to.
        kelvin = self._get(cv2.CAP_PROP_WB_TEMPERATURE, "white balance")
        return self.set_white_balance(WhiteBalance(kelvin=kelvin))

    def set_white_balance(self, value: WhiteBalance) -> WhiteBalance:
        if value.kelvin is None:
            raise Unsupported(f"{self.name} takes its white balance as a colour temperature")
        self._set(cv2.CAP_PROP_AUTO_WB, 0.0, "automatic white balance", exact=True)
        kelvin = self._set(cv2.CAP_PROP_WB_TEMPERATURE, round(value.kelvin), "white balance")
        return WhiteBalance(kelvin=kelvin)

    def _get(self, prop: int, what: str) -> float:
        value = float(self._camera.capture().get(prop))
        # OpenCV reads -1 (or 0) for a property the driver does not have.
        if value <= 0:
            raise Unsupported(f"{self.name} does not report its {what}")
        return value

    def _set(self, prop: int, value: float, what: str, *, exact: bool = False) -> float:
        capture = self._camera.capture()
        before = float(capture.get(prop))
        if not capture.set(prop, value):
            raise Unsupported(f"{self.name} does not let its {what} be set")
        after = float(capture.get(prop))
        near = abs(after - value) <= (0.0 if exact else max(1.0, TAKEN * abs(value)))
        # A camera may round what it is given to a step it has: a value that moved still
        # counts, one that stayed where it was (while asked for another) does not.
        moved = not exact and after != before and abs(after - value) < abs(before - value)
        if not (near or moved):
            raise Unsupported(
                f"{self.name} ignores its {what} setting (set to {value:g}, it reads {after:g})"
            )
        self._camera.hold(prop, value)
        return after
