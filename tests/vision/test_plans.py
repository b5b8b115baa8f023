"""Plans: the built-in one, plan files, and plans found from crystals laid anywhere."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from companion.errors import UserError
from tests.vision.helpers import (
    BLUE,
    COLOURS,
    EASY,
    PLAN_FILE,
    RED,
    YELLOW,
    assert_reads_right,
    calibrate_from_render,
    game_position,
)
from vision.calibrate import calibrate
from vision.crystal_groups import Spot, hue_groups, plan_from_spots
from vision.geometry import Board, load_board
from vision.hue_names import USUAL_HUES
from vision.plans import (
    Plan,
    alone,
    calibration_plan_for,
    crystals_by_place,
    found_words,
    load_plan,
    parse_plan,
)
from vision.reader import BoardReader
from vision.synth import Scene, render


def scene_of(plan: Plan) -> Scene:
    """The board as the plan lays it: every listed crystal on its place, nothing else."""
    return Scene(crystals=crystals_by_place(plan))


def test_a_plan_file_says_which_crystals_lie_where(board: Board) -> None:
    plan = parse_plan(PLAN_FILE, "plan.toml", board, COLOURS)
    assert plan == {
        RED: (5, 60),
        BLUE: (22, 97, "diamond-2"),
        YELLOW: (34, 71, "diamond-2"),
    }
    assert alone(plan) == {RED: (5, 60), BLUE: (22, 97), YELLOW: (34, 71)}
    assert crystals_by_place(plan)["diamond-2"] == (BLUE, YELLOW)


def test_a_plan_file_calibrates_as_well_as_the_built_in_plan(board: Board) -> None:
    plan = parse_plan(PLAN_FILE, "plan.toml", board, COLOURS)
    frames = [render(board, scene_of(plan), EASY, 61, frame=i).image for i in range(2)]
    from_file = calibrate(board, frames, plan)
    built_in = calibrate_from_render(board, EASY)
    assert from_file.problems == ()
    assert built_in.problems == ()
    assert dict(from_file.found) == alone(plan)
    for ours, theirs in zip(
        from_file.calibration.colours, built_in.calibration.colours, strict=True
    ):
        assert ours.name == theirs.name
        assert abs(ours.hue - theirs.hue) < 0.1
    reader = BoardReader(from_file.calibration, board)
    position = game_position()
    assert_reads_right(board, reader.read(render(board, position, EASY, 62).image), position)


def test_a_crystal_missing_from_a_shared_place_is_reported(board: Board) -> None:
    plan = parse_plan(PLAN_FILE, "plan.toml", board, COLOURS)
    laid = {**crystals_by_place(plan), "diamond-2": (BLUE,)}
    frames = [render(board, Scene(crystals=laid), EASY, 63).image]
    result = calibrate(board, frames, plan)
    assert "place diamond-2 should read blue and yellow but reads blue" in result.problems


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("[places\n17 = ['red']", "not valid TOML", id="syntax error"),
        pytest.param("", "the plan lays no crystals", id="empty"),
        pytest.param("[places]\n", "the plan lays no crystals", id="no places"),
        pytest.param(
            '[places]\n101 = ["red"]', "no place '101' on the MemWars board", id="unknown zone"
        ),
        pytest.param(
            '[places]\n"diamond-9" = ["red"]', "no place 'diamond-9'", id="unknown diamond"
        ),
        pytest.param(
            '[places]\n17 = ["green"]',
            "place 17: 'green' is not one of the colours red, blue, yellow",
            id="unknown colour",
        ),
        pytest.param(
            '[places]\n17 = ["red"]\n18 = ["red"]\n19 = ["blue"]',
            "no yellow crystal in the plan",
            id="a colour left out",
        ),
        pytest.param(
            '[places]\n17 = ["red"]\n18 = ["blue"]\n19 = ["yellow", "red"]',
            "yellow only lies with other crystals",
            id="a colour never alone",
        ),
        pytest.param('[places]\n17 = "red"', "place 17: give a list of colours", id="not a list"),
        pytest.param("[places]\n17 = []", "place 17: no colours listed", id="empty list"),
        pytest.param('[crystals]\n17 = ["red"]', "unknown section 'crystals'", id="bad section"),
    ],
)
def test_a_bad_plan_file_is_one_line_naming_it(
    board: Board, tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "plan.toml"
    path.write_text(text)
    with pytest.raises(UserError) as caught:
        load_plan(path, board, COLOURS)
    assert str(caught.value).startswith(f"{path}: ")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_missing_plan_file_is_named(board: Board, tmp_path: Path) -> None:
    with pytest.raises(UserError, match="no such plan file"):
        load_plan(tmp_path / "nowhere.toml", board, COLOURS)


def test_a_mem_plan_file_names_squares() -> None:
    mem = load_board(Path("vision/boards/mem.toml"))
    plan = parse_plan('[places]\n3 = ["red"]\n28 = ["blue"]', "mem.toml", mem, ["red", "blue"])
    assert plan == {"red": (3,), "blue": (28,)}
    assert calibration_plan_for(mem, ["red", "blue"]) == {"red": (0,), "blue": (31,)}
    two_on_a_square = '[places]\n3 = ["red"]\n28 = ["blue"]\n5 = ["blue", "red"]'
    with pytest.raises(UserError, match="one stone on a square"):
        parse_plan(two_on_a_square, "mem.toml", mem, ["red", "blue"])


def spot(key: str, colour: str, area: float = 1.0, spread: float = 0.05) -> Spot:
    return Spot(key=key, hue=USUAL_HUES[colour], spread=spread, saturation=0.2, area=area)


def test_hues_split_at_their_widest_gaps_even_across_the_wheel() -> None:
    # Two groups meeting where the angle wraps from pi to -pi, and one near 0.
    groups = hue_groups([3.1, 0.05, -3.1, -0.05, 3.0], 2)
    assert sorted(sorted(group) for group in groups) == [[0, 2, 4], [1, 3]]
    assert hue_groups([1.0, 1.1], 1) == [[0, 1]]


def test_spots_are_named_by_the_nearest_usual_hue() -> None:
    spots = [
        spot("40", YELLOW),
        spot("3", RED),
        spot("diamond-1", BLUE),
        spot("77", RED),
        spot("12", BLUE),
        spot("9", YELLOW),
    ]
    plan = plan_from_spots(spots, COLOURS)
    assert plan == {RED: (3, 77), BLUE: (12, "diamond-1"), YELLOW: (9, 40)}
    assert list(plan) == list(COLOURS)
    assert found_words(plan) == (
        "red crystals on places 3 and 77; blue crystals on places 12 and diamond-1; "
        "yellow crystals on places 9 and 40"
    )


def laid(*colours: str) -> list[Spot]:
    """One spot a colour given, on places 1, 2, 3, ..."""
    return [spot(str(number), colour) for number, colour in enumerate(colours, start=1)]


FULL = laid(RED, RED, BLUE, BLUE, YELLOW, YELLOW)


@pytest.mark.parametrize(
    ("spots", "message"),
    [
        pytest.param(
            laid(RED, RED, BLUE, BLUE, RED, BLUE),
            "two groups of crystals look ",
            id="a colour named but not laid",
        ),
        pytest.param(
            laid(RED, RED, BLUE, BLUE, YELLOW, "green"),
            "look like none of red, blue, yellow",
            id="a colour laid but not named",
        ),
        pytest.param(
            laid(RED, RED, BLUE, BLUE, BLUE, YELLOW),
            "only 1 yellow crystal was found (place 6)",
            id="too few of a colour",
        ),
        pytest.param(
            [*FULL[:1], replace(FULL[1], area=2.1), *FULL[2:]],
            "place 2 seems to hold more than one crystal",
            id="two crystals on a place",
        ),
        pytest.param(
            [*FULL[:1], replace(FULL[1], spread=1.2), *FULL[2:]],
            "place 2 seems to hold more than one crystal",
            id="two colours on a place",
        ),
        pytest.param(
            laid(RED, RED, BLUE),
            "crystals were found on 3 places: lay at least 2 of each of the 3 colours",
            id="too few crystals",
        ),
        pytest.param([], "no crystals were found on the board", id="none"),
    ],
)
def test_spots_that_leave_a_doubt_are_refused_in_one_line(spots: list[Spot], message: str) -> None:
    with pytest.raises(UserError) as caught:
        plan_from_spots(spots, COLOURS)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_grey_crystal_is_refused_for_having_no_hue() -> None:
    grey = Spot(key="8", hue=math.pi / 2, spread=0.5, saturation=0.01, area=1.0)
    spots = [spot("1", RED), spot("2", RED), grey]
    with pytest.raises(UserError, match="place 8 holds a crystal with no hue"):
        plan_from_spots(spots, [RED])


def test_colours_without_a_usual_hue_cannot_be_found_anywhere() -> None:
    with pytest.raises(UserError, match="white crystals cannot be found by their hue"):
        plan_from_spots([spot("1", RED)], [RED, "white"])
