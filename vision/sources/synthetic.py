"""A virtual camera as a frame source, paced like a real one.

    source = SyntheticSource(camera)            # camera: anything with read() -> BGR array
                                                # paced at fps=..., or at its own camera.fps
    source.read()                               # waits for the next frame's turn, stamps it

Every frame is stamped by the same clock the pacing waits on, so a test that drives that
clock by hand gets exact, repeatable times.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from vision.sources.frame import Frame, Source, as_bgr

DEFAULT_FPS = 30.0
"""For a camera that does not say its own rate (an `fps` attribute)."""


class FrameMaker(Protocol):
    """What draws the pictures: vision.synth.camera.SyntheticCamera, or a test's stand-in.
    A None from it ends the source."""

    def read(self) -> NDArray[np.uint8] | None: ...


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
