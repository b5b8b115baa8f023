"""`companion vision calibrate|read|show` on pictures the virtual camera took."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from companion.cli import main
from tests.vision.helpers import BLUE, EASY, PLAN_FILE, RED, YELLOW, plan_scene
from vision.calibration import Calibration, calibration_plan
from vision.calibration_file import load_calibration
from vision.geometry import Board
from vision.synth import Scene, render

PLAN = calibration_plan((RED, BLUE, YELLOW))
POSITION = Scene(crystals={"17": (BLUE, YELLOW), "42": (RED,), "diamond-2": (RED,)})


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.toml"))


def picture(board: Board, scene: Scene, path: Path, seed: int) -> Path:
    assert cv2.imwrite(str(path), render(board, scene, EASY, seed).image)
    return path


@pytest.fixture()
def calibration_file(tmp_path: Path, easy_calibration: Calibration) -> Path:
    path = tmp_path / "cal.json"
    easy_calibration.save(path)
    return path


def loaded(path: Path) -> NDArray[np.uint8]:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert image is not None, f"{path} is not a picture"
    return np.asarray(image, np.uint8)


def size_of(path: Path) -> tuple[int, int]:
    image = loaded(path)
    return (image.shape[1], image.shape[0])


def test_calibrating_from_a_picture_saves_the_file_and_an_annotated_view(
    board: Board, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    image = picture(board, plan_scene(PLAN), tmp_path / "setup.png", 41)
    out = tmp_path / "cal.json"
    code = main(
        ["vision", "calibrate", "--colours", "red,blue,yellow", str(image), "--out", str(out)]
    )
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.err == ""
    calibration = load_calibration(out)
    assert [model.name for model in calibration.colours] == [RED, BLUE, YELLOW]
    assert dict(calibration.roles) == {"side-1": RED, "side-2": BLUE, "challenge": YELLOW}
    view = tmp_path / "cal-view.png"
    assert size_of(view) == EASY.size
    assert str(out) in captured.out and str(view) in captured.out
    assert "North is at the top" in captured.out
    assert not (tmp_path / "data").exists()


def test_the_plan_says_where_each_crystal_goes(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["vision", "calibrate", "--colours", "red,blue,yellow", "--show-plan"])
    out = capsys.readouterr().out
    assert code == 0
    (red, blue, yellow) = PLAN.values()
    assert out == (
        f"Lay the board out empty, then put one red crystal on places {red[0]} and {red[1]}; "
        f"one blue crystal on places {blue[0]} and {blue[1]}; "
        f"one yellow crystal on places {yellow[0]} and {yellow[1]}.\n"
    )


LAID = Scene(
    crystals={
        "5": (RED,),
        "60": (RED,),
        "22": (BLUE,),
        "97": (BLUE,),
        "34": (YELLOW,),
        "71": (YELLOW,),
        "diamond-2": (BLUE, YELLOW),
    }
)
"""The board as PLAN_FILE lays it."""


def test_calibrating_to_a_plan_file(
    board: Board, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN_FILE)
    image = picture(board, LAID, tmp_path / "setup.png", 50)
    out = tmp_path / "cal.json"
    arguments = ["--plan", str(plan), str(image), "--out", str(out)]
    code = main(["vision", "calibrate", "--colours", "red,blue,yellow", *arguments])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert [model.name for model in load_calibration(out).colours] == [RED, BLUE, YELLOW]


def test_show_plan_says_where_a_plan_file_puts_the_crystals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN_FILE)
    arguments = ["--colours", "red,blue,yellow", "--plan", str(plan), "--show-plan"]
    assert main(["vision", "calibrate", *arguments]) == 0
    assert capsys.readouterr().out == (
        "Lay the board out empty, then put one red crystal on places 5 and 60; "
        "one blue crystal on places 22 and 97 and diamond-2; "
        "one yellow crystal on places 34 and 71 and diamond-2.\n"
    )


def test_plan_without_a_file_names_the_flag_that_shows_the_plan(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["vision", "calibrate", "--colours", "red,blue,yellow", "--plan"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert "--show-plan" in err


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("[places\n5 = ['red']", id="syntax error"),
        pytest.param('[places]\n5 = ["red"]\n"north" = ["blue"]', id="unknown zone"),
        pytest.param('[places]\n5 = ["red"]\n6 = ["purple"]', id="unknown colour"),
        pytest.param("", id="empty"),
        pytest.param('[places]\n5 = ["red"]\n6 = ["blue"]', id="a colour with no crystal"),
    ],
)
def test_a_bad_plan_file_exits_2_with_one_line(
    board: Board, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(text)
    image = picture(board, LAID, tmp_path / "setup.png", 51)
    arguments = ["--colours", "red,blue,yellow", "--plan", str(plan), str(image)]
    code = main(["vision", "calibrate", *arguments])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert str(plan) in err
    assert not (tmp_path / "data").exists()


def test_calibrating_from_crystals_laid_anywhere_on_an_empty_board(
    board: Board, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laid = Scene(
        crystals={"8": (RED,), "47": (RED,), "19": (BLUE,), "90": (BLUE,), "55": (YELLOW,),
                  "diamond-3": (YELLOW,)}
    )  # fmt: skip
    empty = picture(board, Scene(), tmp_path / "empty.png", 52)
    image = picture(board, laid, tmp_path / "setup.png", 53)
    arguments = ["--anywhere", "--empty", str(empty), str(image)]
    code = main(["vision", "calibrate", "--colours", "red,blue,yellow", *arguments])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert captured.out.startswith(
        "Found red crystals on places 8 and 47; blue crystals on places 19 and 90; "
        "yellow crystals on places 55 and diamond-3.\n"
    )
    assert (tmp_path / "data" / "calibration.json").is_file()


def test_two_colours_laid_for_three_named_are_refused_in_one_line(
    board: Board, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    laid = Scene(
        crystals={"8": (RED,), "47": (RED,), "61": (RED,), "19": (BLUE,), "90": (BLUE,),
                  "33": (BLUE,)}
    )  # fmt: skip
    image = picture(board, laid, tmp_path / "setup.png", 54)
    code = main(["vision", "calibrate", "--colours", "red,blue,yellow", "--anywhere", str(image)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert "two groups of crystals look " in err
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        pytest.param(["--empty", "e.png", "s.png"], "--empty goes with --anywhere", id="empty"),
        pytest.param(["--anywhere", "--plan", "p.toml"], "not both", id="plan and anywhere"),
        pytest.param(
            ["--anywhere", "--colours", "red,white"], "white crystals cannot be found", id="white"
        ),
    ],
)
def test_anywhere_s_arguments_are_checked_first(
    capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    code = main(["vision", "calibrate", "--colours", "red,blue", *arguments])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert message in err


def test_show_plan_with_anywhere_says_what_to_lay(capsys: pytest.CaptureFixture[str]) -> None:
    arguments = ["--colours", "red,blue,yellow", "--anywhere", "--show-plan"]
    assert main(["vision", "calibrate", *arguments]) == 0
    assert capsys.readouterr().out == (
        "Lay the board out empty, then put at least 2 red, blue and yellow crystals each, "
        "anywhere on the places, one a place.\n"
    )


def test_a_calibration_problem_exits_2_and_saves_nothing(
    board: Board, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = PLAN[BLUE][1]
    image = picture(board, plan_scene(PLAN, leave_out=missing), tmp_path / "setup.png", 42)
    code = main(["vision", "calibrate", "--colours", "red,blue,yellow", str(image)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"problem: no blue crystal was seen on place {missing}" in err.splitlines()
    assert "Not saved" in err
    assert not (tmp_path / "data" / "calibration.json").exists()


def test_a_saved_calibration_is_the_default_for_reading(
    board: Board, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    setup = picture(board, plan_scene(PLAN), tmp_path / "setup.png", 43)
    assert main(["vision", "calibrate", "--colours", "red,blue,yellow", str(setup)]) == 0
    assert (tmp_path / "data" / "calibration.json").is_file()
    game = picture(board, POSITION, tmp_path / "game.png", 44)
    capsys.readouterr()
    assert main(["vision", "read", str(game)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{game}: board found, ")
    assert "  crystals: 17 blue+yellow | 42 red | diamond-2 red\n" in out


def test_reading_as_json(
    board: Board, tmp_path: Path, calibration_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = picture(board, POSITION, tmp_path / "game.png", 45)
    code = main(["vision", "read", str(game), "--calibration", str(calibration_file), "--json"])
    assert code == 0
    document = json.loads(capsys.readouterr().out)
    assert document["format"] == "companion-vision-reading"
    assert document["version"] == 1
    (first,) = document["images"]
    assert first["image"] == str(game)
    assert first["found"] is True and first["hands"] is False
    assert first["registration"]["north"] == "top"
    held = {key: zone["crystals"] for key, zone in first["zones"].items() if zone["crystals"]}
    assert held == {"17": [BLUE, YELLOW], "42": [RED], "diamond-2": [RED]}


def test_a_missing_picture_is_one_line_and_the_others_are_still_read(
    board: Board, tmp_path: Path, calibration_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = picture(board, POSITION, tmp_path / "first.png", 46)
    last = picture(board, Scene(), tmp_path / "last.png", 47)
    missing = tmp_path / "missing.png"
    arguments = [str(first), str(missing), str(last), "--calibration", str(calibration_file)]
    code = main(["vision", "read", *arguments, "--json"])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.count("\n") == 1
    assert str(missing) in captured.err
    images = json.loads(captured.out)["images"]
    assert [item["image"] for item in images] == [str(first), str(last)]
    assert images[1]["found"] is True


def test_show_writes_the_annotated_frame(
    board: Board, tmp_path: Path, calibration_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = picture(board, POSITION, tmp_path / "game.png", 48)
    out = tmp_path / "shown.png"
    code = main(
        ["vision", "show", str(game), "--calibration", str(calibration_file), "--out", str(out)]
    )
    assert code == 0, capsys.readouterr().err
    assert size_of(out) == EASY.size
    # The zones, markers and banner are drawn over the frame.
    assert not np.array_equal(loaded(game), loaded(out))


@pytest.mark.parametrize("action", ["read", "show"])
def test_without_a_saved_calibration_the_error_says_how_to_make_one(
    board: Board, tmp_path: Path, capsys: pytest.CaptureFixture[str], action: str
) -> None:
    game = picture(board, Scene(), tmp_path / "game.png", 49)
    extra = ["--out", str(tmp_path / "x.png")] if action == "show" else []
    code = main(["vision", action, str(game), *extra])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1
    assert "no saved calibration" in err
    assert "companion vision calibrate" in err
    assert not (tmp_path / "x.png").exists()


def test_a_file_that_is_not_a_picture_is_one_line(
    tmp_path: Path, calibration_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "notes.png"
    text.write_text("not a picture")
    code = main(["vision", "read", str(text), "--calibration", str(calibration_file)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and str(text) in err


@pytest.mark.parametrize(
    "arguments", [["--help"], ["vision", "--help"], ["vision", "calibrate", "--help"]]
)
def test_help_does_not_load_opencv(arguments: list[str]) -> None:
    script = (
        "import sys\n"
        "from companion.cli import main\n"
        f"code = main({arguments!r})\n"
        "print(code, 'cv2' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.splitlines()[-1] == "0 False"
