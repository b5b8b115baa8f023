"""Setting the camera up from the app, on the virtual camera: preview, plan, calibration."""

from __future__ import annotations

from pathlib import Path

from companion.table.camera_setup import CameraSetup
from vision.calibration_file import load_calibration
from vision.geometry import load_board
from vision.synth import Scene, SyntheticCamera
from vision.synth.conditions import Conditions

COLOURS = ("red", "blue", "yellow")


def camera() -> SyntheticCamera:
    return SyntheticCamera(load_board(), Conditions.easy(), seed=4)


def test_the_preview_finds_the_board_and_draws_it(tmp_path: Path) -> None:
    cam = camera()
    setup = CameraSetup(cam.read, COLOURS, out=tmp_path / "calibration.json")
    picture, status = setup.preview()
    assert status.startswith("board found:") and "markers" in status
    assert picture.shape == cam.read().shape
    assert "one red crystal on places" in setup.instructions


def test_no_board_in_view_is_said_plainly(tmp_path: Path) -> None:
    import numpy as np

    setup = CameraSetup(
        lambda: np.full((720, 1280, 3), 90, np.uint8), COLOURS, out=tmp_path / "c.json"
    )
    _, status = setup.preview()
    assert status == "board not found: are the markers in view?"
    assert CameraSetup(lambda: None, COLOURS, out=tmp_path / "c.json").preview()[1] == (
        "no picture from the camera"
    )


def test_calibrating_an_empty_board_names_what_is_missing_and_saves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "calibration.json"
    outcome = CameraSetup(camera().read, COLOURS, out=out).calibrate()
    assert not outcome.saved and outcome.problems
    assert any("red" in problem for problem in outcome.problems)
    assert not out.exists()


def test_with_the_plans_crystals_laid_the_calibration_is_saved(tmp_path: Path) -> None:
    cam = camera()
    out = tmp_path / "calibration.json"
    setup = CameraSetup(cam.read, COLOURS, out=out)
    cam.set_scene(
        Scene(crystals={str(p): (name,) for name, places in setup.plan.items() for p in places})
    )
    outcome = setup.calibrate()
    assert outcome.saved, outcome.problems
    assert "Calibrated red, blue, yellow" in outcome.summary
    assert [m.name for m in load_calibration(out).colours] == list(COLOURS)
    assert outcome.picture is not None


def test_memwars_calibrates_the_side_colours_chosen_with_the_challenge_pieces() -> None:
    from companion.games.memwars.camera import PROFILE

    assert PROFILE.choices == ("red", "blue", "green", "purple", "orange")
    assert PROFILE.chosen(("green", "red")) == ("red", "green", "yellow")
    assert PROFILE.roles(("red", "blue", "green", "yellow")) == {
        "side-1": "red",
        "side-2": "blue",
        "side-3": "green",
        "challenge": "yellow",
    }


def test_a_third_and_fourth_side_colour_chosen_are_calibrated_and_saved(tmp_path: Path) -> None:
    cam = camera()
    out = tmp_path / "calibration.json"
    setup = CameraSetup.for_game(
        "memwars", cam.read, out=out, colours=("red", "blue", "green", "purple")
    )
    assert "one green crystal on places" in setup.instructions
    cam.set_scene(
        Scene(crystals={str(p): (name,) for name, places in setup.plan.items() for p in places})
    )
    outcome = setup.calibrate()
    assert outcome.saved, outcome.problems
    saved = load_calibration(out)
    assert [m.name for m in saved.colours] == ["red", "blue", "green", "purple", "yellow"]
    assert saved.roles == {
        "side-1": "red",
        "side-2": "blue",
        "side-3": "green",
        "side-4": "purple",
        "challenge": "yellow",
    }


def test_orange_beside_red_and_yellow_is_refused_in_one_line(tmp_path: Path) -> None:
    """Orange is too close in hue to red and to yellow to be told from them under every
    light; and where a challenge piece lies on a red crystal, the edges where they meet read
    as orange."""
    cam = camera()
    out = tmp_path / "calibration.json"
    setup = CameraSetup.for_game("memwars", cam.read, out=out, colours=("red", "blue", "orange"))
    cam.set_scene(
        Scene(crystals={str(p): (name,) for name, places in setup.plan.items() for p in places})
    )
    outcome = setup.calibrate()
    assert not outcome.saved and not out.exists()
    assert (
        "orange lies between red and yellow: where red and yellow crystals lie together, their"
        " edges read as orange; calibrate without orange, or without red or yellow"
    ) in outcome.problems
    close = [p for p in outcome.problems if " are too close in hue " in p]
    assert [p.split(" are ")[0] for p in close] == ["red and orange", "orange and yellow"]
    assert close[1].endswith(
        "under some lights one reads as the other; calibrate without orange or without yellow"
    )
