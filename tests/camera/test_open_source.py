"""What a user types for a frame source, and what it opens."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from vision.sources import (
    FrameSource,
    ImageFolderSource,
    PicameraSource,
    VideoFileSource,
    open_source,
)
from vision.sources import spec as spec_module


@pytest.fixture()
def files(tmp_path: Path) -> Path:
    cv2.imwrite(str(tmp_path / "board.png"), np.zeros((8, 8, 3), np.uint8))
    cv2.imwrite(str(tmp_path / "Board.JPG"), np.zeros((8, 8, 3), np.uint8))
    writer = cv2.VideoWriter(
        str(tmp_path / "game.avi"), cv2.VideoWriter.fourcc(*"MJPG"), 10, (8, 8)
    )
    writer.write(np.zeros((8, 8, 3), np.uint8))
    writer.release()
    (tmp_path / "notes.txt").write_text("hello")
    return tmp_path


Calls = list[tuple[str, tuple[object, ...]]]


@pytest.fixture()
def opened(monkeypatch: pytest.MonkeyPatch) -> Calls:
    """Cameras are not opened: what would be opened, with what, is recorded instead."""
    calls: Calls = []

    def recorder(name: str) -> Callable[..., str]:
        def record(*args: object) -> str:
            calls.append((name, args))
            return name

        return record

    monkeypatch.setattr(spec_module, "CameraSource", recorder("camera"))
    monkeypatch.setattr(spec_module, "PicameraSource", recorder("picamera"))
    monkeypatch.setattr(spec_module, "synthetic_source", recorder("synthetic"))
    return calls


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("0", ("camera", (0, 1280, 720, None))),
        (" 12 ", ("camera", (12, 1280, 720, None))),
        ("/dev/video2", ("camera", ("/dev/video2", 1280, 720, None))),
        ("picamera", ("picamera", (1280, 720, None))),
        ("PiCamera", ("picamera", (1280, 720, None))),
        ("synthetic", ("synthetic", (0, None))),
        ("synthetic:7", ("synthetic", (7, None))),
    ],
)
def test_devices(spec: str, expected: tuple[str, tuple[object, ...]], opened: Calls) -> None:
    open_source(spec)
    assert opened == [expected]


def test_camera_settings_are_passed_on(opened: Calls) -> None:
    open_source("1", width=1920, height=1080, fps=30)
    assert opened == [("camera", (1, 1920, 1080, 30))]


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        (".", ImageFolderSource),
        ("board.png", ImageFolderSource),
        ("Board.JPG", ImageFolderSource),
        ("game.avi", VideoFileSource),
    ],
)
def test_files(files: Path, name: str, kind: type) -> None:
    with open_source(str(files / name)) as source:
        assert isinstance(source, kind) and isinstance(source, FrameSource)
        assert source.read() is not None


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("notes.txt", r"'.*notes.txt' is not a frame source; give a camera index \(0\), "),
        ("missing", r"'.*missing' is not a frame source \(no such file or folder\); give"),
        ("", r"'' is not a frame source; give"),
        ("-1", r"'-1' is not a frame source"),
        ("missing.mp4", r"no such video file"),
        ("missing.png", r"no such image file or folder"),
        ("synthetic:x", r"seed must be a whole number"),
    ],
)
def test_what_is_no_source_is_one_line(files: Path, name: str, message: str) -> None:
    spec = str(files / name) if name not in ("", "-1", "synthetic:x") else name
    with pytest.raises(UserError, match=message):
        open_source(spec)


def test_every_form_is_listed(files: Path) -> None:
    with pytest.raises(UserError) as error:
        open_source(str(files / "notes.txt"))
    for form in ("0", "/dev/video2", "picamera", "synthetic", "folder", "video", "image"):
        assert form in str(error.value)


@pytest.mark.skipif(
    importlib.util.find_spec("picamera2") is not None, reason="Picamera2 is installed here"
)
def test_picamera_without_picamera2() -> None:
    with pytest.raises(UserError, match=r"^Picamera2 is not installed \(Raspberry Pi OS: apt"):
        PicameraSource()
