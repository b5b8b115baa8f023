"""Frames from a video file: all of them, in order, timed by the file's frame rate."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from tests.camera.clocks import HandClock
from vision.sources import Frame, VideoFileSource

FPS = 20.0
FRAMES = 12
FRAME_NS = 50_000_000


def shade(i: int) -> int:
    return 10 + 20 * i


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twelve flat grey frames at 20 per second, each a shade lighter than the last."""
    path = tmp_path_factory.mktemp("video") / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), FPS, (64, 48))
    assert writer.isOpened()
    for i in range(FRAMES):
        writer.write(np.full((48, 64, 3), shade(i), np.uint8))
    writer.release()
    return path


def which(frame: Frame) -> int:
    """The frame's number in the clip, told by its shade."""
    return round((float(frame.image.mean()) - 10) / 20)


def test_every_frame_in_order_with_its_time(video: Path) -> None:
    with VideoFileSource(video) as source:
        frames = list(source)
        assert source.read() is None
    assert [which(f) for f in frames] == list(range(FRAMES))
    assert [f.index for f in frames] == list(range(FRAMES))
    assert [f.t_ns for f in frames] == [i * FRAME_NS for i in range(FRAMES)]
    assert all(f.image.shape == (48, 64, 3) and f.image.dtype == np.uint8 for f in frames)
    assert source.fps == FPS and source.name == f"video {video}"


def test_a_loop_starts_again_and_time_goes_on(video: Path) -> None:
    with VideoFileSource(video, loop=True) as source:
        frames = [source.read() for _ in range(FRAMES + 3)]
    assert [which(f) for f in frames if f is not None] == [*range(FRAMES), 0, 1, 2]
    assert [f.t_ns for f in frames if f is not None] == [i * FRAME_NS for i in range(FRAMES + 3)]


def test_realtime_waits_for_each_frames_time(video: Path) -> None:
    clock = HandClock(now_ns=7_000_000_000)
    source = VideoFileSource(video, realtime=True, clock_ns=clock, sleep=clock.sleep)
    first = source.read()
    assert first is not None and clock.slept_ns == []  # the first frame is due at once
    clock.advance(10_000_000)  # the caller took 10 ms over the first frame
    source.read()
    assert clock.slept_ns == [40_000_000]
    clock.advance(80_000_000)  # then 80 ms: the third frame is late, no wait
    third = source.read()
    assert third is not None and third.t_ns == 2 * FRAME_NS
    assert clock.slept_ns == [40_000_000]
    source.close()


def test_a_missing_or_unreadable_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no such video file") as missing:
        VideoFileSource(tmp_path / "nothing.avi")
    assert str(tmp_path / "nothing.avi") in str(missing.value)
    junk = tmp_path / "junk.avi"
    junk.write_bytes(b"not a video at all" * 50)
    with pytest.raises(UserError, match="cannot be read as a video"):
        VideoFileSource(junk)
