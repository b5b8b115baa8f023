"""Cameras: a clear line when one cannot be opened, CameraLost when one stops delivering."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from tests.camera.clocks import HandClock
from vision.sources import CameraLost, CameraSource


class FakeCapture:
    """Delivers `frames` frames (a grey 4 x 6 picture each), then fails every read."""

    def __init__(self, frames: int, opened: bool = True) -> None:
        self.frames = frames
        self.opened = opened
        self.reads = 0
        self.settings: dict[int, float] = {}
        self.released = False

    def isOpened(self) -> bool:
        return self.opened

    def read(self) -> tuple[bool, Any]:
        self.reads += 1
        if self.reads > self.frames:
            return False, None
        return True, np.full((4, 6), self.reads, np.uint8)

    def set(self, prop: int, value: float) -> bool:
        self.settings[prop] = value
        return True

    def get(self, prop: int) -> float:
        return self.settings.get(prop, 0.0)

    def release(self) -> None:
        self.released = True


class Factory:
    def __init__(self, *captures: FakeCapture) -> None:
        self.captures: Iterator[FakeCapture] = iter(captures)
        self.opened: list[int | str] = []

    def __call__(self, device: int | str) -> FakeCapture:
        self.opened.append(device)
        return next(self.captures)


def test_frames_then_camera_lost() -> None:
    clock = HandClock(now_ns=1_000)
    capture = FakeCapture(frames=2)
    camera = CameraSource(3, 640, 480, 15, clock_ns=clock, capture_factory=Factory(capture))
    assert capture.settings == {
        cv2.CAP_PROP_FRAME_WIDTH: 640,
        cv2.CAP_PROP_FRAME_HEIGHT: 480,
        cv2.CAP_PROP_FPS: 15,
    }
    first = camera.read()
    clock.advance(66_000_000)
    second = camera.read()
    assert (first.index, first.t_ns, second.index, second.t_ns) == (0, 1_000, 1, 66_001_000)
    assert first.image.shape == (4, 6, 3)  # a grey camera's picture comes as BGR
    with pytest.raises(CameraLost, match="camera 3 stopped delivering frames"):
        camera.read()
    assert capture.reads == 2 + 5  # a few attempts before giving up, not one, not forever
    camera.close()
    assert capture.released


def test_reopen_after_camera_lost() -> None:
    factory = Factory(FakeCapture(frames=1), FakeCapture(frames=0, opened=False), FakeCapture(1))
    with CameraSource("/dev/video2", capture_factory=factory, attempts=2) as camera:
        camera.read()
        with pytest.raises(CameraLost):
            camera.read()
        assert camera.reopen() is False  # unplugged still
        with pytest.raises(CameraLost, match="not open"):
            camera.read()
        assert camera.reopen() is True
        assert camera.read().index == 1  # frames count on
    assert factory.opened == ["/dev/video2"] * 3


def test_a_camera_that_cannot_be_opened_is_one_line() -> None:
    capture = FakeCapture(frames=0, opened=False)
    with pytest.raises(UserError, match=r"^cannot open camera 1: no such camera"):
        CameraSource(1, capture_factory=Factory(capture))
    assert capture.released


def test_a_camera_index_that_is_not_there() -> None:
    with pytest.raises(UserError, match="cannot open camera 99"):
        CameraSource(99)


def test_camera_lost_is_a_user_error_so_an_uncaught_one_is_one_line() -> None:
    assert issubclass(CameraLost, UserError)
