"""Where the pieces of a Scene physically lie: each crystal's spot within its zone, each
counter's spot and turn on its place, the card's on the deck area.

People never put pieces exactly on the printed centre: a lone crystal lands within a couple
of millimetres of it, two or three crystals sit side by side or touching, counters lie
askew under them. All of it follows from the seed and the zone, so the same scene filmed
twice lies the same way.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from vision.geometry import Board, Point, Zone
from vision.synth.palette import Rgb, crystal_colour
from vision.synth.scene import Scene

COUNTER_THICKNESS = 1.0
"""Millimetres: a crystal resting on a counter stands this much higher."""


@dataclass(frozen=True, slots=True)
class LaidCrystal:
    zone: str
    colour: str
    centre: Point
    """Board millimetres."""
    base: float
    """Height of its foot above the table, millimetres."""
    turn: float
    """Rotation about its own vertical axis, radians."""
    reflectance: Rgb
    """This individual crystal's colour, linear RGB."""
    size: float = 1.0
    """Its size against the board's crystal diameter (moulded pieces differ a little)."""


@dataclass(frozen=True, slots=True)
class LaidCounter:
    place: str
    value: int | None
    centre: Point
    angle: float
    """Degrees, about its centre."""


@dataclass(frozen=True, slots=True)
class LaidCard:
    number: int
    deck: str
    centre: Point
    angle: float
    """Degrees; about 180 when it lies upside down."""


def random_stream(seed: int, *keys: str | int) -> np.random.Generator:
    """A generator for one thing in one scene, the same in every process."""
    name = ":".join([str(seed), *(repr(key) for key in keys)]).encode()
    return np.random.default_rng(int.from_bytes(hashlib.blake2b(name, digest_size=8).digest()))


def zone_map(board: Board) -> dict[str, Zone]:
    return {zone.key: zone for zone in board.zones()}


NEAR = 30.0
"""Zones closer than this (millimetres) are neighbours whose room a crystal must leave."""
SOLID = 0.94
"""The closest two crystals' centres come, in diameters: touching, a rounded rim's worth
in."""


@lru_cache(maxsize=8)
def _neighbour_table(board: Board) -> dict[str, tuple[Point, ...]]:
    zones = board.zones()
    table = {}
    for zone in zones:
        table[zone.key] = tuple(
            (other.centre[0] - zone.centre[0], other.centre[1] - zone.centre[1])
            for other in zones
            if other.key != zone.key and math.dist(other.centre, zone.centre) < NEAR
        )
    return table


def neighbours(board: Board, key: str) -> tuple[Point, ...]:
    """Offsets from zone `key` to the zones around it."""
    return _neighbour_table(board).get(key, ())


def in_own_room(spot: Point, around: tuple[Point, ...], margin: float) -> bool:
    """Whether a crystal at `spot` (an offset from its zone's centre) keeps `margin` on its
    own side of the midline to every neighbouring zone: players keep a place's crystals on
    that place, not half on the next one."""
    for qx, qy in around:
        length = math.hypot(qx, qy)
        if (spot[0] * qx + spot[1] * qy) / length > length / 2 - margin:
            return False
    return True


def lay_counters(board: Board, scene: Scene, seed: int) -> tuple[LaidCounter, ...]:
    zones = zone_map(board)
    laid: list[LaidCounter] = []
    for key, values in sorted(scene.counters.items()):
        if not values:
            continue
        centre = _zone(zones, key).centre
        rng = random_stream(seed, "counters", key, len(values))
        axis = rng.uniform(0.0, math.pi)
        pitch = board.counter_size * rng.uniform(1.04, 1.15)
        jitter = _clipped_normal(rng, 1.2, 2.0)
        for index, value in enumerate(values):
            along = (index - (len(values) - 1) / 2) * pitch
            spot = (
                centre[0] + jitter[0] + along * math.cos(axis),
                centre[1] + jitter[1] + along * math.sin(axis),
            )
            laid.append(LaidCounter(key, value, spot, float(rng.normal(0.0, 8.0))))
    return tuple(laid)


