"""The camera-mount geometry in hardware/tools/mount_heights.py (and so in
hardware/camera-mount.md): at the computed height the sheet plus margin fits the picture
exactly, a millimetre lower it does not, and bigger boards need a higher camera."""

from __future__ import annotations

import importlib.util
import itertools
import math
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

TOOL = Path(__file__).resolve().parents[2] / "hardware" / "tools" / "mount_heights.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mount_heights", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mount_heights"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


mh = _load()
CASES = list(itertools.product(mh.BOARDS, mh.CAMERAS))
TILTS = [0.0, 15.0, 30.0, 45.0]
Point = tuple[float, float]


def _corners(board: Any, setback_mm: float, margin_mm: float = mh.MARGIN_MM) -> list[Point]:
    """The corners of the sheet plus margin, in the tool's table coordinates."""
    half = board.width_mm / 2 + margin_mm
    near = setback_mm - margin_mm
    far = setback_mm + board.depth_mm + margin_mm
    return [(x, y) for x in (-half, half) for y in (near, far)]


def _worst(camera: Any, height_mm: float, tilt_deg: float, corners: list[Point]) -> float:
    """How far out the furthest corner lands: <= 1 inside the picture."""
    worst = 0.0
    for x, y in corners:
        u, v = mh.project(camera, height_mm, tilt_deg, x, y)
        worst = max(worst, abs(u), abs(v))
    return worst


@pytest.mark.parametrize(("board", "camera"), CASES, ids=lambda item: item.name)
def test_straight_down_the_margin_touches_the_picture_edge(board, camera):
    mount = mh.straight_down(board, camera)
    assert mount.setback_mm == pytest.approx(-board.depth_mm / 2)
    corners = _corners(board, mount.setback_mm)
    assert _worst(camera, mount.height_mm, 0.0, corners) == pytest.approx(1.0, abs=1e-9)
    assert _worst(camera, mount.height_mm - 1.0, 0.0, corners) > 1.0


def test_straight_down_by_hand():
    """A3 under Camera Module 3: the 357 mm depth (297 + 2 x 30) across 41 degrees."""
    a3 = next(board for board in mh.BOARDS if board.name == "A3")
    cm3 = next(camera for camera in mh.CAMERAS if camera.name == "Camera Module 3")
    expected = 357 / 2 / math.tan(math.radians(20.5))
    assert mh.straight_down(a3, cm3).height_mm == pytest.approx(expected)
    assert round(expected) == 477


@pytest.mark.parametrize("tilt", TILTS)
@pytest.mark.parametrize(("board", "camera"), CASES, ids=lambda item: item.name)
def test_tilted_fits_and_is_the_lowest(board, camera, tilt):
    mount = mh.tilted(board, camera, tilt)
    corners = _corners(board, mount.setback_mm)
    assert _worst(camera, mount.height_mm, tilt, corners) == pytest.approx(1.0, abs=1e-9)
    # 1 % lower, no setback at all fits: slide the sheet along the table in 5 mm steps.
    lower = mount.height_mm * 0.99
    for step in range(-400, 400):
        shifted = _corners(board, mount.setback_mm + step * 5.0)
        try:
            worst = _worst(camera, lower, tilt, shifted)
        except ValueError:  # part of it behind the camera
            continue
        assert worst > 1.0, f"fits {lower:.0f} mm high with setback moved {step * 5} mm"


@pytest.mark.parametrize("camera", mh.CAMERAS, ids=lambda camera: camera.name)
def test_bigger_boards_need_more_height(camera):
    for tilt in TILTS:
        for small, big in itertools.permutations(mh.BOARDS, 2):
            if small.width_mm <= big.width_mm and small.depth_mm <= big.depth_mm:
                low = mh.tilted(small, camera, tilt).height_mm
                assert low <= mh.tilted(big, camera, tilt).height_mm
        heights = [
            mh.tilted(mh.Board("scaled", 420.0 * k, 297.0 * k), camera, tilt).height_mm
            for k in (0.5, 0.75, 1.0, 1.5, 2.0)
        ]
        assert heights == sorted(heights) and len(set(heights)) == len(heights)


@pytest.mark.parametrize("board", mh.BOARDS, ids=lambda board: board.name)
def test_wider_lenses_and_tilting_bring_the_camera_down(board):
    cm3, wide, _ = mh.CAMERAS
    assert mh.straight_down(board, wide).height_mm < mh.straight_down(board, cm3).height_mm
    for camera in mh.CAMERAS:
        heights = [mh.tilted(board, camera, tilt).height_mm for tilt in TILTS]
        assert heights == sorted(heights, reverse=True)


def test_a_tilt_that_sees_the_horizon_is_refused():
    wide = mh.CAMERAS[1]
    with pytest.raises(ValueError, match="horizon"):
        mh.tilted(mh.BOARDS[0], wide, 60.0)


def test_the_script_prints_the_table():
    out = subprocess.run(
        [sys.executable, str(TOOL)], capture_output=True, text=True, check=True
    ).stdout
    lines = out.splitlines()
    assert lines[0].startswith("| board (mm) | camera | straight down")
    assert len(lines) == 2 + len(CASES)
    assert "| A3 420 x 297 | Camera Module 3 | 477 mm |" in out


def test_the_document_carries_the_table():
    out = subprocess.run(
        [sys.executable, str(TOOL)], capture_output=True, text=True, check=True
    ).stdout
    doc = (TOOL.parents[1] / "camera-mount.md").read_text(encoding="utf-8")
    assert out.strip() in doc
