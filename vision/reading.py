"""What the camera made of one frame, and what the temporal filter commits.

    reading.zones["17"].crystals      # ('blue', 'yellow'): a multiset of colour names, sorted
    reading.zones["17"].confidence    # 0..1
    reading.zones["diamond-2"]        # a quadrant claim diamond reads like a place
    reading.hands                     # True while something covers the board
    reading.hand_reasons              # why: (HandReason(RIM_CROSSED, edge=Edge.SOUTH), ...)
    reading.registration.markers_seen # how many fiducials were found
    counter_names((5, None))          # ('5', 'face-down'): counters as the filter commits them

Colour names are the calibration's (`red`, `blue`, `challenge`, ...). A zone is `occluded`
when the reader could not see it this frame; its crystals are then not to be trusted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

FACE_DOWN = "face-down"
"""A counter showing its back, as the filter commits it (and JSON says it)."""


@dataclass(frozen=True, slots=True)
class ZoneCounts:
    """One zone as a counter (the board reader's by hue, vision/stones.py's by stone) counts
    it in one frame, before the board reader names its topology counters."""

    crystals: tuple[str, ...]
    confidence: float
    occluded: bool
    black: int
    """The zone's pixels of the black class: where there are many, the reader looks for a
    topology counter."""


@dataclass(frozen=True, slots=True)
class ZoneReading:
    key: str
    crystals: tuple[str, ...] = ()
    """Colour names of the crystals on the zone, sorted; () when empty."""
    confidence: float = 1.0
    counters: tuple[int | None, ...] = ()
    """Topology counters seen on the zone: their values, None for a face-down counter."""
    occluded: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "crystals": list(self.crystals),
            "confidence": round(self.confidence, 3),
            "counters": [(FACE_DOWN if v is None else v) for v in self.counters],
            "occluded": self.occluded,
        }


@dataclass(frozen=True, slots=True)
class Registration:
    markers_seen: int
    markers_total: int
    error_mm: float
    """Root-mean-square distance between where the markers were seen and where the fitted
    board puts them, in board millimetres."""
    held: bool = False
    """True when too few markers were seen and the last good registration was kept."""
    north: str = "top"
    """The edge of the picture the board's North faces: top, right, bottom or left."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "markers_seen": self.markers_seen,
            "markers_total": self.markers_total,
            "error_mm": round(self.error_mm, 2),
            "held": self.held,
            "north": self.north,
        }


class Edge(Enum):
    """An edge of the sheet, by the board's compass (North is its printed top)."""

    NORTH = "north"
    EAST = "east"
    SOUTH = "south"
    WEST = "west"


class HandSign(Enum):
    """What shows that something is over the board."""

    RIM_CROSSED = "rim crossed"
    """Something not paper lies across the strip of bare paper round the sheet's edge."""
    PAPER_COVERED = "paper covered"
    """A connected stretch of bare paper points is covered by something coloured or dark."""
    ZONES_OCCLUDED = "zones occluded"
    """Several zones hold something of no crystal's colour, or far too much of one."""
    MARKERS_HIDDEN = "markers hidden"
    """Too few markers were seen to find the board afresh: the last fit was held."""
    PAPER_HIDDEN = "paper hidden"
    """Too little bare paper was seen to measure the light."""
    SUDDEN_CHANGE = "many zones changed at once"
    """Many zones changed between two frames, as a sweep of an arm changes them."""


@dataclass(frozen=True, slots=True)
class HandReason:
    """One reason for thinking a hand is over the board, with where it was seen."""

    sign: HandSign
    edge: Edge | None = None
    """For a crossed rim: which edge of the sheet."""
    zone: str | None = None
    """For covered paper: the zone nearest the cover."""
    count: int = 0
    """For occluded or changed zones: how many."""

    def text(self) -> str:
        """In words: "rim crossed on the south edge", "paper covered near place 47"."""
        if self.sign is HandSign.RIM_CROSSED and self.edge is not None:
            return f"rim crossed on the {self.edge.value} edge"
        if self.sign is HandSign.PAPER_COVERED and self.zone is not None:
            return f"paper covered near {zone_name(self.zone)}"
        if self.sign in (HandSign.ZONES_OCCLUDED, HandSign.SUDDEN_CHANGE) and self.count:
            return f"{self.sign.value} ({self.count})"
        return self.sign.value


def zone_name(key: str) -> str:
    """A zone in words: "place 47", "claim diamond 2"."""
    if key.startswith("diamond-"):
        return f"claim diamond {key.removeprefix('diamond-')}"
    return f"place {key}"


@dataclass(frozen=True, slots=True)
class BoardReading:
    zones: dict[str, ZoneReading] = field(default_factory=dict)
    hands: bool = False
    registration: Registration | None = None
    """None when the board was not found at all (and no earlier registration was held)."""
    t_ns: int = 0
    hand_reasons: tuple[HandReason, ...] = ()
    """Why a hand is thought to be over the board; () when none is."""
    reach: frozenset[str] = frozenset()
    """On a frame with a hand: the zones it is over or beside (those it hides or makes
    unsure, those next to them, and the one nearest covered paper). Empty when nothing
    showed where it is (only the rim crossed, say): it may be anywhere."""

    @property
    def found(self) -> bool:
        return self.registration is not None

    def crystals(self) -> dict[str, tuple[str, ...]]:
        """Zone key -> crystals, for the zones that hold any."""
        return {key: z.crystals for key, z in self.zones.items() if z.crystals}

    def to_dict(self) -> dict[str, Any]:
        return {
            "found": self.found,
            "hands": self.hands,
            "hand_signs": [reason.text() for reason in self.hand_reasons],
            "registration": None if self.registration is None else self.registration.to_dict(),
            "zones": {key: zone.to_dict() for key, zone in self.zones.items()},
        }


@dataclass(frozen=True, slots=True)
class ZoneChange:
    key: str
    before: tuple[str, ...]
    after: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class CounterChange:
    """The topology counters on a zone, before and after: values, None face down, in the
    order of `counter_values`."""

    key: str
    before: tuple[int | None, ...]
    after: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class BoardObservation:
    """Changes the temporal filter has seen hold still long enough to commit."""

    changes: tuple[ZoneChange, ...]
    t_ns: int
    """When the new contents were first seen (not when they were committed)."""
    counter_changes: tuple[CounterChange, ...] = ()
    """Topology counters laid, turned or taken, committed by the same rules as crystals."""


def counter_names(values: Iterable[int | None]) -> tuple[str, ...]:
    """Counters as one sorted multiset of names, so that two readings listing the same
    counters in another order are the same: ('2', '5', 'face-down')."""
    return tuple(sorted(FACE_DOWN if v is None else str(v) for v in values))


def counter_values(names: Iterable[str]) -> tuple[int | None, ...]:
    """`counter_names` back to values: face-up values from the lowest, then None for each
    face-down counter."""
    return tuple(None if name == FACE_DOWN else int(name) for name in sorted(names))
