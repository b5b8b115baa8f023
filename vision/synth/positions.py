"""Game-like positions and calibrated set-ups on the virtual camera, for benchmarks and for
the zone network's training samples.

    scene = random_position(board, rng, random_topology(board, rng))
    scene = pushed_to_rims(board, scene, rng)                # crystals off-centre, crowding
    calibration = calibrated(board, conditions, seed)      # Calibration, or why it was refused
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.calibrate import calibrate
from vision.calibration import Calibration, calibration_plan
from vision.geometry import Board, Point
from vision.synth.arrangement import (
    NEAR,
    clear_of,
    in_own_room,
    neighbours,
    spot_beside,
    zone_map,
)
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


def pushed_to_rims(board: Board, scene: Scene, rng: np.random.Generator) -> Scene:
    """The same position with every zone's crystals laid as a hand adds them one by one,
    the first pushed towards the zone's rim: off-centre crystals, and clusters pressed
    against the next place's, as play leaves them (a natural arrangement is centred).
    Crystals are solid: none is laid into another, on its own zone or the next."""
    diameter = board.crystal_diameter
    zones = zone_map(board)
    placements = dict(scene.placements)
    laid: list[Point] = []  # board millimetres of every crystal laid so far
    for key, colours in scene.crystals.items():
        if not colours or key not in zones:
            continue
        around = neighbours(board, key)
        cx, cy = zones[key].centre
        others = tuple((x - cx, y - cy) for x, y in laid if math.dist((x, y), (cx, cy)) < NEAR)
        for _attempt in range(8):
            taken = _laid_from_rim(zones[key].radius, len(colours), diameter, around, others, rng)
            # Never half on the next place, never into a crystal; a zone that finds no such
            # room in a few tries keeps its natural, centred layout.
            if all(in_own_room(s, around, 0.0) and clear_of(s, others, diameter) for s in taken):
                placements[key] = tuple(taken)
                laid.extend((cx + x, cy + y) for x, y in taken)
                break
    return replace(scene, placements=placements)


def _laid_from_rim(
    radius: float,
    count: int,
    diameter: float,
    around: tuple[Point, ...],
    others: tuple[Point, ...],
    rng: np.random.Generator,
) -> list[Point]:
    """`count` crystals as offsets from a zone's centre: the first anywhere on the zone it
    keeps clear of the midlines and of `others` (the crystals around), the rest each put
    beside those already there."""
    first = (0.0, 0.0)
    for _ in range(24):
        angle = rng.uniform(0.0, 2 * math.pi)
        reach = (radius - diameter / 2) * math.sqrt(rng.uniform(0.0, 1.0))
        spot = (reach * math.cos(angle), reach * math.sin(angle))
        if in_own_room(spot, around, diameter / 4) and clear_of(spot, others, diameter):
            first = spot
            break
    taken = [first]
    while len(taken) < count:
        taken.append(spot_beside(taken, diameter, radius, rng, around, others))
    return taken


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
