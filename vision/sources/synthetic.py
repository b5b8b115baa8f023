"""A virtual camera as a frame source, paced like a real one.

    source = SyntheticSource(camera)            # camera: anything with read() -> BGR array
                                                # paced at fps=..., or at its own camera.fps
    source.read()                               # waits for the next frame's turn, stamps it

Every frame is stamped by the same clock the pacing waits on, so a test that drives that
clock by hand gets exact, repeatable times. A camera with an exposure (SyntheticCamera)
gets `source.controls` like a webcam's: the simulated twin of setting a camera up.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from vision.sources.controls import Unsupported, WhiteBalance
from vision.sources.frame import Frame, Source, as_bgr

DEFAULT_FPS = 30.0
"""For a camera that does not say its own rate (an `fps` attribute)."""
EXPOSURE_LIMITS = (1 / 64, 64.0)
"""The virtual camera's exposures, linear against the one its conditions were judged at."""


class FrameMaker(Protocol):
    """What draws the pictures: vision.synth.camera.SyntheticCamera, or a test's stand-in.
    A None from it ends the source."""

    def read(self) -> NDArray[np.uint8] | None: ...


@runtime_checkable
class ExposedCamera(Protocol):
    """A virtual camera whose exposure can be set: vision.synth.camera.SyntheticCamera."""

    @property
    def exposure(self) -> float: ...

    @property
    def auto_exposure(self) -> bool: ...

    def set_exposure(self, exposure: float) -> None: ...

    def set_auto_exposure(self, on: bool) -> None: ...


class SyntheticControls:
    """The virtual camera's exposure, set and read back like a webcam's. Its white
    balance is a fixed partial correction of the light's colour that never drifts, so
    locking it holds it where it is; it cannot be set to a value."""

    unit = "×"
    limits = EXPOSURE_LIMITS
    settle_frames = 0
    """The next frame is taken at the new exposure."""

    def __init__(self, camera: ExposedCamera, name: str) -> None:
        self.camera = camera
        self.name = name
        self.white_balance_locked = False

    def set_auto_exposure(self, on: bool) -> None:
        self.camera.set_auto_exposure(on)

    def exposure(self) -> float:
        return self.camera.exposure

    def set_exposure(self, value: float) -> float:
        self.camera.set_auto_exposure(False)
        self.camera.set_exposure(min(max(value, self.limits[0]), self.limits[1]))
        return self.camera.exposure

    def white_balance(self) -> WhiteBalance:
        return WhiteBalance()

    def lock_white_balance(self) -> WhiteBalance:
        self.white_balance_locked = True
        return WhiteBalance()

    def set_white_balance(self, value: WhiteBalance) -> WhiteBalance:
        raise Unsupported(f"the {self.name}'s white balance cannot be set")


class SyntheticSource(Source):
    def __init__(
        self,
        camera: FrameMaker,
        fps: float | None = None,
        *,
        name: str = "synthetic camera",
        clock_ns: Callable[[], int] = time.monotonic_ns,
        sleep: Callable[[float], object] = time.sleep,
    ) -> None:
        if fps is None:
            fps = float(getattr(camera, "fps", DEFAULT_FPS))
        if fps <= 0:
            raise ValueError("a synthetic camera's frame rate must be more than 0")
        self.camera = camera
        self.fps = fps
        self.name = name
        self.period_ns = round(1_000_000_000 / fps)
        self._clock_ns = clock_ns
        self._sleep = sleep
        self._index = 0
        self._due_ns: int | None = None
        self._closed = False
        self.controls = (
            SyntheticControls(camera, name) if isinstance(camera, ExposedCamera) else None
        )
        """Exposure and white balance (vision.sources.controls); None for a stand-in."""

    def read(self) -> Frame | None:
        if self._closed:
            return None
        now = self._clock_ns()
        if self._due_ns is not None and now < self._due_ns:
            self._sleep((self._due_ns - now) / 1e9)
            now = self._clock_ns()
        image = self.camera.read()
        if image is None:
            return None
        # The next frame is due a period after this one was due, so that the rate does not
        # drift; a reader more than a period late starts the beat again from now, rather
        # than getting a burst of frames to catch up.
        due = now if self._due_ns is None else self._due_ns
        self._due_ns = due + self.period_ns
        if now >= self._due_ns:
            self._due_ns = now + self.period_ns
        frame = Frame(as_bgr(image), now, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        self._closed = True
        close = getattr(self.camera, "close", None)
        if callable(close):
            close()
