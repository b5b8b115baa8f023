"""Calibration: the plan, learning the colours from frames, the checks a user reads, the
saved file, and crystals laid anywhere."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from companion.errors import UserError
from tests.vision.helpers import (
    COLOURS,
    EASY,
    RED,
    ROLES,
    YELLOW,
    assert_reads_right,
    calibrate_from_render,
)
from vision.anywhere import find_plan
from vision.calibrate import calibrate
from vision.calibration import calibration_plan
from vision.calibration_file import load_calibration
from vision.geometry import Board
from vision.plans import crystals_by_place
from vision.reader import BoardReader
from vision.synth import PALETTE, Pigment, Scene, render


def test_the_plan_names_two_distinct_places_for_each_colour() -> None:
    plan = calibration_plan(COLOURS)
    assert list(plan) == list(COLOURS)
    places = [place for pair in plan.values() for place in pair]
    assert len(places) == 6
    assert len(set(places)) == 6
    assert all(1 <= place <= 100 for place in places)


@pytest.mark.parametrize(
    ("colours", "message"),
    [
        pytest.param((), "name at least one crystal colour", id="none"),
        pytest.param(("red", "red"), "each crystal colour may be named once", id="twice"),
        pytest.param(tuple(f"c{i}" for i in range(9)), "at most 8 crystal colours", id="nine"),
        pytest.param(("red", "light blue"), "is not a colour name", id="a space"),
    ],
)
def test_a_plan_refuses_colours_it_cannot_place(colours: tuple[str, ...], message: str) -> None:
    with pytest.raises(UserError, match=message):
        calibration_plan(colours)


def test_an_easy_frame_calibrates_without_problems_and_survives_saving(
    board: Board, tmp_path: Path
) -> None:
    result = calibrate_from_render(board, EASY)
    assert result.problems == ()
    plan = calibration_plan(COLOURS)
    assert dict(result.found) == plan
    calibration = result.calibration
    assert [model.name for model in calibration.colours] == list(COLOURS)
    assert dict(calibration.roles) == ROLES
    assert calibration.north == "top"
    assert calibration.image_size == EASY.size
    path = tmp_path / "calibration.json"
    calibration.save(path)
    assert load_calibration(path) == calibration
    assert json.loads(path.read_text())["format"] == "companion-vision-calibration"


def test_colours_that_look_alike_are_reported(
    board: Board, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A second red, a shade darker: no camera can keep the two apart.
    red = PALETTE["red"].reflectance
    crimson = Pigment((red[0] * 0.96, red[1] * 1.15, red[2] * 1.15), PALETTE["red"].gloss)
    monkeypatch.setitem(PALETTE, "crimson", crimson)
    result = calibrate_from_render(board, EASY, colours=("red", "crimson", "blue"))
    alike = [p for p in result.problems if "look alike" in p]
    assert alike, result.problems
    for problem in alike:
        assert problem.startswith(("red and crimson look alike", "crimson and red look alike"))


def test_a_crystal_missing_from_its_place_is_reported(board: Board) -> None:
    plan = calibration_plan(COLOURS)
    missing = plan["blue"][1]
    result = calibrate_from_render(board, EASY, leave_out=missing)
    assert f"no blue crystal was seen on place {missing}" in result.problems
    assert result.found["blue"] == (plan["blue"][0],)


@pytest.mark.parametrize(
    ("colours", "words"),
    [
        pytest.param(
            ("red", "blue", "white"),
            "white cannot be told from the bare board",
            id="white last",
        ),
        # The zone network sees one white crystal as a faint smudge: calibration refuses
        # all the same, naming the white crystal it cannot find.
        pytest.param(
            ("white", "red", "blue"), "place 88 should read white but reads empty", id="white first"
        ),
    ],
)
def test_a_white_crystal_cannot_be_told_from_the_bare_board(
    board: Board, colours: tuple[str, ...], words: str
) -> None:
    result = calibrate_from_render(board, EASY, colours=colours)
    assert any(words in p for p in result.problems), result.problems


def a_calibration_file() -> dict[str, Any]:
    return {
        "format": "companion-vision-calibration",
        "version": 1,
        "created": "2025-01-01T00:00:00+00:00",
        "board_file": "",
        "north": "top",
        "image_size": [1280, 720],
        "roles": {"side-1": "red"},
        "colours": [
            {
                "name": "red",
                "hue": 0.1,
                "hue_spread": 0.2,
                "saturation": 0.4,
                "brightness": -1.0,
                "area": 120.0,
            }
        ],
    }


def without(data: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != key}


def with_colour(**changes: Any) -> dict[str, Any]:
    data = a_calibration_file()
    data["colours"] = [{**data["colours"][0], **changes}]
    return data


def encoded(data: Any) -> bytes:
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(b"{not json", id="not JSON"),
        pytest.param(b"\xff\xfe\x00", id="not text"),
        pytest.param(encoded([1, 2, 3]), id="a list"),
        pytest.param(encoded({**a_calibration_file(), "format": "other"}), id="wrong format"),
        pytest.param(encoded({**a_calibration_file(), "version": 9}), id="wrong version"),
        pytest.param(encoded(without(a_calibration_file(), "colours")), id="no colours"),
        pytest.param(encoded(without(a_calibration_file(), "image_size")), id="no image size"),
        pytest.param(encoded({**a_calibration_file(), "colours": []}), id="empty colours"),
        pytest.param(encoded({**a_calibration_file(), "colours": ["red"]}), id="colour a word"),
        pytest.param(encoded(with_colour(hue="red")), id="hue not a number"),
        pytest.param(encoded(with_colour(area=0)), id="zero area"),
        pytest.param(encoded(with_colour(hue_spread=-1)), id="negative spread"),
        pytest.param(encoded({**a_calibration_file(), "image_size": [1280]}), id="half a size"),
    ],
)
def test_a_bad_calibration_file_is_one_error_naming_it(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "cal.json"
    path.write_bytes(content)
    with pytest.raises(UserError) as caught:
        load_calibration(path)
    assert caught.value.where == str(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert "\n" not in str(caught.value)


def test_the_sample_calibration_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(a_calibration_file()))
    calibration = load_calibration(path)
    assert calibration.colour("red").area == 120.0
    assert calibration.roles == {"side-1": "red"}


def test_a_missing_calibration_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no such calibration file") as caught:
        load_calibration(tmp_path / "nowhere.json")
    assert caught.value.where == str(tmp_path / "nowhere.json")


def anywhere(seed: int, per_colour: int = 3) -> Scene:
    """Crystals of the three colours on random places, one a place: as a user lays them."""
    rng = np.random.default_rng(seed)
    keys = [str(n) for n in range(1, 101)] + [f"diamond-{q}" for q in range(1, 5)]
    chosen = rng.choice(len(keys), size=per_colour * len(COLOURS), replace=False)
    return Scene(crystals={keys[k]: (COLOURS[i % len(COLOURS)],) for i, k in enumerate(chosen)})


def random_position(seed: int) -> Scene:
    """A random position: a third of the places held by one or two crystals of different
    colours (the game never puts two of one colour on a place)."""
    rng = np.random.default_rng(seed)
    crystals: dict[str, tuple[str, ...]] = {}
    for place in rng.choice(100, size=33, replace=False) + 1:
        count = int(rng.integers(1, 3))
        crystals[str(place)] = tuple(sorted(str(c) for c in rng.choice(COLOURS, count, False)))
    return Scene(crystals=crystals)


def frames_of(board: Board, scene: Scene, seed: int) -> list[NDArray[np.uint8]]:
    return [render(board, scene, EASY, seed, frame=i).image for i in range(2)]


@pytest.mark.parametrize("seed", [3, 8])
def test_crystals_laid_anywhere_are_found_and_calibrate(board: Board, seed: int) -> None:
    laid = anywhere(seed)
    plan = find_plan(board, frames_of(board, laid, seed), COLOURS)
    assert crystals_by_place(plan) == laid.crystals
    result = calibrate(board, frames_of(board, laid, seed), plan, roles=ROLES)
    assert result.problems == ()
    assert [model.name for model in result.calibration.colours] == list(COLOURS)
    position = random_position(seed)
    reader = BoardReader(result.calibration, board)
    assert_reads_right(board, reader.read(render(board, position, EASY, seed + 1).image), position)


def test_crystals_laid_anywhere_on_an_empty_board_s_picture_calibrate(board: Board) -> None:
    laid = anywhere(21, per_colour=2)
    empty = render(board, Scene(), EASY, 22).image
    frames = frames_of(board, laid, 23)
    plan = find_plan(board, frames, COLOURS, empty=empty)
    assert crystals_by_place(plan) == laid.crystals
    result = calibrate(board, frames, plan, roles=ROLES)
    assert result.problems == ()


def test_a_pale_crystal_found_against_the_empty_board_is_refused(board: Board) -> None:
    laid = anywhere(24, per_colour=2)
    pale = Scene(crystals={**laid.crystals, "50": ("white",)})
    empty = render(board, Scene(), EASY, 25).image
    with pytest.raises(UserError, match="place 50 holds a crystal with no hue") as caught:
        find_plan(board, frames_of(board, pale, 26), COLOURS, empty=empty)
    assert "\n" not in str(caught.value)


def test_two_groups_of_one_hue_are_refused(board: Board, monkeypatch: pytest.MonkeyPatch) -> None:
    # A second red where yellow should be: three groups, two of them red.
    red = PALETTE["red"].reflectance
    crimson = Pigment((red[0] * 0.96, red[1] * 1.15, red[2] * 1.15), PALETTE["red"].gloss)
    monkeypatch.setitem(PALETTE, "crimson", crimson)
    laid = anywhere(27)
    crimsoned = {
        k: tuple("crimson" if c == YELLOW else c for c in v) for k, v in laid.crystals.items()
    }
    with pytest.raises(UserError, match="two groups of crystals look ") as caught:
        find_plan(board, frames_of(board, Scene(crystals=crimsoned), 28), COLOURS)
    assert "and none looks yellow" in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_place_with_two_crystals_is_refused(board: Board) -> None:
    laid = anywhere(29, per_colour=2)
    crowded = Scene(crystals={**laid.crystals, "50": (RED, YELLOW)})
    with pytest.raises(UserError, match="place 50 seems to hold more than one crystal"):
        find_plan(board, frames_of(board, crowded, 30), COLOURS)
