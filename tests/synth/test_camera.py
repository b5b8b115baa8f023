from __future__ import annotations

import math

import numpy as np
import pytest

from vision.geometry import Board, load_board
from vision.synth import Conditions, Scene, SyntheticCamera, random_conditions
from vision.synth.arrangement import current_offsets


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


def test_put_and_take_change_the_scene(board: Board) -> None:
    camera = SyntheticCamera(board, Conditions.easy(), seed=1)
    camera.put("17", "red")
    camera.put("17", "blue")
    camera.put("diamond-3", "yellow")
    assert camera.scene.crystals == {"17": ("red", "blue"), "diamond-3": ("yellow",)}
    assert camera.take("17", "red") == "red"
    assert camera.scene.crystals["17"] == ("blue",)
    assert camera.take("diamond-3") == "yellow"
    assert "diamond-3" not in camera.scene.crystals
    with pytest.raises(ValueError):
        camera.take("17", "green")
    with pytest.raises(ValueError):
        camera.put("101", "red")


def test_crystals_already_down_stay_put(board: Board) -> None:
    camera = SyntheticCamera(board, Conditions.easy(), seed=2)
    camera.put("40", "red")
    before = current_offsets(board, camera.scene, camera.seed, "40")
    camera.put("40", "blue")
    camera.put("40", "yellow")
    after = current_offsets(board, camera.scene, camera.seed, "40")
    assert after[0] == before[0]
    diameter = board.crystal_diameter
    for i, a in enumerate(after):
        assert math.hypot(*a) < board.zone_radius + 0.5 * diameter
        for b in after[i + 1 :]:
            assert math.dist(a, b) > 0.9 * diameter
    camera.take("40", "blue")
    assert current_offsets(board, camera.scene, camera.seed, "40") == [after[0], after[2]]


def test_frames_of_a_still_scene_differ_only_by_noise(board: Board) -> None:
    camera = SyntheticCamera(board, Conditions.easy(), seed=3)
    camera.put("5", "red")
    first, second = camera.read(), camera.read()
    assert not np.array_equal(first, second)
    assert np.abs(first.astype(int) - second.astype(int)).mean() < 4.0


def test_a_camera_is_deterministic_from_its_seed(board: Board) -> None:
    conditions = random_conditions(np.random.default_rng(4))
    frames = []
    for _ in range(2):
        camera = SyntheticCamera(board, conditions, seed=9)
        camera.put("12", "blue")
        camera.read()
        frames.append(camera.grab())
    assert frames[0].jpeg == frames[1].jpeg
    assert frames[0].index == 1 and frames[0].t_ns == round(1e9 / camera.fps)


def test_a_hand_puts_a_crystal_down_and_leaves(board: Board) -> None:
    camera = SyntheticCamera(board, Conditions.easy(), seed=5)
    camera.put("60", "red")
    frames = list(camera.sequence_hand_over("60", put="blue"))
    assert 15 <= len(frames) <= 45
    covered = [f.hand_over_board for f in frames]
    assert not covered[0] and not covered[-1]
    assert any(covered)
    # The truth changes once, while the hand is there.
    contents = [f.scene.crystals.get("60") for f in frames]
    assert contents[0] == ("red",) and contents[-1] == ("red", "blue")
    change = next(i for i, c in enumerate(contents) if c == ("red", "blue"))
    assert all(c == ("red",) for c in contents[:change])
    assert all(c == ("red", "blue") for c in contents[change:])
    assert frames[change].hand_over_board
    assert camera.scene.crystals["60"] == ("red", "blue")
    assert not camera.scene.hands
    # Until it lets go the hand carries the crystal; afterwards its fingers are empty.
    assert frames[change - 1].scene.hands[0].holding == "blue"
    assert frames[change].scene.hands[0].holding is None


def test_a_hand_picks_a_crystal_up(board: Board) -> None:
    camera = SyntheticCamera(board, Conditions.easy(), seed=6)
    camera.set_scene(Scene(crystals={"diamond-1": ("red", "yellow")}))
    frames = list(camera.sequence_hand_over("diamond-1", take="yellow", angle=270.0))
    assert frames[0].scene.crystals["diamond-1"] == ("red", "yellow")
    assert frames[-1].scene.crystals["diamond-1"] == ("red",)
    assert any(f.scene.hands and f.scene.hands[0].holding == "yellow" for f in frames)
    with pytest.raises(ValueError):
        camera.sequence_hand_over("diamond-1", take="yellow")


def test_sequences_are_deterministic(board: Board) -> None:
    runs = []
    for _ in range(2):
        camera = SyntheticCamera(board, Conditions.easy(), seed=7)
        runs.append([(f.hand_over_board, f.scene) for f in camera.sequence_hand_over("3", "red")])
    assert runs[0] == runs[1]
