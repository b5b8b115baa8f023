"""Frames from still images: sorted as people count, bad ones skipped with a warning."""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.errors import UserError
from vision.sources import Frame, ImageFolderSource


def write(path: Path, shade: int) -> Path:
    assert cv2.imwrite(str(path), np.full((30, 40, 3), shade, np.uint8))
    return path


def shade(frame: Frame) -> int:
    return round(float(frame.image.mean()))


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    write(tmp_path / "frame-1.png", 10)
    write(tmp_path / "frame-2.jpg", 20)
    write(tmp_path / "frame-10.png", 100)
    write(tmp_path / "Frame-4.webp", 40)
    write(tmp_path / "frame-5.bmp", 50)
    (tmp_path / "frame-3.png").write_bytes(b"\x89PNG\r\n\x1a\n truncated")
    (tmp_path / "notes.txt").write_text("not an image")
    (tmp_path / "sub.png").mkdir()
    return tmp_path


def test_sorted_images_a_bad_one_skipped_with_a_warning(
    folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with (
        caplog.at_level(logging.WARNING, logger="vision.sources"),
        ImageFolderSource(folder, fps=4) as source,
    ):
        frames = list(source)
    assert [shade(f) for f in frames] == [10, 20, 40, 50, 100]
    assert [f.index for f in frames] == [0, 1, 2, 3, 4]
    assert [f.t_ns for f in frames] == [0, 250_000_000, 500_000_000, 750_000_000, 1_000_000_000]
    assert "frame-3.png" in caplog.text and "skipping" in caplog.text


def test_a_pattern_picks_some(folder: Path) -> None:
    source = ImageFolderSource(folder, "frame-1*")
    assert [shade(f) for f in source] == [10, 100]
    assert source.name == f"images in {folder}"


def test_a_list_keeps_its_order(folder: Path) -> None:
    source = ImageFolderSource([folder / "frame-10.png", folder / "frame-1.png"])
    assert [shade(f) for f in source] == [100, 10]


def test_one_image_and_a_loop(folder: Path) -> None:
    source = ImageFolderSource(folder / "frame-2.jpg", loop=True)
    frames = [source.read() for _ in range(3)]
    assert [f.index for f in frames if f is not None] == [0, 1, 2]
    source.close()
    assert source.read() is None


def test_grey_and_transparent_images_come_as_bgr(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), np.full((8, 8), 90, np.uint8))
    cv2.imwrite(str(tmp_path / "b.png"), np.full((8, 8, 4), 90, np.uint8))
    assert [f.image.shape for f in ImageFolderSource(tmp_path)] == [(8, 8, 3), (8, 8, 3)]


def test_no_images_at_all_is_one_line(folder: Path, tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"no png/jpg/jpeg/bmp/webp/heic/heif images in the folder"):
        ImageFolderSource(folder / "sub.png")
    with pytest.raises(UserError, match="matching 'game-\\*'"):
        ImageFolderSource(folder, "game-*")
    with pytest.raises(UserError, match="no such image file or folder"):
        ImageFolderSource(tmp_path / "missing")
    with pytest.raises(UserError, match="no images given"):
        ImageFolderSource([])


def test_images_none_of_which_can_be_read(tmp_path: Path) -> None:
    (tmp_path / "a.png").write_bytes(b"junk")
    (tmp_path / "b.jpg").write_bytes(b"junk")
    source = ImageFolderSource(tmp_path, loop=True)
    with pytest.raises(UserError, match="none of the 2 images can be read") as error:
        source.read()
    assert error.value.where == str(tmp_path)
