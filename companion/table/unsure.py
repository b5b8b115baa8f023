"""The zones a camera cannot name the contents of: told to the game once the doubt has
lasted as long as the temporal filter waits before it commits, never for a frame with a hand
over the board. An unsure zone is never an alert: the game only stops trusting it.

    state, changed = unsure_step(state, reading)   # changed: the zones to tell, or None
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.reading import BoardReading


def unsure_zones(
    reading: BoardReading, min_confidence: float | None = None
) -> frozenset[str] | None:
    """The squares whose stone the camera cannot name in `reading` (seen, not occluded, read
    with too little confidence to commit), or None when the frame says nothing (a hand over
    the board, or no board)."""
    from vision.temporal import MIN_CONFIDENCE

    floor = MIN_CONFIDENCE if min_confidence is None else min_confidence
    registration = reading.registration
    if registration is None or registration.held or reading.hands:
        return None
    return frozenset(
        key
        for key, zone in reading.zones.items()
        if key.isdigit() and not zone.occluded and zone.confidence < floor
    )


@dataclass(frozen=True, slots=True)
class UnsureState:
    """Which squares the camera has been unsure of, and since when (the camera's clock)."""

    reported: frozenset[str] = frozenset()
    """The squares told to the game as unsure."""
    since: Mapping[str, int] = field(default_factory=dict)


def unsure_step(
    state: UnsureState, reading: BoardReading, stable_ns: int | None = None
) -> tuple[UnsureState, frozenset[str] | None]:
    """The squares the camera is unsure of, once it has been unsure of each for `stable_ns`
    (as the temporal filter waits before it commits): one frame's doubt, where a hand has
    just left, is not enough. Returns the new state and the squares to report, or None when
    they have not changed. A frame with a hand over the board says nothing."""
    from vision.temporal import STABLE_NS

    wait = STABLE_NS if stable_ns is None else stable_ns
    now = unsure_zones(reading)
    if now is None:
        return state, None
    since = {zone: state.since.get(zone, reading.t_ns) for zone in now}
    reported = frozenset(zone for zone, t in since.items() if reading.t_ns - t >= wait)
    changed = reported if reported != state.reported else None
    return UnsureState(reported, since), changed
