"""A printed sheet that does not lie flat (bowed, a corner curled, folded and flattened out):
the registration follows it, places are read where they are, and nothing is taken for a
hand unless a hand is there, with the reason said."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.helpers import (
    EASY,
    assert_reads_right,
    calibration_under,
    game_position,
)
from vision.annotate import annotate_read, banner_lines
from vision.calibration import Calibration
from vision.geometry import Board
from vision.reader import BoardReader
from vision.reading import BoardReading, Edge, HandSign
from vision.synth import Conditions, SyntheticCamera, render
from vision.synth.conditions import Axis, Bow, Corner, CurledCorner, Fold, PaperShape

CAMERA = EASY.replace(tilt=30.0)
"""A camera on a stand at the South side, looking down at 30 degrees."""
BOWED = PaperShape(bow=Bow(5.0, Axis.X))
TROUGH = PaperShape(bow=Bow(-4.0, Axis.Y))
CURLED = PaperShape(corner=CurledCorner(Corner.NORTH_WEST, 10.0, 90.0))
FOLDED = PaperShape(folds=(Fold(Axis.X, 0.5, 3.0), Fold(Axis.Y, 0.5, 2.0)))
SHAPES = [
    pytest.param(BOWED, id="bowed"),
    pytest.param(TROUGH, id="edges lifted"),
    pytest.param(CURLED, id="corner curled"),
    pytest.param(FOLDED, id="folded in four"),
]
POSITION = game_position()


@pytest.fixture(scope="module")
def calibration() -> Calibration:
    """Calibrated with the sheet lying flat: it bent afterwards."""
    return calibration_under(CAMERA)


def shaped(shape: PaperShape) -> Conditions:
    return CAMERA.replace(paper_shape=shape)


def still_readings(
    board: Board, calibration: Calibration, shape: PaperShape, frames: int
) -> list[BoardReading]:
    """A sheet of `shape` with the game's position on it, read on `frames` still frames."""
    reader = BoardReader(calibration, board)
    return [
        reader.read(render(board, POSITION, shaped(shape), 61, frame=frame).image)
        for frame in range(frames)
    ]


@pytest.mark.parametrize("shape", SHAPES)
def test_a_sheet_not_lying_flat_reads_right_with_no_hand(
    board: Board, calibration: Calibration, shape: PaperShape
) -> None:
    for reading in still_readings(board, calibration, shape, 3):
        assert not reading.hands, [reason.text() for reason in reading.hand_reasons]
        assert reading.hand_reasons == ()
        assert_reads_right(board, reading, POSITION)


def arm_over(
    board: Board, calibration: Calibration, shape: PaperShape, seed: int, place: int, angle: float
) -> tuple[SyntheticCamera, BoardReader, BoardReading]:
    """A still sheet of `shape`, read with no hand; then an arm reaching in to `place` from
    `angle`: the camera, the reader and the reading under the arm."""
    camera = SyntheticCamera(board, shaped(shape), seed=seed)
    camera.set_scene(POSITION)
    reader = BoardReader(calibration, board)
    assert not reader.read(camera.read()).hands
    camera.hand_in(board.place(place).centre, angle=angle, height=40.0)
    return camera, reader, reader.read(camera.read())


@pytest.mark.parametrize("shape", SHAPES)
def test_a_hand_over_a_sheet_not_lying_flat_is_seen_and_said_why(
    board: Board, calibration: Calibration, shape: PaperShape
) -> None:
    # An arm reaching in from the South edge to place 47.
    camera, reader, reading = arm_over(board, calibration, shape, 62, place=47, angle=90.0)
    assert reading.hands
    assert reading.hand_reasons
    signs = {reason.sign for reason in reading.hand_reasons}
    assert signs & {HandSign.RIM_CROSSED, HandSign.PAPER_COVERED, HandSign.ZONES_OCCLUDED}
    crossed = [r.edge for r in reading.hand_reasons if r.sign is HandSign.RIM_CROSSED]
    # The arm crosses the South edge (its shadow may cross others).
    assert not crossed or Edge.SOUTH in crossed, crossed
    camera.hand_out()
    assert not reader.read(camera.read()).hands


TIGHT_CURLS = [
    pytest.param(PaperShape(corner=CurledCorner(Corner.NORTH_WEST, 12.0, 40.0)), id="north-west"),
    pytest.param(PaperShape(corner=CurledCorner(Corner.NORTH_EAST, 15.0, 30.0)), id="north-east"),
]
"""Corners curled up high over a short reach: the far corners, seen from the South, show
their underside and shadow on the rim round them."""


