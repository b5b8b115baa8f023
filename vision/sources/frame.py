"""A frame and what every frame source promises.

    with open_source("0") as source:          # a camera, a video, images, a synthetic camera
        for frame in source:                   # until a finite source ends
            frame.image, frame.t_ns, frame.index

A finite source (a video, a folder of images) ends with `read()` returning None; a camera
never ends that way: one that stops delivering raises CameraLost instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import Protocol, Self, runtime_checkable

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.common.closing import Closing
from vision.common.errors import UserError

Image = NDArray[np.uint8]
"""A picture as OpenCV holds it: height x width x 3, BGR, uint8."""


@dataclass(frozen=True, slots=True, eq=False)
class Frame:
    image: Image
    t_ns: int
    """When it was taken: the clock's reading for a live source, index / frame rate for a
    file, so that a replay runs on the times it was filmed at."""
    index: int
    """Counted from 0, in the order the source delivered them."""


class CameraLost(UserError):
    """A camera that was open has stopped delivering frames (unplugged, or its driver gave
    up). The app alerts and goes on with manual entry; a command that does not catch it ends
    with this one line, like any other UserError."""


@runtime_checkable
class FrameSource(Protocol):
    name: str
    """What a person would call it in a message: 'camera 0', 'video game.mp4'."""

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class Source(Closing):
    """What the sources share: `with` support and iteration until the end."""

    name: str

    def read(self) -> Frame | None:
        raise NotImplementedError

    def __iter__(self) -> Iterator[Frame]:
        while (frame := self.read()) is not None:
            yield frame

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def as_bgr(image: NDArray[np.generic]) -> Image:
    """The picture as 3-channel BGR uint8, whatever a source delivered: grey (a monochrome
    camera), BGRA (a screenshot, a PNG with alpha) or BGR already (returned as it is)."""
    if image.dtype != np.uint8:
        raise ValueError(f"a frame must hold uint8 pixels, not {image.dtype}")
    picture: Image = image.astype(np.uint8, copy=False)
    if picture.ndim == 2:
        return np.asarray(cv2.cvtColor(picture, cv2.COLOR_GRAY2BGR), np.uint8)
    if picture.ndim == 3 and picture.shape[2] == 3:
        return picture
    if picture.ndim == 3 and picture.shape[2] == 4:
        return np.asarray(cv2.cvtColor(picture, cv2.COLOR_BGRA2BGR), np.uint8)
    raise ValueError(f"a frame must be grey, BGR or BGRA, not of shape {picture.shape}")
