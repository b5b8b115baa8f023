"""Setting the exposure from the paper at calibration: automatic exposure over a dark table
clips the sheet; metering lowers it until the paper is clear, and holds it there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.table.camera_setup import CameraSetup
from tests.vision.helpers import BLUE, EASY, RED, YELLOW
from vision import sources
from vision.calibrate import calibrate
from vision.calibration import calibration_plan
from vision.calibration_file import load_calibration
from vision.exposure import (
    CLIPPED,
    HIGHEST,
    LOWEST,
    PaperLight,
    meter_exposure,
    next_exposure,
    paper_light,
)
from vision.geometry import Board
from vision.registration import RegistrationTracker
from vision.sources import SyntheticSource
from vision.sources.controls import controls_of
from vision.sources.synthetic import SyntheticControls
from vision.synth.camera import SyntheticCamera

PLAN = calibration_plan((RED, BLUE, YELLOW))
DARK_TABLE = EASY.replace(table="black-cloth", fill=0.6)
"""The sheet a small bright part of a dark picture: automatic exposure brightens it all."""
LIMITS = (1.0, 1000.0)


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.toml"))


def dark_table(board: Board) -> SyntheticSource:
    """The virtual camera on automatic exposure over a dark table, the plan's crystals laid."""
    camera = SyntheticCamera(board, DARK_TABLE, seed=3, auto_exposure=True)
    for name, places in PLAN.items():
        for place in places:
            camera.put(str(place), name)
    return SyntheticSource(camera, sleep=lambda _seconds: None)


def grab(source: SyntheticSource) -> np.ndarray:
    frame = source.read()
    assert frame is not None
    return frame.image


def light_on(board: Board, image: np.ndarray) -> PaperLight:
    fit = RegistrationTracker(board).update(image)
    assert fit is not None
    paper = np.array(board.paper, np.float64).reshape(-1, 1, 2)
    return paper_light(image, np.asarray(cv2.perspectiveTransform(paper, fit.homography), float))


def light(*levels: float) -> PaperLight:
    return PaperLight(np.array(levels, np.float64))


def test_the_paper_light_is_each_points_brightest_channel_within_the_frame() -> None:
    image = np.zeros((20, 30, 3), np.uint8)
    image[:, :15] = (100, 180, 120)
    image[:, 15:] = (255, 255, 255)
    points = np.array([[5.0, 10.0], [25.0, 10.0], [40.0, 10.0], [5.0, -3.0]])
    measured = paper_light(image, points)
    assert measured.levels.tolist() == [180.0, 255.0]  # the last two are off the frame
    assert measured.clipped == 0.5


def test_the_next_exposure_halves_while_clipped_and_aims_for_headroom_after() -> None:
    assert next_exposure(400.0, light(255, 255, 255), LIMITS) == 200.0
    brighter_than_headroom = next_exposure(400.0, light(245, 246, 244), LIMITS)
    assert brighter_than_headroom is not None and brighter_than_headroom < 400.0
    some_glare = next_exposure(400.0, light(*[200.0] * 9, 255), LIMITS)
    assert some_glare is not None and some_glare <= 0.8 * 400.0
    assert next_exposure(400.0, light(LOWEST, HIGHEST - 10, HIGHEST), LIMITS) is None
    dark = next_exposure(400.0, light(90, 95, 100), LIMITS)
    assert dark is not None and dark > 400.0
    assert next_exposure(1.5, light(255, 255), LIMITS) == 1.0  # no lower than the camera goes
    assert next_exposure(400.0, light(), LIMITS) is None  # no paper seen: nothing to go on


def test_the_virtual_cameras_exposure_multiplies_the_light_before_it_clips(
    board: Board,
) -> None:
    camera = SyntheticCamera(board, EASY, seed=3)
    normal = light_on(board, camera.read())
    camera.set_exposure(0.5)
    halved = light_on(board, camera.read())
    camera.set_exposure(3.0)
    tripled = light_on(board, camera.read())
    assert normal.clipped == 0
    assert halved.level == pytest.approx(normal.level * 0.5 ** (1 / 2.2), rel=0.03)
    assert tripled.clipped == 1.0


