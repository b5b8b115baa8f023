"""What the virtual camera films: the truth a rendered frame is checked against.

scene = Scene(
    crystals={"17": ("blue", "yellow"), "diamond-1": ("red",)},
    counters={"3": (5,), "8": (None,)},        # None: a face-down counter
    card=12,                                   # a printed card lying on the deck area
    hands=(Hand(tip=(150.0, 140.0), angle=90.0),),
)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand and forearm reaching in over the board.

    The fingertips are at `tip` (board millimetres); the arm comes from direction `angle`
    (degrees, 0 = from the right edge, 90 = from the bottom edge, i.e. pointing up) and
    runs off the picture."""

    tip: tuple[float, float]
    angle: float = 90.0
    width: float = 85.0
    """Across the palm, millimetres."""
    height: float = 60.0
    """Of the palm above the board, millimetres; the fingertips hang lower."""
    holding: str | None = None
    """The colour of a crystal pinched between the fingertips, or None."""


@dataclass(frozen=True, slots=True)
class Scene:
    crystals: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Zone key ('1'..'100', 'diamond-1'..'diamond-4') -> colour names of its crystals."""
    counters: Mapping[str, tuple[int | None, ...]] = field(default_factory=dict)
    """Place key -> topology counters on it: values, None for face down."""
    card: int | None = None
    """A printed card's number lying face up on the deck area, or None."""
    deck: str = "mythologies-of-earth"
    hands: tuple[Hand, ...] = ()
    placements: Mapping[str, tuple[tuple[float, float], ...]] = field(default_factory=dict)
    """Zone key -> where each of its crystals sits, millimetres from the zone's centre, in the
    order of `crystals`. Zones not listed (or listed with the wrong count) get a natural
    random arrangement."""
