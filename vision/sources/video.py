"""Frames from a video file, timed by the file's frame rate.

    with VideoFileSource("game.mp4") as video:        # UserError if it cannot be read
        for frame in video:                            # frame.t_ns = index / frame rate
            ...

`loop=True` starts again at the end, frames and times counting on (a filter downstream
never sees time go back); `realtime=True` delivers each frame no sooner than the file's
rate would, for a replay that should look live.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from pathlib import Path

import cv2

from vision.common.errors import UserError
from vision.sources.frame import Frame, Image, Source, as_bgr
from vision.sources.opencv_log import opencv_quiet

log = logging.getLogger(__name__)

VIDEO_SUFFIXES = (".avi", ".mp4", ".m4v", ".mkv", ".mov", ".webm", ".mpg", ".mpeg", ".wmv")
ASSUMED_FPS = 30.0
"""For a file that does not say its frame rate."""


class VideoFileSource(Source):
    def __init__(
        self,
        path: str | Path,
        loop: bool = False,
        realtime: bool = False,
        *,
        clock_ns: Callable[[], int] = time.monotonic_ns,
        sleep: Callable[[float], object] = time.sleep,
    ) -> None:
        self.path = Path(path)
        self.name = f"video {self.path}"
        self.loop = loop
        self.realtime = realtime
        self._clock_ns = clock_ns
        self._sleep = sleep
        self._index = 0
        self._started_ns: int | None = None
        """Where the clock stood when frame time 0 was due (realtime only)."""
        if not self.path.is_file():
            raise UserError("no such video file", where=str(self.path))
        self._capture: cv2.VideoCapture | None = self._open()
        self.fps = self._frame_rate(self._capture)
        self._first: Image | None = self._grab()
        if self._first is None:
            self.close()
            raise UserError("holds no frame that can be read", where=str(self.path))

    def read(self) -> Frame | None:
        image, self._first = self._first, None
        if image is None:
            image = self._grab()
        if image is None and self.loop and self._index > 0:
            self._rewind()
            image = self._grab()
        if image is None:
            return None
        t_ns = round(self._index * 1_000_000_000 / self.fps)
        if self.realtime:
            self._wait_for(t_ns)
        frame = Frame(image, t_ns, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        capture, self._capture = self._capture, None
        if capture is not None:
            capture.release()

    def _open(self) -> cv2.VideoCapture:
        with opencv_quiet():
            capture = cv2.VideoCapture(str(self.path))
        if not capture.isOpened():
            capture.release()
            raise UserError("cannot be read as a video", where=str(self.path))
        return capture

    def _grab(self) -> Image | None:
        if self._capture is None:
            return None
        with opencv_quiet():
            ok, image = self._capture.read()
        if not ok or image is None or not image.size:
            return None
        return as_bgr(image)

    def _rewind(self) -> None:
        # Opening again rather than seeking to frame 0: seeking is exact in some containers
        # only, and a loop must show the first frame again.
        self.close()
        self._capture = self._open()

    def _frame_rate(self, capture: cv2.VideoCapture) -> float:
        fps = capture.get(cv2.CAP_PROP_FPS)
        if math.isfinite(fps) and fps > 0:
            return fps
        log.warning("%s does not give its frame rate; taking %g per second", self.name, ASSUMED_FPS)
        return ASSUMED_FPS

    def _wait_for(self, t_ns: int) -> None:
        now = self._clock_ns()
        if self._started_ns is None:
            self._started_ns = now - t_ns
        late_by = now - (self._started_ns + t_ns)
        if late_by < 0:
            self._sleep(-late_by / 1e9)
