"""Where the pieces of a Scene lie on the sheet: each crystal's spot in its zone, each
counter's spot and turn on its place.

Hands put crystals down near a place's printed centre, never exactly on it: a lone crystal
a millimetre or two off, two side by side, three in a cluster or a bent row, touching or
nearly; a crystal stays on its own side of the line half way to the next place. Spots given
in the Scene's `placements` are kept as given (a crystal put beside others does not move
them). Everything follows from the seed.

    gems = lay_gems(board, scene, seed)
    counters = lay_counters(board, scene, seed)
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from vision.geometry import Board, Point, Zone
from vision.synth.scene import Scene

COUNTER_THICKNESS = 1.2
"""Millimetres: a printed counter on card; a crystal on it stands this much higher."""


@dataclass(frozen=True, slots=True)
class LaidGem:
    zone: str
    colour: str
    centre: Point
    """Board millimetres."""
    base: float
    """How far above the sheet its foot rests (on a counter), millimetres."""
    turn: float
    """Radians about its own axis."""
    size: float
    """Against the board's crystal diameter."""
    tint: tuple[float, float, float]
    """This crystal's own difference in colour: a gain per channel."""


@dataclass(frozen=True, slots=True)
class LaidCounter:
    place: str
    value: int | None
    centre: Point
    turn: float
    """Degrees."""


def stream(seed: int, *keys: str | int) -> np.random.Generator:
    """A generator for one thing in one scene, the same in every process."""
    name = ":".join(["pbr", str(seed), *(repr(key) for key in keys)]).encode()
    return np.random.default_rng(int.from_bytes(hashlib.blake2b(name, digest_size=8).digest()))


@lru_cache(maxsize=4)
def zone_table(board: Board) -> dict[str, Zone]:
    return {zone.key: zone for zone in board.zones()}


@lru_cache(maxsize=4)
def _near(board: Board) -> dict[str, tuple[Point, ...]]:
    """For each zone, the offsets to the zones whose room is within a crystal's reach."""
    zones = board.zones()
    return {
        z.key: tuple(
            (o.centre[0] - z.centre[0], o.centre[1] - z.centre[1])
            for o in zones
            if o.key != z.key and math.dist(o.centre, z.centre) < 32.0
        )
        for z in zones
    }


def in_own_room(board: Board, key: str, spot: Point, margin: float) -> bool:
    """Whether a crystal `spot` from zone `key`'s centre keeps `margin` millimetres on its own
    side of the midline to every neighbouring zone."""
    for qx, qy in _near(board)[key]:
        length = math.hypot(qx, qy)
        if (spot[0] * qx + spot[1] * qy) / length > length / 2 - margin:
            return False
    return True


def arrange(board: Board, key: str, count: int, seed: int) -> tuple[Point, ...]:
    """Offsets from zone `key`'s centre for `count` crystals put down by hand."""
    diameter = board.crystal_diameter
    spots: list[Point] = []
    for attempt in range(40):
        rng = stream(seed, "arrange", key, count, attempt)
        spots = _cluster(count, diameter, rng)
        if all(in_own_room(board, key, spot, diameter * 0.22) for spot in spots):
            break
    return tuple(spots)


def _cluster(count: int, diameter: float, rng: np.random.Generator) -> list[Point]:
    if count <= 0:
        return []
    off = rng.normal(0.0, 1.1, 2).clip(-2.6, 2.6)
    if count == 1:
        return [(float(off[0]), float(off[1]))]
    if count == 2:
        half = diameter * rng.uniform(0.98, 1.15) / 2
        shape = [(-half, 0.0), (half, 0.0)]
    elif rng.random() < 0.65:
        side = diameter * rng.uniform(0.98, 1.1)
        radius = side / math.sqrt(3)
        shape = [
            (radius * math.cos(a), radius * math.sin(a))
            for a in (k * 2 * math.pi / 3 + rng.normal(0, 0.08) for k in range(count))
        ]
    else:
        step = diameter * rng.uniform(0.98, 1.08)
        bend = math.radians(rng.uniform(0, 40))
        shape = [(-step, 0.0), (0.0, 0.0), (step * math.cos(bend), step * math.sin(bend))]
        shape += [(0.0, step * (k + 1)) for k in range(count - 3)]
    turn = rng.uniform(0, 2 * math.pi)
    c, s = math.cos(turn), math.sin(turn)
    shift = off * 0.5
    spots = [(c * x - s * y + shift[0], s * x + c * y + shift[1]) for x, y in shape]
    return [(float(x), float(y)) for x, y in (spots[i] for i in rng.permutation(len(spots)))]


