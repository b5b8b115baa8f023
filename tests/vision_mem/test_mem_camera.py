"""The camera on the MeM board: calibrating with one stone of each of the eleven colours on
the plan's squares, then reading dealt positions (companion.games.mem's deal, some stones
taken), empty squares, a hand over the board, and a light under which two colours cannot
be told apart.

The reader describes each stone whole (its lightness and its colour against the bare
square, vision/stones.py), so white, grey and black are read like the rest. A stone whose
colour lies between two calibrated colours reads as unsure, never as a guess.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.vision.helpers import misread
from tests.vision_mem.helpers import (
    EASY,
    MILD,
    calibrate_mem,
    mem_board,
    mem_calibration,
    mem_position,
)
from vision.calibration_file import load_calibration
from vision.reader import BoardReader
from vision.stone_calibration import StoneCalibration
from vision.synth import Conditions, Glare, Hand, Scene, render
from vision.synth.palette import MEM_STONES, PALETTE, Pigment
from vision.temporal import FilterState, step

CONDITIONS = pytest.mark.parametrize("conditions", [EASY, MILD], ids=["easy", "mild"])


def test_the_palette_has_every_mem_stone() -> None:
    from companion.games.mem.colours import COLOURS
    from vision.synth import PALETTE

    assert tuple(colour.name for colour in COLOURS) == MEM_STONES
    assert set(MEM_STONES) <= set(PALETTE)


@CONDITIONS
def test_the_eleven_colours_calibrate_from_one_stone_each(conditions: Conditions) -> None:
    result = calibrate_mem(mem_board(), conditions)
    assert result.problems == ()
    assert [m.name for m in result.calibration.colours] == list(MEM_STONES)
    assert all(len(places) == 1 for places in result.found.values())
    assert isinstance(result.calibration, StoneCalibration)
    assert result.calibration.board_file.endswith("mem.toml")


@CONDITIONS
@pytest.mark.parametrize(("seed", "taken"), [(5, 0), (7, 0), (8, 0), (3, 5), (11, 5)])
def test_a_dealt_position_is_read_exactly(conditions: Conditions, seed: int, taken: int) -> None:
    board = mem_board()
    scene = mem_position(seed, taken)
    assert len(scene.crystals) == 32 - taken
    reader = BoardReader(mem_calibration(conditions), board)
    reading = reader.read(render(board, scene, conditions, seed).image)
    assert not reading.hands
    assert misread(board, reading, scene) == []
    assert all(zone.confidence >= 0.6 for zone in reading.zones.values())


@CONDITIONS
def test_a_stone_between_two_colours_is_unsure_never_a_wrong_colour(
    conditions: Conditions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stone halfway between blue and purple reads as unsure, as neither; and over twelve
    deals no square ever names a wrong colour."""
    board = mem_board()
    reader = BoardReader(mem_calibration(conditions), board)
    blue, purple = PALETTE["blue"].reflectance, PALETTE["purple"].reflectance
    halfway = tuple((a + b) / 2 for a, b in zip(blue, purple, strict=True))
    monkeypatch.setitem(
        PALETTE, "blue-purple", Pigment((halfway[0], halfway[1], halfway[2]), 0.8, 0.0)
    )
    for seed in (1, 2):
        zone = reader.read(
            render(board, Scene(crystals={"0": ("blue-purple",)}), conditions, seed).image
        ).zones["0"]
        assert zone.crystals == () and zone.confidence < 0.6, zone

    unsure = 0
    for seed in range(1, 13):
        scene = mem_position(seed, 0)
        reader.forget_contents()
        reading = reader.read(render(board, scene, conditions, seed).image)
        for key, zone in reading.zones.items():
            if zone.crystals != scene.crystals[key]:
                assert zone.crystals == () and (zone.confidence < 0.6 or zone.occluded), key
                unsure += 1
    assert unsure <= 24


@CONDITIONS
def test_an_empty_board_reads_empty(conditions: Conditions) -> None:
    board = mem_board()
    reading = BoardReader(mem_calibration(conditions), board).read(
        render(board, Scene(), conditions, 9).image
    )
    assert not reading.hands
    assert reading.crystals() == {}
    assert all(not z.occluded and z.confidence >= 0.6 for z in reading.zones.values())


def test_a_hand_over_the_board_commits_nothing() -> None:
    board = mem_board()
    scene = mem_position(5, 6)
    reader = BoardReader(mem_calibration(EASY), board)
    committed = {key: tuple(v) for key, v in scene.crystals.items()}
    state = FilterState.start(committed)
    hand = Hand(tip=(190.0, 128.5), angle=80.0, holding="white")
    for frame in range(6):
        shot = render(board, Scene(crystals=scene.crystals, hands=(hand,)), EASY, 5, frame)
        reading = reader.read(shot.image, t_ns=frame * 70_000_000)
        assert reading.hands
        state, observation = step(state, reading)
        assert observation is None
    assert dict(state.committed) == committed


def test_glare_over_a_calibration_stone_is_reported_and_its_colours_are_not_guessed() -> None:
    """Glare adds light over the black stone's square: what is left after taking it away
    cannot part black from grey (nor, stronger, from white). Calibration says so, and the
    reader then reads neither colour."""
    board = mem_board()
    glare = EASY.replace(glare=Glare(centre=(270.0, 248.5), radius=50.0, strength=0.3))
    result = calibrate_mem(board, glare)
    assert any(
        p.startswith("black and grey look alike under this light") for p in result.problems
    ), result.problems
    scene = mem_position(5, 0)
    reading = BoardReader(result.calibration, board).read(render(board, scene, glare, 5).image)
    for key, zone in reading.zones.items():
        assert "black" not in zone.crystals and "grey" not in zone.crystals, key
        if scene.crystals[key][0] in ("black", "grey"):
            assert zone.confidence < 0.6 or zone.occluded


def test_a_stone_calibration_saves_and_loads(tmp_path: Path) -> None:
    calibration = mem_calibration(EASY)
    assert isinstance(calibration, StoneCalibration)
    path = tmp_path / "mem.json"
    calibration.save(path)
    loaded = load_calibration(path)
    assert isinstance(loaded, StoneCalibration)
    assert [s.name for s in loaded.stones] == list(MEM_STONES)
    for saved, stone in zip(loaded.stones, calibration.stones, strict=True):
        assert saved.vector() == pytest.approx(stone.vector(), abs=1e-3)
    assert loaded.bare is not None and calibration.bare is not None
    assert loaded.bare.lightness == pytest.approx(calibration.bare.lightness, abs=0.26)
    board = mem_board()
    scene = mem_position(7, 0)
    reading = BoardReader(loaded).read(render(board, scene, EASY, 7).image)
    assert misread(board, reading, scene) == []
