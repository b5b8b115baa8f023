"""A hand puts a crystal down or picks one up: the reader and the temporal filter together
commit the move once, after the hand has gone, and nothing while it is over the board."""

from __future__ import annotations

from collections.abc import Mapping

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from tests.vision.helpers import BLUE, EASY, RED, YELLOW
from vision.calibration import Calibration
from vision.geometry import Board
from vision.reader import BoardReader
from vision.reading import HandSign, ZoneChange
from vision.synth import SyntheticCamera
from vision.temporal import FilterState, step

SETTLE_FRAMES = 8
"""Still frames after the hand has left: the filter waits 250 ms, about 4 frames at 15/s."""


@pytest.mark.parametrize(
    ("seed", "start", "zone", "put", "take", "change"),
    [
        pytest.param(31, {}, "40", RED, None, ZoneChange("40", (), (RED,)), id="put on a place"),
        pytest.param(
            32,
            {"63": (BLUE,)},
            "63",
            YELLOW,
            None,
            ZoneChange("63", (BLUE,), (BLUE, YELLOW)),
            id="challenge piece beside a crystal",
        ),
        pytest.param(
            33,
            {"17": (RED, YELLOW)},
            "17",
            None,
            RED,
            ZoneChange("17", (RED, YELLOW), (YELLOW,)),
            id="pick one up",
        ),
        pytest.param(
            34,
            {},
            "diamond-2",
            BLUE,
            None,
            ZoneChange("diamond-2", (), (BLUE,)),
            id="claim a quadrant",
        ),
    ],
)
def test_a_move_under_a_hand_commits_once_after_the_hand_has_gone(
    board: Board,
    easy_calibration: Calibration,
    seed: int,
    start: Mapping[str, tuple[str, ...]],
    zone: str,
    put: str | None,
    take: str | None,
    change: ZoneChange,
) -> None:
    camera = SyntheticCamera(board, EASY, seed=seed)
    for key, colours in start.items():
        for colour in colours:
            camera.put(key, colour)
    reader = BoardReader(easy_calibration, board)
    state = FilterState.start(start)
    frames = list(camera.sequence_hand_over(zone, put=put, take=take))
    frames += [camera.grab() for _ in range(SETTLE_FRAMES)]
    assert any(frame.hand_over_board for frame in frames)
    last_hand = max(frame.index for frame in frames if frame.hand_over_board)

    commits = []
    for frame in frames:
        state, observation = step(state, reader.read(frame.image, frame.t_ns))
        if observation is not None:
            commits.append((frame.index, frame.hand_over_board, observation.changes))

    under_the_hand = [(index, changes) for index, hand, changes in commits if hand]
    assert under_the_hand == [], "committed while the hand was over the board"
    assert [changes for _index, _hand, changes in commits] == [(change,)]
    assert commits[0][0] > last_hand
    truth = {key: tuple(sorted(colours)) for key, colours in camera.scene.crystals.items()}
    assert dict(state.committed) == truth


def test_the_first_frame_after_the_hand_is_trusted_for_what_really_changed(
    board: Board, easy_calibration: Calibration
) -> None:
    # The frame after a hand differs from the hand's frame wherever the hand was; judged
    # against the last frame without a hand, only the crystal put down has changed.
    camera = SyntheticCamera(board, EASY, seed=35)
    reader = BoardReader(easy_calibration, board)
    before = reader.read(camera.read())
    assert not before.hands
    camera.put("40", RED)
    camera.hand_in(board.place(40).centre, angle=90.0, height=40.0)
    under = reader.read(camera.read())
    assert under.hands
    camera.hand_out()
    after = reader.read(camera.read())
    assert not after.hands
    assert after.zones["40"].crystals == (RED,)


def test_a_hand_is_read_as_reaching_the_place_it_is_over_and_not_the_far_side(
    board: Board, easy_calibration: Calibration
) -> None:
    camera = SyntheticCamera(board, EASY, seed=37)
    reader = BoardReader(easy_calibration, board)
    assert reader.read(camera.read()).reach == frozenset()  # no hand, no reach
    camera.hand_in(board.place(40).centre, angle=90.0, height=40.0)
    under = reader.read(camera.read())
    assert under.hands
    assert "40" in under.reach
    # Place 1 lies at the far corner from a hand reaching in to 40 from its edge.
    assert "1" not in under.reach
    unsure = {k for k, z in under.zones.items() if z.occluded or z.confidence < 0.6}
    assert unsure <= under.reach


def test_many_zones_changing_at_once_without_a_hand_in_sight_are_distrusted_for_one_frame(
    board: Board, easy_calibration: Calibration
) -> None:
    camera = SyntheticCamera(board, EASY, seed=36)
    reader = BoardReader(easy_calibration, board)
    assert not reader.read(camera.read()).hands
    for place in range(1, 9):
        camera.put(str(place), BLUE)
    assert reader.read(camera.read()).hands  # as a hand too fast for the other signs would be
    assert not reader.read(camera.read()).hands


def _patches(
    reader: BoardReader, image: NDArray[np.uint8], places: tuple[int, ...], bgr: tuple[int, ...]
) -> NDArray[np.uint8]:
    """`image` with a counter-sized square of `bgr` over each of `places`."""
    painted = image.copy()
    assert reader.fit is not None
    half = reader.board.counter_size / 2
    for place in places:
        x, y = reader.board.place(place).centre
        corners = [
            (x - half, y - half),
            (x + half, y - half),
            (x + half, y + half),
            (x - half, y + half),
        ]
        outline = reader.fit.mapping.to_image(np.array(corners, np.float64))
        cv2.fillConvexPoly(painted, np.round(outline).astype(np.int32), bgr)
    return painted


def test_counters_lit_to_a_tinted_dark_grey_are_no_hand_but_a_bright_patch_is(
    board: Board, easy_calibration: Calibration
) -> None:
    # A counter's black under a coloured light is of no crystal's colour and hides its
    # place; dark and no bigger than a counter, it is not taken for a hand. Skin or a sleeve
    # of the same size, lighter, over two places is.
    camera = SyntheticCamera(board, EASY, seed=38)
    reader = BoardReader(easy_calibration, board)
    image = camera.read()
    assert not reader.read(image).hands
    places = (34, 56, 78)
    tinted = reader.read(_patches(reader, image, places, (40, 72, 52)))
    assert not tinted.hands, tinted.hand_reasons
    assert all(tinted.zones[str(p)].occluded for p in places)
    bright = reader.read(_patches(reader, image, places, (150, 245, 175)))
    assert HandSign.ZONES_OCCLUDED in {reason.sign for reason in bright.hand_reasons}