def lay_crystals(
    board: Board, scene: Scene, seed: int, counters: tuple[LaidCounter, ...] = ()
) -> tuple[LaidCrystal, ...]:
    zones = zone_map(board)
    laid: list[LaidCrystal] = []
    for key, colours in sorted(scene.crystals.items()):
        if not colours:
            continue
        zone = _zone(zones, key)
        given = scene.placements.get(key)
        placement = tuple((float(x), float(y)) for x, y in given) if given is not None else None
        under = tuple(c for c in counters if c.place == key)
        laid.extend(
            _lay_zone(zone, tuple(colours), placement, under, seed, board.crystal_diameter,
                      board.counter_size, neighbours(board, key))
        )  # fmt: skip
    return tuple(laid)


@lru_cache(maxsize=2048)
def _lay_zone(
    zone: Zone,
    colours: tuple[str, ...],
    placement: tuple[Point, ...] | None,
    counters: tuple[LaidCounter, ...],
    seed: int,
    diameter: float,
    counter_size: float,
    around: tuple[Point, ...] = (),
) -> tuple[LaidCrystal, ...]:
    """The crystals of one zone (kept: between frames most zones do not change)."""
    if placement is not None and len(placement) == len(colours):
        offsets = list(placement)
    else:
        for attempt in range(40):
            rng = random_stream(seed, "crystals", zone.key, len(colours), attempt)
            offsets = arrange(len(colours), diameter, rng)
            if all(in_own_room(spot, around, diameter / 4) for spot in offsets):
                break
    laid = []
    for index, (colour, (dx, dy)) in enumerate(zip(colours, offsets, strict=True)):
        spot = (zone.centre[0] + dx, zone.centre[1] + dy)
        own = random_stream(seed, "crystal", zone.key, index, colour)
        laid.append(
            LaidCrystal(
                zone=zone.key,
                colour=colour,
                centre=spot,
                base=_resting_height(spot, counters, counter_size),
                turn=float(own.uniform(0.0, 2 * math.pi)),
                reflectance=crystal_colour(colour, own),
                size=float(own.uniform(0.95, 1.05)),
            )
        )
    return tuple(laid)


def lay_card(board: Board, scene: Scene, seed: int) -> LaidCard | None:
    if scene.card is None:
        return None
    rng = random_stream(seed, "card", scene.card)
    dx, dy = _clipped_normal(rng, 1.2, 2.5)
    angle = float(rng.normal(0.0, 2.5)) + (180.0 if rng.random() < 0.15 else 0.0)
    centre = board.deck.centre
    return LaidCard(scene.card, scene.deck, (centre[0] + dx, centre[1] + dy), angle)


def arrange(count: int, diameter: float, rng: np.random.Generator) -> list[Point]:
    """Offsets from a zone's centre for `count` crystals the way a hand puts them down:
    one near the centre, two side by side, three in a cluster or a bent row, more in a
    ring; neighbours touching or a little apart, never overlapping more than slightly."""
    if count <= 0:
        return []
    if count == 1:
        return [_clipped_normal(rng, 0.8, 2.0)]
    spots: list[Point]
    if count == 2:
        gap = diameter * rng.uniform(0.95, 1.12) / 2
        spots = [(-gap, 0.0), (gap, 0.0)]
    elif count == 3 and rng.random() < 0.75:
        side = diameter * rng.uniform(0.96, 1.08)
        radius = side / math.sqrt(3)
        spots = [
            (radius * math.cos(a), radius * math.sin(a))
            for a in (math.pi / 2 + k * 2 * math.pi / 3 + rng.normal(0, 0.06) for k in range(3))
        ]
    elif count == 3:
        step = diameter * rng.uniform(0.97, 1.06)
        bend = math.radians(rng.uniform(0.0, 35.0))
        spots = [(-step, 0.0), (0.0, 0.0), (step * math.cos(bend), step * math.sin(bend))]
    else:
        ring = count if count < 6 else count - 1
        radius = diameter * rng.uniform(1.0, 1.08) / (2 * math.sin(math.pi / ring))
        spots = [
            (radius * math.cos(2 * math.pi * k / ring), radius * math.sin(2 * math.pi * k / ring))
            for k in range(ring)
        ]
        if ring < count:
            spots.append((0.0, 0.0))
    turn = rng.uniform(0.0, 2 * math.pi)
    c, s = math.cos(turn), math.sin(turn)
    shift = _clipped_normal(rng, 0.6, 1.2)
    placed = [(c * x - s * y + shift[0], s * x + c * y + shift[1]) for x, y in spots]
    order = rng.permutation(len(placed))
    return [placed[i] for i in order]


