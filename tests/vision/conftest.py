"""One calibration per camera set-up, made once and shared by every test that reads under it."""

from __future__ import annotations

import pytest

from tests.vision.helpers import DIM_WARM, EASY, GLARE, STEEP, calibration_under
from vision.calibration import Calibration
from vision.geometry import Board, load_board


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


@pytest.fixture(scope="module")
def easy_calibration() -> Calibration:
    return calibration_under(EASY)


@pytest.fixture(scope="module")
def steep_calibration() -> Calibration:
    return calibration_under(STEEP)


@pytest.fixture(scope="module")
def dim_warm_calibration() -> Calibration:
    return calibration_under(DIM_WARM)


@pytest.fixture(scope="module")
def glare_calibration() -> Calibration:
    return calibration_under(GLARE)
