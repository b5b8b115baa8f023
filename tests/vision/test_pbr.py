"""The physically based scene source (vision/pbr): a small render is a board the reader's
registration finds, with the places where the truth puts them and a red crystal red; the
same seed renders the same picture; the set builder writes frames, truth and a manifest."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.geometry import Board, load_board
from vision.pbr import Frame, flat_setup, render_frame
from vision.pbr.lens import project
from vision.pbr.world import Table, on_sheet
from vision.registration import RegistrationTracker
from vision.synth.scene import Scene

ROOT = Path(__file__).resolve().parents[2]
SMALL = (480, 270)
SCENE = Scene(crystals={"13": ("red",), "88": ("blue",), "1": ("yellow",)}, counters={"20": (5,)})


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


@pytest.fixture(scope="module")
def frame(board: Board) -> Frame:
    return render_frame(board, SCENE, flat_setup(), seed=3, size=SMALL, spp=4)


def where(board: Board, frame: Frame, points: np.ndarray, above: float = 0.0) -> np.ndarray:
    table = Table.of(board, flat_setup().sheet)
    return project(frame.camera, on_sheet(table, points[:, 0], points[:, 1], above))


def test_the_reader_finds_the_board_and_its_places_where_the_truth_puts_them(
    board: Board, frame: Frame
) -> None:
    fit = RegistrationTracker(board).update(frame.image)
    assert fit is not None
    assert fit.registration.markers_seen >= 12
    assert fit.registration.north == "top"
    centres = np.array([place.centre for place in board.places], np.float64)
    truth = where(board, frame, centres)
    found = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), fit.homography).reshape(-1, 2)
    # Millimetres from pixels by the spacing of places 1 and 2 in the truth's picture.
    per_mm = np.linalg.norm(truth[1] - truth[0]) / math.dist(centres[1], centres[0])
    assert float(np.max(np.linalg.norm(found - truth, axis=1))) / per_mm < 2.0


def test_a_red_crystal_shows_red_on_its_place_and_an_empty_place_shows_paper(
    board: Board, frame: Frame
) -> None:
    def colour(number: int) -> np.ndarray:
        spot = np.array([board.place(number).centre])
        x, y = np.round(where(board, frame, spot, above=2.5)[0]).astype(int)
        patch = frame.image[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).astype(float)
        return np.asarray(patch.mean(axis=0))

    blue, green, red = colour(13)
    assert red > 1.4 * green and red > 1.4 * blue
    b, g, r = colour(50)
    assert max(b, g, r) - min(b, g, r) < 0.15 * max(b, g, r)


def test_the_same_seed_renders_the_same_picture(board: Board) -> None:
    first = render_frame(board, SCENE, flat_setup(), seed=9, size=(160, 90), spp=2)
    again = render_frame(board, SCENE, flat_setup(), seed=9, size=(160, 90), spp=2)
    assert first.jpeg == again.jpeg


@pytest.mark.long
def test_the_builder_writes_frames_truth_and_a_manifest_bench_can_load(tmp_path: Path) -> None:
    command = [
        sys.executable, str(ROOT / "bench" / "scenes.py"), "build", "--set", "validation",
        "--limit", "1", "--size", "160x90", "--spp", "1", "--frames", "1", "--out", str(tmp_path),
    ]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "setup-000" in done.stdout
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["set"] == "validation"
    sys.path.insert(0, str(ROOT))
    from bench.scenes import load_set

    stored = load_set(tmp_path)
    assert len(stored.setups) == 1
    setup = stored.setups[0]
    assert setup.calibration.is_file()
    assert len(setup.frames) == 1
    assert setup.sequences and all(shot.path.is_file() for shot in setup.sequences[0])
    assert any(shot.hand_over_board for shot in setup.sequences[0])
    # Building again renders nothing: every frame is there.
    again = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert "0 rendered" in again.stdout


@pytest.mark.long
def test_samples_come_only_from_set_ups_rendered_whole_and_never_from_validation(
    tmp_path: Path,
) -> None:
    scenes = tmp_path / "scenes"
    build = [
        sys.executable, str(ROOT / "bench" / "scenes.py"), "build", "--set", "training",
        "--limit", "2", "--size", "160x90", "--spp", "1", "--frames", "1", "--out", str(scenes),
    ]  # fmt: skip
    assert subprocess.run(build, cwd=ROOT, capture_output=True, timeout=300).returncode == 0
    (scenes / "setup-001" / "frame-00.json").unlink()
    sys.path.insert(0, str(ROOT))
    from bench.scenes import load_set

    with pytest.raises(OSError):
        load_set(scenes)
    assert [s.name for s in load_set(scenes, whole=False).setups] == ["setup-000"]
    samples = [sys.executable, str(ROOT / "bench" / "scenes.py"), "samples"]
    out = tmp_path / "samples"
    done = subprocess.run(
        [*samples, "--dir", str(scenes), str(out)], cwd=ROOT, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # A board 160 pixels wide is too small to calibrate on: said, and nothing written.
    assert done.stdout.startswith("setup-000: refused")
    assert "setup-001" not in done.stdout
    assert not list(out.glob("*.npz"))
    refused = subprocess.run(
        [*samples, "--set", "validation", str(out)], cwd=ROOT, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert refused.returncode == 2
    assert "never trained on" in refused.stdout
