"""The camera on the MeM board: calibrating with one stone a colour on the plan's squares,
then reading dealt positions (companion.games.mem's deal, some stones taken).

The reader tells colours by hue. What that gives on MeM's eleven colours:
- white, grey and black have no hue: calibration reports them (white and grey look like
  the paper, black like the print), and the reader never takes them for another colour;
- red, orange, brown and pink lie close together in hue: from one stone a colour the
  reader may take one of them for another, and calibration cannot see it (each stone is
  one individual); with two stones a colour, calibration reports the pairs it confuses;
- blue, green, yellow and purple are read exactly, and red too when orange, brown and pink
  are not in play.
"""

from __future__ import annotations

import pytest

from tests.vision.helpers import misread
from tests.vision_mem.helpers import (
    ACHROMATIC,
    CALIBRATION_SEED,
    CHROMATIC,
    EASY,
    MILD,
    calibrate_mem,
    mem_board,
    mem_position,
)
from vision.calibrate import calibrate
from vision.calibration import Calibration
from vision.reader import BoardReader
from vision.synth import Conditions, Scene, render
from vision.synth.palette import MEM_STONES

DISTINCT = ("red", "blue", "green", "yellow", "purple")
"""MeM colours far apart in hue."""
WARM_HUES = ("red", "orange", "brown", "pink")
"""MeM colours close together in hue."""


def test_the_palette_has_every_mem_stone() -> None:
    from companion.games.mem.colours import COLOURS
    from vision.synth import PALETTE

    assert tuple(colour.name for colour in COLOURS) == MEM_STONES
    assert set(MEM_STONES) <= set(PALETTE)


def test_calibrating_the_eleven_colours_names_the_ones_without_hue() -> None:
    result = calibrate_mem(mem_board(), EASY, MEM_STONES)
    problems = result.problems
    assert problems
    for name in ("white", "grey"):
        assert (
            f"{name} cannot be told from the bare board: none of its crystals reads as"
            f" {name} (white, clear and grey crystals look like the paper)" in problems
        )
    assert any(p.startswith("black ") or "black and" in p for p in problems), problems
    for problem in problems:
        assert any(name in problem for name in ACHROMATIC), problem
    assert set(result.found) == set(MEM_STONES)
    assert "white" not in {m.name for m in result.calibration.colours if result.found["white"]}


@pytest.mark.parametrize("conditions", [EASY, MILD], ids=["easy", "mild"])
def test_the_eight_colours_with_hue_calibrate_from_one_stone_each(conditions: Conditions) -> None:
    result = calibrate_mem(mem_board(), conditions, CHROMATIC)
    assert result.problems == ()
    assert [m.name for m in result.calibration.colours] == list(CHROMATIC)
    assert result.calibration.board_file.endswith("mem.toml")


@pytest.fixture(scope="module", params=[EASY, MILD], ids=["easy", "mild"])
def distinct(request: pytest.FixtureRequest) -> tuple[Conditions, Calibration]:
    result = calibrate_mem(mem_board(), request.param, DISTINCT)
    assert result.problems == ()
    return request.param, result.calibration


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_dealt_position_in_distinct_colours_is_read_exactly(
    distinct: tuple[Conditions, Calibration], seed: int
) -> None:
    conditions, calibration = distinct
    board = mem_board()
    scene = mem_position(seed, 3, DISTINCT)
    assert len(scene.crystals) >= 4
    reading = BoardReader(calibration, board).read(render(board, scene, conditions, seed).image)
    assert not reading.hands
    assert misread(board, reading, scene) == []


@pytest.mark.parametrize("conditions", [EASY, MILD], ids=["easy", "mild"])
def test_a_full_deal_is_read_without_inventing_colours(conditions: Conditions) -> None:
    """All 32 stones but 5: blue, green, yellow and purple exactly; red, orange, brown and
    pink as one of those four; the stones without hue as nothing (never as a colour)."""
    board = mem_board()
    calibration = calibrate_mem(board, conditions, CHROMATIC).calibration
    for seed in (5, 6):
        scene = mem_position(seed, 5)
        reading = BoardReader(calibration, board).read(render(board, scene, conditions, seed).image)
        for place in board.places:
            key = str(place.number)
            truth = scene.crystals.get(key, ())
            seen = reading.zones[key].crystals
            if not truth or truth[0] not in (*WARM_HUES, *ACHROMATIC):
                assert seen == truth, (seed, key, truth, seen)
            elif truth[0] in ACHROMATIC:
                assert seen == (), (seed, key, truth, seen)
            else:
                assert seen and set(seen) <= set(WARM_HUES), (seed, key, truth, seen)


def test_with_two_stones_a_colour_calibration_reports_the_warm_hues_it_confuses() -> None:
    """Where the box holds two stones of a colour, calibrating from both shows how much the
    stones differ; orange and brown then overlap under a warmer, uneven light."""
    board = mem_board()
    colours = ("red", "blue", "green", "yellow", "orange", "purple", "brown")
    squares = (0, 31, 3, 28, 4, 27, 9, 22, 12, 19, 14, 17, 1, 30)
    plan = {name: (squares[2 * i], squares[2 * i + 1]) for i, name in enumerate(colours)}
    scene = Scene(crystals={str(p): (name,) for name, places in plan.items() for p in places})
    frames = [render(board, scene, MILD, CALIBRATION_SEED, frame=i).image for i in (0, 1)]
    problems = calibrate(board, frames, plan).problems
    assert any("orange and brown look alike" in p or "brown and orange look alike" in p
               for p in problems), problems  # fmt: skip
