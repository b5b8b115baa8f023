"""Finding the board: its markers give where every place is, every frame, whichever way the
board lies, and the last good fit is held while hands hide the markers."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.helpers import BLUE, EASY, RED, YELLOW, assert_reads_right
from vision.board_art import aruco_dictionary
from vision.calibration import Calibration
from vision.geometry import Board
from vision.reader import BoardReader
from vision.registration import RegistrationTracker
from vision.synth import Conditions, Hand, Scene, render

SCENE = Scene(crystals={"1": (RED,), "17": (BLUE, YELLOW), "100": (YELLOW,), "diamond-2": (RED,)})


def test_an_easy_frame_finds_the_board_upright(board: Board, easy_calibration: Calibration) -> None:
    reading = BoardReader(easy_calibration, board).read(render(board, SCENE, EASY, 1).image)
    registration = reading.registration
    assert registration is not None
    assert reading.found
    assert registration.markers_seen >= 20
    assert registration.markers_total == len(board.markers)
    assert registration.error_mm < 1.0
    assert not registration.held
    assert registration.north == "top"
    assert not reading.hands


@pytest.mark.parametrize(
    "turned",
    [
        pytest.param(EASY.replace(board_rotation=180.0), id="board turned on the table"),
        pytest.param(EASY.replace(azimuth=180.0), id="camera on the North side"),
    ],
)
def test_an_upside_down_board_still_reads_by_its_printed_numbers(
    board: Board, easy_calibration: Calibration, turned: Conditions
) -> None:
    scene = Scene(crystals={"1": (RED,), "100": (BLUE,), "diamond-1": (YELLOW,)})
    shot = render(board, scene, turned, 2)
    reading = BoardReader(easy_calibration, board).read(shot.image)
    assert reading.registration is not None
    assert reading.registration.north == "bottom"
    assert reading.crystals() == {"1": (RED,), "100": (BLUE,), "diamond-1": (YELLOW,)}
    assert_reads_right(board, reading, scene)


def test_a_nudged_board_is_followed_from_one_frame_to_the_next(
    board: Board, easy_calibration: Calibration
) -> None:
    reader = BoardReader(easy_calibration, board)
    before = reader.read(render(board, SCENE, EASY, 3).image)
    assert_reads_right(board, before, SCENE)
    # Someone knocks the sheet 15 mm sideways; the camera stays where it was.
    nudged = reader.read(render(board, SCENE, EASY.replace(board_offset=(15.0, 0.0)), 3).image)
    assert nudged.registration is not None
    assert not nudged.registration.held
    assert nudged.registration.error_mm < 1.0
    assert_reads_right(board, nudged, SCENE)


def test_the_last_registration_is_held_while_hands_hide_the_markers(
    board: Board, easy_calibration: Calibration
) -> None:
    reader = BoardReader(easy_calibration, board)
    good = reader.read(render(board, SCENE, EASY, 4).image)
    assert good.registration is not None and not good.registration.held
    # Two forearms lying along the North and South rows of markers, their hands over the
    # rest of the border.
    arms = (
        Hand(tip=(-20.0, 14.0), angle=0.0, width=240.0),
        Hand(tip=(440.0, 283.0), angle=180.0, width=240.0),
    )
    shot = render(board, Scene(crystals=SCENE.crystals, hands=arms), EASY, 4)
    assert shot.hand_over_board
    covered = reader.read(shot.image)
    assert covered.registration is not None
    assert covered.registration.held
    assert covered.registration.markers_seen < 3
    assert covered.registration.north == "top"
    assert covered.hands


def test_a_board_not_found_says_whether_its_markers_are_there_but_unreadable(
    board: Board,
) -> None:
    from vision.registration import RegistrationTracker, not_found_reason
    from vision.synth import random_conditions

    # A small board far from the camera, so far out of focus that its markers' outlines
    # show but not their cells, not even where the sheet's outline puts them (the
    # benchmark's set-up 40, blurred further; at half this blur the outline finds it).
    far = random_conditions(np.random.default_rng(10_040))
    image = np.asarray(
        cv2.GaussianBlur(render(board, Scene(), far, 3).image, (0, 0), 4.0), np.uint8
    )
    assert RegistrationTracker(board).update(image) is None
    assert "move the camera closer or bring it into focus" in not_found_reason(image, board)
    table = np.full((720, 1280, 3), 90, np.uint8)
    assert not_found_reason(table, board).endswith("are the markers in view?")


def test_markers_too_soft_to_decode_are_found_where_the_ones_read_put_them(board: Board) -> None:
    from vision.registration import RegistrationTracker
    from vision.synth import random_conditions

    # The benchmark's set-up 40: a small board, out of focus. Only a few of its markers can
    # be decoded; the rest are seen where those put them, and the board is found exactly.
    far = random_conditions(np.random.default_rng(10_040))
    shot = render(board, Scene(), far, 3)
    detector = cv2.aruco.ArucoDetector(aruco_dictionary(board.marker_dictionary))
    _corners, ids, _rejected = detector.detectMarkers(cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY))
    assert ids is None or len(ids) < len(board.markers) // 2
    fit = RegistrationTracker(board).update(shot.image)
    assert fit is not None
    assert fit.registration.markers_seen >= len(board.markers) - 2
    places = np.array([zone.centre for zone in board.zones()], np.float64)
    truth = cv2.perspectiveTransform(places.reshape(-1, 1, 2), shot.homography).reshape(-1, 2)
    assert np.abs(fit.mapping.to_image(places) - truth).max() < 1.0


def test_a_shaken_frame_of_a_board_that_has_not_moved_keeps_its_fit(board: Board) -> None:
    # Blur greys a marker's cells into one another, but they still follow its pattern:
    # the fit stands, without a search for the markers that can take a second.
    tracker = RegistrationTracker(board)
    first = tracker.update(render(board, SCENE, EASY, 1).image)
    assert first is not None
    shaken = EASY.replace(motion_blur=16.0, motion_angle=30.0)
    fit = tracker.update(render(board, SCENE, shaken, 1).image)
    assert fit is not None and not fit.registration.held
    assert fit.detection is first.detection


def test_a_shaken_frame_of_a_nudged_board_is_found_afresh(board: Board) -> None:
    tracker = RegistrationTracker(board)
    first = tracker.update(render(board, SCENE, EASY, 1).image)
    assert first is not None
    # Half a marker's cell sideways: the markers must be found again.
    nudged = EASY.replace(motion_blur=16.0, motion_angle=30.0, board_offset=(1.1, 0.0))
    fit = tracker.update(render(board, SCENE, nudged, 1).image)
    assert fit is None or fit.detection is not first.detection