@pytest.mark.parametrize("shape", TIGHT_CURLS)
def test_a_corner_curled_up_tight_is_no_hand(
    board: Board, calibration: Calibration, shape: PaperShape
) -> None:
    for reading in still_readings(board, calibration, shape, 2):
        assert not reading.hands, [reason.text() for reason in reading.hand_reasons]


@pytest.mark.parametrize("shape", TIGHT_CURLS)
def test_an_arm_reaching_in_over_a_curled_corner_is_a_hand(
    board: Board, calibration: Calibration, shape: PaperShape
) -> None:
    # From beyond the North edge, near the curled corners, to a place in the top row.
    _camera, _reader, reading = arm_over(board, calibration, shape, 64, place=3, angle=270.0)
    assert reading.hands
    crossed = [r.edge for r in reading.hand_reasons if r.sign is HandSign.RIM_CROSSED]
    assert Edge.NORTH in crossed, [reason.text() for reason in reading.hand_reasons]


def place_errors(
    board: Board, conditions: Conditions, calibration: Calibration
) -> tuple[float, float]:
    """The worst distance (mm on the board) between where a place is seen and where the
    registration puts it, and where the plain homography from its markers puts it."""
    shot = render(board, POSITION, conditions, 63)
    reader = BoardReader(calibration, board)
    reader.read(shot.image)
    fit = reader.fit
    assert fit is not None
    centres = np.array([place.centre for place in board.places])
    truth = shot.to_image(centres)
    # Millimetres at each place, in pixels: a millimetre's step on the sheet as it lies.
    scale = np.linalg.norm(shot.to_image(centres + np.array([1.0, 0.0])) - truth, axis=1)
    mapped = fit.mapping.to_image(centres)
    plain = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), fit.homography).reshape(-1, 2)
    worst = float((np.linalg.norm(mapped - truth, axis=1) / scale).max())
    worst_plain = float((np.linalg.norm(plain - truth, axis=1) / scale).max())
    return worst, worst_plain


@pytest.mark.parametrize(
    ("shape", "within", "plain_beyond"),
    [
        pytest.param(BOWED, 0.6, 1.5, id="bowed"),
        pytest.param(TROUGH, 0.6, 1.5, id="edges lifted"),
        # A crease is sharp, and markers see it only where it meets the border.
        pytest.param(FOLDED, 1.0, 1.2, id="folded in four"),
    ],
)
def test_the_registration_follows_the_sheet_where_one_homography_cannot(
    board: Board, calibration: Calibration, shape: PaperShape, within: float, plain_beyond: float
) -> None:
    worst, worst_plain = place_errors(board, shaped(shape), calibration)
    assert worst <= within
    assert worst_plain > plain_beyond


def test_a_flat_sheet_keeps_the_plain_homography(board: Board, calibration: Calibration) -> None:
    reader = BoardReader(calibration, board)
    reader.read(render(board, POSITION, CAMERA, 64).image)
    assert reader.fit is not None
    assert reader.fit.mapping.warp is None
    worst, _plain = place_errors(board, CAMERA, calibration)
    assert worst < 0.3


def test_vision_show_states_why_it_sees_a_hand(
    board: Board, calibration: Calibration, tmp_path: Path
) -> None:
    camera = SyntheticCamera(board, shaped(BOWED), seed=65)
    camera.set_scene(POSITION)
    camera.hand_in(board.place(47).centre, angle=90.0, height=40.0)
    reader = BoardReader(calibration, board)
    picture, reading = annotate_read(reader, camera.read())
    assert reading.hands
    lines = banner_lines(reading)
    assert "HAND OVER THE BOARD" in lines[0]
    reasons = [reason.text() for reason in reading.hand_reasons]
    assert lines[1:] == [f"hand: {text}" for text in reasons]
    assert any(
        text == "rim crossed on the south edge" or text.startswith("paper covered near place")
        for text in reasons
    ), reasons
    # The reasons are drawn under the banner's first line.
    assert picture.shape == reading_picture_shape(camera.conditions)
    assert (picture[30 : 30 + 24 * (len(lines) - 1), :200] == 0).mean() > 0.5


def reading_picture_shape(conditions: Conditions) -> tuple[int, int, int]:
    width, height = conditions.size
    return (height, width, 3)


def test_no_hand_is_said_of_a_still_sheet_in_words(board: Board, calibration: Calibration) -> None:
    reader = BoardReader(calibration, board)
    reading = reader.read(render(board, POSITION, shaped(CURLED), 66).image)
    assert len(banner_lines(reading)) == 1
    assert "HAND" not in banner_lines(reading)[0]
