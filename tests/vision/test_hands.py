"""A hand puts a crystal down or picks one up: the reader and the temporal filter together
commit the move once, after the hand has gone, and nothing while it is over the board."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from tests.vision.helpers import BLUE, EASY, RED, YELLOW
from vision.calibration import Calibration
from vision.geometry import Board
from vision.reader import BoardReader
from vision.reading import ZoneChange
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
