"""Reading printed output back: ArUco markers in a picture, PDF pages as pictures."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.board_art import aruco_dictionary
from vision.geometry import Board

Picture = NDArray[np.uint8]

needs_pdftoppm = pytest.mark.skipif(
    shutil.which("pdftoppm") is None,
    reason="pdftoppm is missing (poppler-utils; scripts/install-system-deps.sh installs it)",
)


def marker_centres(picture: Picture, board: Board) -> dict[int, tuple[float, float]]:
    """Every marker found in `picture`: id -> centre in pixels."""
    detector = cv2.aruco.ArucoDetector(
        aruco_dictionary(board.marker_dictionary), cv2.aruco.DetectorParameters()
    )
    corners, ids, _ = detector.detectMarkers(picture)
    if ids is None:
        return {}
    found = {}
    for marker_id, quad in zip(ids.flatten().tolist(), corners, strict=True):
        x, y = quad.reshape(4, 2).mean(axis=0)
        found[int(marker_id)] = (float(x), float(y))
    return found


def read_picture(path: Path) -> Picture:
    picture = cv2.imread(str(path))
    assert picture is not None, path
    return picture.astype(np.uint8)


def pdf_pages(pdf: Path, dpi: int) -> list[Picture]:
    """Each page of `pdf` rendered by poppler at `dpi`, BGR."""
    stem = pdf.with_name(f"{pdf.stem}-page")
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), str(stem)], check=True)
    files = sorted(pdf.parent.glob(f"{stem.name}-*.png"))
    return [read_picture(file) for file in files]


def page_count(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def media_box(pdf: bytes) -> tuple[float, float]:
    """The first page's width and height in points."""
    found = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    assert found is not None
    return float(found.group(1)), float(found.group(2))
