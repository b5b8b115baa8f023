"""Frames -> committed changes: a change counts only once it has held still.

A zone's new contents are committed when every frame for `stable_ns` (250 ms by default)
has read them the same, confidently and unoccluded, with nothing over the board. Any frame
with a hand over the board (or without the board) starts every wait again, so a hand
carrying a crystal across the board never commits a half-made move; the move is committed
a quarter of a second after the hand has gone.

    state = FilterState.start()                        # or .start(initial contents)
    state, observation = step(state, reading)          # pure
    observation.changes  # (ZoneChange('17', before=(), after=('red',)),)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from vision.reading import BoardObservation, BoardReading, ZoneChange

STABLE_NS = 250_000_000
MIN_CONFIDENCE = 0.6


@dataclass(frozen=True, slots=True)
class FilterSettings:
    stable_ns: int = STABLE_NS
    min_confidence: float = MIN_CONFIDENCE


@dataclass(frozen=True, slots=True)
class FilterState:
    committed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """What each zone holds as far as anyone has been told; absent zones are empty."""
    pending: Mapping[str, tuple[tuple[str, ...], int]] = field(default_factory=dict)
    """Zone -> (contents read differently from the committed ones, since when)."""

    @classmethod
    def start(cls, initial: Mapping[str, tuple[str, ...]] | None = None) -> FilterState:
        contents = {key: tuple(sorted(v)) for key, v in (initial or {}).items() if v}
        return cls(committed=contents)

    def contents(self, key: str) -> tuple[str, ...]:
        return self.committed.get(key, ())


def step(
    state: FilterState, reading: BoardReading, settings: FilterSettings = FilterSettings()
) -> tuple[FilterState, BoardObservation | None]:
    registration = reading.registration
    if registration is None or registration.held or reading.hands:
        return (replace(state, pending={}) if state.pending else state), None
    now = reading.t_ns
    pending: dict[str, tuple[tuple[str, ...], int]] = {}
    for key, zone in reading.zones.items():
        if zone.occluded or zone.confidence < settings.min_confidence:
            continue
        if zone.crystals == state.contents(key):
            continue
        waiting = state.pending.get(key)
        if waiting is not None and waiting[0] == zone.crystals:
            pending[key] = waiting
        else:
            pending[key] = (zone.crystals, now)
    ready = {key: v for key, v in pending.items() if now - v[1] >= settings.stable_ns}
    if not ready:
        return FilterState(state.committed, pending), None
    committed = dict(state.committed)
    changes = []
    for key in sorted(ready, key=_zone_order):
        after = ready[key][0]
        changes.append(ZoneChange(key, state.contents(key), after))
        if after:
            committed[key] = after
        else:
            committed.pop(key, None)
        del pending[key]
    first_seen = min(since for _contents, since in ready.values())
    return FilterState(committed, pending), BoardObservation(tuple(changes), first_seen)


def _zone_order(key: str) -> tuple[int, int]:
    """Places by number, then the claim diamonds."""
    if key.isdigit():
        return (0, int(key))
    return (1, int(key.rsplit("-", 1)[-1]) if key[-1].isdigit() else 0)