def test_automatic_exposure_over_a_dark_table_burns_the_paper_out(board: Board) -> None:
    source = dark_table(board)
    frames = [grab(source) for _ in range(3)]
    assert light_on(board, frames[-1]).clipped > 0.5
    result = calibrate(board, frames, PLAN)
    # Its crystals still show their hue and read back right: saved, with a note of why
    # they are read less surely.
    assert result.problems == ()
    assert any("paper is burnt out" in notice for notice in result.notices)
    assert any("lower the camera's exposure" in notice for notice in result.notices)


def test_metering_lowers_the_exposure_until_the_paper_is_clear_and_holds_it(
    board: Board,
) -> None:
    source = dark_table(board)
    camera = source.camera
    assert isinstance(camera, SyntheticCamera)
    grab(source)
    automatic = camera.exposure
    controls = controls_of(source)
    assert isinstance(controls, SyntheticControls)
    metering = meter_exposure(controls, lambda: grab(source), board)
    assert metering is not None and metering.right
    assert not camera.auto_exposure and controls.white_balance_locked
    assert metering.exposure == camera.exposure < automatic / 4
    assert metering.line.startswith(f"Exposure set to {metering.exposure:.3g} ×")
    assert "automatic exposure had" in metering.line
    later = [grab(source) for _ in range(3)]
    assert camera.exposure == metering.exposure  # held: the dark table moves it no more
    paper = light_on(board, later[-1])
    assert paper.clipped == 0 and LOWEST <= paper.level <= HIGHEST < CLIPPED


def test_a_source_that_cannot_set_its_exposure_is_left_as_it_is(board: Board) -> None:
    assert meter_exposure(None, lambda: None, board) is None


def test_the_calibrate_command_sets_the_exposure_before_learning(
    board: Board,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source = dark_table(board)
    monkeypatch.setattr(sources, "open_source", lambda *_args, **_kwargs: source)
    out = tmp_path / "cal.json"
    command = "vision calibrate --colours red,blue,yellow --source synthetic --wait 0 --out"
    code = main([*command.split(), str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    lines = captured.out.splitlines()
    assert sum(line.startswith("Exposure set to ") for line in lines) == 1
    assert [model.name for model in load_calibration(out).colours] == [RED, BLUE, YELLOW]


def test_pictures_with_the_paper_burnt_out_are_calibrated_with_a_note_of_it(
    board: Board, tmp_path: Path
) -> None:
    # Pictures cannot be exposed again: what they show is learnt, and the user told why
    # they read less surely. The command as a user runs it, in a process of its own.
    source = dark_table(board)
    pictures = []
    for number in range(3):
        path = tmp_path / f"shot-{number}.png"
        cv2.imwrite(str(path), grab(source))
        pictures.append(str(path))
    out = tmp_path / "cal.json"
    command = ["vision", "calibrate", "--colours", "red,blue,yellow", "--out", str(out)]
    done = subprocess.run(
        [sys.executable, "-m", "companion", *command, *pictures],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    notes = [line for line in done.stderr.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1  # the same for every picture: said once
    assert "the paper is burnt out" in notes[0]
    assert [model.name for model in load_calibration(out).colours] == [RED, BLUE, YELLOW]


def test_the_apps_calibration_sets_the_exposure_first(board: Board, tmp_path: Path) -> None:
    source = dark_table(board)
    out = tmp_path / "calibration.json"
    setup = CameraSetup(
        lambda: grab(source), (RED, BLUE, YELLOW), out=out, controls=controls_of(source)
    )
    outcome = setup.calibrate()
    assert outcome.saved, outcome.problems
    assert outcome.exposure.startswith("Exposure set to ")
    assert outcome.exposure in outcome.summary


def test_the_mem_boards_set_up_takes_the_cameras_controls_too(board: Board, tmp_path: Path) -> None:
    controls = controls_of(dark_table(board))
    setup = CameraSetup.for_game("mem", lambda: None, tmp_path / "mem.json", controls=controls)
    assert setup.controls is controls and setup.game == "mem"
