"""The MeM board on the virtual camera: calibrating with one stone a colour on the squares
the plan names, and dealing MeM positions to film."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from companion.games.mem.colours import NAME
from companion.games.mem.setup import parse_setup
from vision.calibrate import calibrate
from vision.calibration import Calibration, CalibrationResult
from vision.geometry import BOARDS_DIR, Board, load_board
from vision.plans import calibration_plan_for
from vision.synth import Conditions, Scene, render
from vision.synth.palette import MEM_STONES

MEM_BOARD = BOARDS_DIR / "mem.toml"
EASY = Conditions.easy()
MILD = EASY.replace(
    tilt=25.0, azimuth=20.0, brightness=0.8, colour_temperature=4200.0, gradient=0.2
)
"""A camera on a stand a little to one side, a warmer and dimmer lamp, uneven light."""
CALIBRATION_SEED = 101


def mem_board() -> Board:
    return load_board(MEM_BOARD)


def calibrate_mem(
    board: Board, conditions: Conditions, colours: Sequence[str] = MEM_STONES
) -> CalibrationResult:
    """Calibrate as a user would: one stone of each colour on the square the plan names,
    nothing else on the board, two frames."""
    plan = calibration_plan_for(board, list(colours))
    scene = Scene(crystals={str(places[0]): (name,) for name, places in plan.items()})
    frames = [render(board, scene, conditions, CALIBRATION_SEED, frame=i).image for i in (0, 1)]
    return calibrate(board, frames, plan, board_file=str(MEM_BOARD))


@cache
def mem_calibration(conditions: Conditions) -> Calibration:
    result = calibrate_mem(mem_board(), conditions)
    assert result.problems == (), result.problems
    return result.calibration


def dealt(seed: int) -> dict[int, str]:
    """The 32 stones of a MeM game dealt from `seed`, square -> colour name."""
    setup = parse_setup({"game": "mem", "sides": [{"name": "Ada"}, {"name": "Bo"}], "seed": seed})
    return {square: NAME[colour] for square, colour in enumerate(setup.board())}


def mem_position(seed: int, taken: int, keep: Sequence[str] = MEM_STONES) -> Scene:
    """A dealt board with `taken` stones then taken off at random (as in play), and only
    stones of the colours in `keep`."""
    stones = {square: name for square, name in dealt(seed).items() if name in keep}
    for square in random.Random(f"taken:{seed}").sample(sorted(stones), taken):
        del stones[square]
    return Scene(crystals={str(square): (name,) for square, name in stones.items()})
