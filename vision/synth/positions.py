"""Game-like positions and calibrated set-ups on the virtual camera, for benchmarks and for
the zone network's training samples.

    scene = random_position(board, rng, random_topology(board, rng))
    calibration = calibrated(board, conditions, seed)      # Calibration, or why it was refused
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.calibrate import calibrate
from vision.calibration import Calibration, calibration_plan
from vision.geometry import Board
from vision.synth.conditions import Conditions
from vision.synth.palette import CHALLENGE, SIDES
from vision.synth.render import render
from vision.synth.scene import Scene


def random_topology(board: Board, rng: np.random.Generator) -> dict[str, tuple[int | None, ...]]:
    """Counters for one game: they are laid before play and stay where they are."""
    counters: dict[str, tuple[int | None, ...]] = {}
    for place in rng.choice(len(board.places), 12, replace=False):
        value = int(rng.choice((5, 3, 2)))
        counters[str(board.places[int(place)].number)] = (value if rng.random() < 0.6 else None,)
    return counters


def random_position(
    board: Board,
    rng: np.random.Generator,
    counters: dict[str, tuple[int | None, ...]] | None = None,
    sides: Sequence[str] = SIDES,
    challenge: str = CHALLENGE,
) -> Scene:
    """A game-like position: half the places held, some with a challenge piece or a
    challenger's piece too, some claim diamonds taken; the game's counters."""
    crystals: dict[str, tuple[str, ...]] = {}
    for place in board.places:
        roll = rng.random()
        if roll < 0.45:
            continue
        side = str(rng.choice(sides))
        extra = rng.random()
        if extra < 0.12:
            crystals[str(place.number)] = (side, challenge)
        elif extra < 0.17:
            crystals[str(place.number)] = (*sides[:2], challenge)
        elif extra < 0.22:
            crystals[str(place.number)] = (challenge,)
        else:
            crystals[str(place.number)] = (side,)
    for diamond in board.diamonds:
        if rng.random() < 0.4:
            crystals[f"diamond-{diamond.quadrant}"] = (str(rng.choice(sides)),)
    return Scene(crystals=crystals, counters=counters or {})


def calibrated(
    board: Board,
    conditions: Conditions,
    seed: int,
    sides: Sequence[str] = SIDES,
    challenge: str = CHALLENGE,
) -> Calibration | str:
    """The board calibrated as a user would, on two frames of the plan's crystals; or the
    first problems that refused it."""
    colours = (*sides, challenge)
    plan = calibration_plan(colours)
    scene = Scene(crystals={str(p): (name,) for name, places in plan.items() for p in places})
    frames = [render(board, scene, conditions, seed, frame=i).image for i in range(2)]
    roles = {f"side-{n}": side for n, side in enumerate(sides, 1)} | {"challenge": challenge}
    result = calibrate(board, frames, plan, roles=roles)
    if result.problems:
        return "; ".join(result.problems[:2])
    return result.calibration
