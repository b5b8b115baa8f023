"""How a hand moves when a player puts down or picks up a crystal: it comes in from the
player's side over the table, slows down and lowers over the zone, pauses, lets go (or
grips), and goes back the way it came, a little differently.

    plan = reach(board, zone.centre, rng)     # per frame: where the fingertips are, or None
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from vision.geometry import Board, Point


@dataclass(frozen=True, slots=True)
class HandPose:
    tip: Point
    angle: float
    height: float


@dataclass(frozen=True, slots=True)
class Reach:
    poses: tuple[HandPose | None, ...]
    """Per frame: the hand, or None while it is away."""
    release: int
    """The frame at which the crystal leaves (or joins) the fingers."""


def reach(
    board: Board, target: Point, rng: np.random.Generator, angle: float | None = None
) -> Reach:
    if angle is None:
        # Players sit at the long sides; some reach in from a corner or the end.
        side = float(rng.choice([90.0, 270.0, 0.0, 180.0], p=[0.4, 0.4, 0.1, 0.1]))
        angle = side + float(rng.normal(0.0, 20.0))
    direction = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
    start = np.asarray(target) + direction * (_to_edge(board, target, direction) + 90.0)
    before = int(rng.integers(2, 5))
    coming = int(rng.integers(6, 13))
    holding = int(rng.integers(2, 6))
    going = int(rng.integers(5, 11))
    after = int(rng.integers(2, 5))
    low = float(rng.uniform(30.0, 45.0))
    high = float(rng.uniform(90.0, 150.0))
    sway = rng.normal(0.0, 25.0, 2)
    poses: list[HandPose | None] = [None] * before
    for k in range(coming):
        t = _ease((k + 1) / coming)
        poses.append(_between(start, np.asarray(target), t, sway, angle, high, low))
    rest = float(rng.normal(0.0, 4.0))
    for k in range(holding):
        wobble = rng.normal(0.0, 0.6, 2)
        tip = (target[0] + wobble[0], target[1] + wobble[1])
        poses.append(HandPose(tip, angle + rest, low - 2.0 * math.sin(math.pi * k / holding)))
    release = before + coming + holding // 2
    back = -sway * rng.uniform(0.3, 1.2)
    for k in range(going):
        t = _ease((k + 1) / going)
        poses.append(_between(np.asarray(target), start, t, back, angle + rest, low, high))
    poses.extend([None] * after)
    return Reach(tuple(poses), release)


def _between(
    start: np.ndarray,
    end: np.ndarray,
    t: float,
    sway: np.ndarray,
    angle: float,
    height_start: float,
    height_end: float,
) -> HandPose:
    bow = math.sin(math.pi * t)
    across = np.array([-math.sin(math.radians(angle)), math.cos(math.radians(angle))])
    point = start + (end - start) * t + across * sway[0] * bow
    height = height_start + (height_end - height_start) * t + abs(sway[1]) * 0.3 * bow
    return HandPose((float(point[0]), float(point[1])), angle, float(height))


def _ease(t: float) -> float:
    """Quick to start, slow to arrive, like a reaching arm."""
    return float(1.0 - (1.0 - t) ** 2.2)


def _to_edge(board: Board, point: Point, direction: np.ndarray) -> float:
    """Distance from `point` along `direction` to the edge of the sheet."""
    limits = []
    for value, step, size in ((point[0], direction[0], board.width), (point[1], direction[1],
                              board.height)):  # fmt: skip
        if step > 1e-9:
            limits.append((size - value) / step)
        elif step < -1e-9:
            limits.append(-value / step)
    return float(min(limits)) if limits else 0.0
