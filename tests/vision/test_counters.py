"""Reading topology counters from a finely sampled patch: the pips of a 2, 3 or 5, the ring
of the face-down side, under blur and any turn; and on a rendered board."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.helpers import BLUE, EASY, RED
from vision.calibration import Calibration
from vision.colours import BACKGROUND, BLACK, FIRST_COLOUR
from vision.counter_art import draw_counter
from vision.counters import read_counters
from vision.geometry import Board
from vision.reader import COUNTER_PX_PER_MM, BoardReader
from vision.synth import Hand, Scene, render

SIDE_MM = 11.0
TILE = SIDE_MM * COUNTER_PX_PER_MM


def patch_with(value: int | None, turn: float, blur: float) -> np.ndarray:
    """A patch of paper (brightness 1) with one counter in the middle, turned and blurred
    as a camera would see it, sampled at the reader's fine resolution."""
    art = draw_counter(value, 8 * COUNTER_PX_PER_MM, SIDE_MM)
    tile = cv2.resize(art, None, fx=1 / 8, fy=1 / 8, interpolation=cv2.INTER_AREA)
    size = int(TILE * 1.6)
    paper = np.full((size, size, 3), 255, np.uint8)
    start = (size - tile.shape[0]) // 2
    paper[start : start + tile.shape[0], start : start + tile.shape[1]] = tile
    turned = cv2.warpAffine(
        paper,
        cv2.getRotationMatrix2D((size / 2, size / 2), turn, 1.0),
        (size, size),
        borderValue=(255, 255, 255),
    )
    if blur:
        turned = cv2.GaussianBlur(turned, (0, 0), blur)
    return np.asarray(turned.mean(axis=-1) / 255.0, np.float64)


def classes_of(brightness: np.ndarray) -> np.ndarray:
    return np.where(brightness < 0.22, BLACK, BACKGROUND).astype(np.uint8)


@pytest.mark.parametrize("value", [2, 3, 5, None])
@pytest.mark.parametrize("turn", [0.0, 17.0, 45.0, 90.0])
@pytest.mark.parametrize("blur", [0.0, 1.2, 2.0])
def test_every_face_is_read_turned_and_blurred(value: int | None, turn: float, blur: float) -> None:
    brightness = patch_with(value, turn, blur)
    assert read_counters(classes_of(brightness), brightness, TILE) == (value,)


def test_a_crystal_on_a_counter_makes_it_unreadable_not_another_value() -> None:
    brightness = patch_with(5, 10.0, 1.0)
    classes = classes_of(brightness)
    middle = len(classes) // 2
    classes[middle - 8 : middle + 8, middle - 8 : middle + 8] = FIRST_COLOUR
    assert read_counters(classes, brightness, TILE) == (0,)


def test_bare_paper_holds_no_counter() -> None:
    brightness = np.full((50, 50), 0.95)
    assert read_counters(classes_of(brightness), brightness, TILE) == ()


def test_free_counters_on_a_rendered_board_are_read_exactly(
    board: Board, easy_calibration: Calibration
) -> None:
    counters: dict[str, tuple[int | None, ...]] = {
        "12": (5,), "20": (3,), "44": (2,), "60": (None,), "77": (None,), "90": (3,)
    }  # fmt: skip
    scene = Scene(crystals={"8": (RED,), "70": (BLUE,)}, counters=counters)
    reading = BoardReader(easy_calibration, board).read(render(board, scene, EASY, 21).image)
    assert {key: reading.zones[key].counters for key in counters} == counters


def test_a_counter_turned_under_a_hand_is_read_again_once_the_hand_has_gone(
    board: Board, easy_calibration: Calibration
) -> None:
    reader = BoardReader(easy_calibration, board)
    face_down = Scene(counters={"44": (None,)})
    for frame in range(3):
        assert reader.read(render(board, face_down, EASY, 5, frame=frame).image).zones[
            "44"
        ].counters == (None,)
    # A hand over the board turns it; the tile's black barely changes, yet it is read anew.
    turned = Scene(counters={"44": (5,)})
    hand = Scene(counters={"44": (5,)}, hands=(Hand(tip=(300.0, 150.0), angle=80.0),))
    assert reader.read(render(board, hand, EASY, 5, frame=3).image).hands
    seen = [
        reader.read(render(board, turned, EASY, 5, frame=frame).image).zones["44"].counters
        for frame in range(4, 7)
    ]
    assert seen[-1] == (5,)