def spot_beside(board: Board, key: str, taken: tuple[Point, ...], seed: int) -> Point:
    """Where one more crystal goes on zone `key` already holding crystals at `taken`:
    beside one of them, not on top of any, on the zone's own side, as central as may be."""
    rng = stream(seed, "beside", key, len(taken))
    diameter = board.crystal_diameter
    if not taken:
        return _cluster(1, diameter, rng)[0]
    best: Point = (0.0, 0.0)
    best_reach = math.inf
    for _ in range(64):
        x, y = taken[int(rng.integers(len(taken)))]
        angle = rng.uniform(0, 2 * math.pi)
        step = diameter * rng.uniform(0.98, 1.12)
        spot = (x + step * math.cos(angle), y + step * math.sin(angle))
        if any(math.dist(spot, other) < 0.95 * diameter for other in taken):
            continue
        reach = math.hypot(*spot) + (0 if in_own_room(board, key, spot, diameter * 0.2) else 99)
        if reach < best_reach:
            best, best_reach = (float(spot[0]), float(spot[1])), reach
    return best


def offsets(board: Board, scene: Scene, seed: int, key: str) -> tuple[Point, ...]:
    """Where zone `key`'s crystals lie, as offsets from its centre, in `scene.crystals` order."""
    colours = scene.crystals.get(key, ())
    given = scene.placements.get(key)
    if given is not None and len(given) == len(colours):
        return tuple((float(x), float(y)) for x, y in given)
    return arrange(board, key, len(colours), seed)


def lay_counters(board: Board, scene: Scene, seed: int) -> tuple[LaidCounter, ...]:
    zones = zone_table(board)
    laid = []
    for key, values in sorted(scene.counters.items()):
        centre = zones[key].centre
        for index, value in enumerate(values):
            rng = stream(seed, "counter", key, index)
            jitter = rng.normal(0.0, 1.0, 2).clip(-2.0, 2.0)
            along = (index - (len(values) - 1) / 2) * board.counter_size * 1.1
            spot = (centre[0] + along + jitter[0], centre[1] + jitter[1])
            laid.append(LaidCounter(key, value, spot, float(rng.uniform(-12, 12))))
    return tuple(laid)


def lay_gems(
    board: Board, scene: Scene, seed: int, counters: tuple[LaidCounter, ...] = ()
) -> tuple[LaidGem, ...]:
    zones = zone_table(board)
    laid = []
    for key, colours in sorted(scene.crystals.items()):
        centre = zones[key].centre
        for index, (colour, (dx, dy)) in enumerate(
            zip(colours, offsets(board, scene, seed, key), strict=True)
        ):
            rng = stream(seed, "gem", key, index, colour)
            spot = (centre[0] + dx, centre[1] + dy)
            on_counter = any(
                abs(spot[0] - c.centre[0]) < board.counter_size / 2
                and abs(spot[1] - c.centre[1]) < board.counter_size / 2
                for c in counters
            )
            tint = np.exp(rng.normal(0.0, 0.035, 3))
            laid.append(
                LaidGem(
                    zone=key,
                    colour=colour,
                    centre=spot,
                    base=COUNTER_THICKNESS if on_counter else 0.0,
                    turn=float(rng.uniform(0, 2 * math.pi)),
                    size=float(rng.uniform(0.95, 1.05)),
                    tint=(float(tint[0]), float(tint[1]), float(tint[2])),
                )
            )
    return tuple(laid)
