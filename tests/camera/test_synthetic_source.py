"""The virtual camera as a frame source, paced on a clock driven by hand."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from tests.camera.clocks import HandClock
from vision.sources import Frame, SyntheticSource, open_source

MS = 1_000_000


class Drawer:
    """Stands in for the virtual camera: numbered flat pictures, then None after `frames`."""

    fps = 10.0

    def __init__(self, frames: int = 100) -> None:
        self.frames = frames
        self.drawn = 0
        self.closed = False

    def read(self) -> np.ndarray | None:
        if self.drawn == self.frames:
            return None
        self.drawn += 1
        return np.full((6, 8, 3), self.drawn, np.uint8)

    def close(self) -> None:
        self.closed = True


def times(frames: list[Frame | None]) -> list[int]:
    return [f.t_ns for f in frames if f is not None]


def test_frames_come_at_the_cameras_rate() -> None:
    clock = HandClock()
    source = SyntheticSource(Drawer(), clock_ns=clock, sleep=clock.sleep)
    first = source.read()
    clock.advance(30 * MS)  # the caller works on a frame for 30 ms
    second = source.read()
    assert times([first, second]) == [0, 100 * MS]
    assert clock.slept_ns == [70 * MS]
    assert second is not None and second.index == 1 and int(second.image[0, 0, 0]) == 2


def test_a_late_reader_gets_no_burst() -> None:
    clock = HandClock()
    source = SyntheticSource(Drawer(), fps=10, clock_ns=clock, sleep=clock.sleep)
    frames = [source.read(), source.read()]  # at 0, then 100 ms after sleeping
    clock.advance(250 * MS)  # busy for longer than two periods
    frames.append(source.read())  # at once, late
    clock.advance(10 * MS)
    frames.append(source.read())  # a whole period after the late one
    assert times(frames) == [0, 100 * MS, 350 * MS, 450 * MS]
    assert clock.slept_ns == [100 * MS, 90 * MS]


def test_the_rate_does_not_drift_when_a_sleep_runs_over() -> None:
    clock = HandClock()

    def sleep_long(seconds: float) -> None:
        clock.sleep(seconds)
        clock.advance(2 * MS)  # the system wakes the sleeper 2 ms late

    source = SyntheticSource(Drawer(), fps=10, clock_ns=clock, sleep=sleep_long)
    frames = [source.read() for _ in range(4)]
    assert times(frames) == [0, 102 * MS, 202 * MS, 302 * MS]


def test_the_end_and_close() -> None:
    drawer = Drawer(frames=2)
    clock = HandClock()
    with SyntheticSource(drawer, fps=1000, clock_ns=clock, sleep=clock.sleep) as source:
        assert len(list(source)) == 2
        assert source.read() is None
    assert drawer.closed
    assert source.read() is None


def test_the_rate_must_be_positive() -> None:
    with pytest.raises(ValueError, match="more than 0"):
        SyntheticSource(Drawer(), fps=0)


@pytest.mark.skipif(
    importlib.util.find_spec("vision.synth.camera") is None
    or importlib.util.find_spec("vision.synth.conditions") is None,
    reason="the virtual camera (vision.synth.camera) is not there yet",
)
def test_open_source_synthetic_films_the_board() -> None:
    with open_source("synthetic:3", fps=1000) as source:
        frame = source.read()
    assert frame is not None and frame.image.ndim == 3 and frame.image.dtype == np.uint8
    assert source.name == "synthetic camera (seed 3)"