def _resting_height(spot: Point, counters: tuple[LaidCounter, ...], size: float) -> float:
    for counter in counters:
        angle = math.radians(counter.angle)
        dx, dy = spot[0] - counter.centre[0], spot[1] - counter.centre[1]
        along = dx * math.cos(angle) + dy * math.sin(angle)
        across = -dx * math.sin(angle) + dy * math.cos(angle)
        if abs(along) < size / 2 and abs(across) < size / 2:
            return COUNTER_THICKNESS
    return 0.0


def _clipped_normal(rng: np.random.Generator, sigma: float, limit: float) -> Point:
    x, y = rng.normal(0.0, sigma, 2)
    length = math.hypot(x, y)
    if length > limit:
        x, y = x * limit / length, y * limit / length
    return (float(x), float(y))


def _zone(zones: dict[str, Zone], key: str) -> Zone:
    try:
        return zones[key]
    except KeyError:
        raise ValueError(f"the board has no zone {key!r}") from None


def spot_beside(
    taken: list[Point],
    diameter: float,
    radius: float,
    rng: np.random.Generator,
    around: tuple[Point, ...] = (),
    others: tuple[Point, ...] = (),
) -> Point:
    """Where a hand puts one more crystal into a zone already holding crystals at `taken`
    (offsets from its centre): touching or just beside one of them, not on top of any,
    as near the zone's centre as that allows. `others` are the crystals of the zones
    around (offsets from this zone's centre too): solid, so never overlapped either."""
    if not taken:
        return _clipped_normal(rng, 0.8, 2.0)
    best: Point | None = None
    best_reach = math.inf
    for _ in range(48):
        x, y = taken[int(rng.integers(len(taken)))]
        angle = rng.uniform(0.0, 2 * math.pi)
        step = diameter * rng.uniform(0.97, 1.1)
        spot = (x + step * math.cos(angle), y + step * math.sin(angle))
        if not clear_of(spot, (*taken, *others), diameter):
            continue
        if not in_own_room(spot, around, diameter / 4):
            continue
        # Prefer spots inside the zone; among them, no need to be exactly central.
        reach = max(math.hypot(*spot), radius * 0.6) + rng.uniform(0.0, 1.0)
        if reach < best_reach:
            best, best_reach = spot, reach
    if best is None:
        # No room beside them: round the outside of the zone's crystals, on its own side
        # of every midline and clear of the crystals around, where that can be.
        far = max(math.hypot(*p) for p in taken) + diameter
        first = rng.uniform(0.0, 2 * math.pi)
        angles = [first + turn * math.pi / 12 for turn in range(24)]
        ring = [(far * math.cos(a), far * math.sin(a)) for a in angles]
        clear = [s for s in ring if clear_of(s, others, diameter)]
        own = [s for s in clear if in_own_room(s, around, 0.0)]
        best = (own or clear or ring)[0]
    return (float(best[0]), float(best[1]))


def clear_of(spot: Point, others: Iterable[Point], diameter: float) -> bool:
    """Whether a crystal at `spot` keeps out of the solid crystals at `others`."""
    return all(math.dist(spot, other) >= SOLID * diameter for other in others)


def crystals_around(board: Board, scene: Scene, seed: int, key: str) -> tuple[Point, ...]:
    """Where the crystals of the zones around zone `key` sit now, as offsets from its
    centre."""
    zones = zone_map(board)
    centre = _zone(zones, key).centre
    spots: list[Point] = []
    for other in zones.values():
        if other.key == key or math.dist(other.centre, centre) >= NEAR:
            continue
        shift = (other.centre[0] - centre[0], other.centre[1] - centre[1])
        spots.extend(
            (x + shift[0], y + shift[1]) for x, y in current_offsets(board, scene, seed, other.key)
        )
    return tuple(spots)


def current_offsets(board: Board, scene: Scene, seed: int, key: str) -> list[Point]:
    """Where the crystals of zone `key` sit now, as offsets from its centre."""
    centre = _zone(zone_map(board), key).centre
    alone = Scene(
        crystals={key: scene.crystals.get(key, ())},
        placements={key: scene.placements[key]} if key in scene.placements else {},
    )
    return [
        (c.centre[0] - centre[0], c.centre[1] - centre[1]) for c in lay_crystals(board, alone, seed)
    ]
