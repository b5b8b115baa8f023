"""A folder of photos is read as `vision read` reads one: upright, at the working size."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision.photo import WORKING_SIDE
from vision.sources import ImageFolderSource

ORIENTATION = 0x0112
TURNED_RIGHT = 6
"""EXIF: the picture as stored must be turned 90 degrees clockwise to stand upright."""


def sideways_photo(path: Path) -> Path:
    """As a phone held on its side stores it: dark on the left, which is the top upright."""
    pixels = np.full((20, 40, 3), 230, np.uint8)
    pixels[:, :20] = 20
    exif = Image.Exif()
    exif[ORIENTATION] = TURNED_RIGHT
    Image.fromarray(pixels).save(path, "JPEG", exif=exif, quality=95)
    return path


def test_a_photo_taken_sideways_comes_upright(tmp_path: Path) -> None:
    sideways_photo(tmp_path / "IMG_0001.jpg")
    frames = list(ImageFolderSource(tmp_path))
    assert len(frames) == 1
    image = frames[0].image
    assert image.shape == (40, 20, 3)
    assert image[:20].mean() < 60 < 200 < image[20:].mean()


def test_a_large_photo_is_brought_to_the_working_size(tmp_path: Path) -> None:
    Image.new("RGB", (3000, 2000), (200, 100, 50)).save(tmp_path / "big.png")
    (frame,) = ImageFolderSource(tmp_path)
    assert frame.image.shape == (round(2000 * WORKING_SIDE / 3000), WORKING_SIDE, 3)
    assert frame.image[0, 0].tolist() == [50, 100, 200]  # BGR


def test_a_damaged_photo_is_one_line_naming_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    sideways_photo(tmp_path / "a.jpg")
    noise = np.random.default_rng(1).integers(0, 256, (300, 400, 3), np.uint8)
    Image.fromarray(noise).save(tmp_path / "whole.jpg")
    whole = (tmp_path / "whole.jpg").read_bytes()
    (tmp_path / "whole.jpg").unlink()
    (tmp_path / "b.jpg").write_bytes(whole[: len(whole) // 2])  # an unfinished copy
    with caplog.at_level(logging.WARNING, logger="vision.sources"):
        frames = list(ImageFolderSource(tmp_path))
    assert len(frames) == 1
    (record,) = caplog.records
    line = record.getMessage()
    assert "\n" not in line and str(tmp_path / "b.jpg") in line and "damaged or cut short" in line
