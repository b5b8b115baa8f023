"""Frames -> committed changes: a change counts only once it has held still.

A zone's new contents are committed when every frame for `stable_ns` (250 ms by default)
has read them the same, confidently and unoccluded, with nothing over the board. Any frame
with a hand over the board (or without the board) starts every wait again, so a hand
carrying a crystal across the board never commits a half-made move; the move is committed
a quarter of a second after the hand has gone.

Crystals do not move by themselves: once the board's contents are known, a change is
committed only when it was first read soon (`after_hand_ns`) after a hand was over the
board. A reading that drifts on a still board (the light changed, a crystal lost in glare)
is never told as a move; it waits. When a hand comes, what such a zone read steadily before
it is remembered: reading the same after the hand has gone is no change the hand made, so
it is not told either (a crystal lost in glare stays lost whoever passes by).

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
AFTER_HAND_NS = 2_000_000_000
"""How long after a hand was over the board a change may first be read and still be the
hand's doing."""


@dataclass(frozen=True, slots=True)
class FilterSettings:
    stable_ns: int = STABLE_NS
    min_confidence: float = MIN_CONFIDENCE
    after_hand_ns: int = AFTER_HAND_NS


@dataclass(frozen=True, slots=True)
class FilterState:
    committed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """What each zone holds as far as anyone has been told; absent zones are empty."""
    pending: Mapping[str, tuple[tuple[str, ...], int]] = field(default_factory=dict)
    """Zone -> (contents read differently from the committed ones, since when)."""
    hand_ns: int | None = None
    """When a hand was last over the board (or the board out of sight)."""
    known: bool = True
    """Whether the contents are known: until a first reading has been committed, or has
    agreed with what is committed, the board is read as it is found, with no hand needed."""
    doubted: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Zone -> contents it read steadily, with no hand to explain them, before a hand came."""

    @classmethod
    def start(cls, initial: Mapping[str, tuple[str, ...]] | None = None) -> FilterState:
        """From known contents; with none, the board is read as it is found."""
        contents = {key: tuple(sorted(v)) for key, v in (initial or {}).items() if v}
        return cls(committed=contents, known=initial is not None)

    def contents(self, key: str) -> tuple[str, ...]:
        return self.committed.get(key, ())


def step(
    state: FilterState, reading: BoardReading, settings: FilterSettings = FilterSettings()
) -> tuple[FilterState, BoardObservation | None]:
    registration = reading.registration
    now = reading.t_ns
    if registration is None or registration.held or reading.hands:
        unexplained = {
            key: contents
            for key, (contents, since) in state.pending.items()
            if now - since >= settings.stable_ns
        }
        doubted = {**state.doubted, **unexplained} if state.known else {}
        return replace(state, pending={}, hand_ns=now, doubted=doubted), None
    doubted = dict(state.doubted)
    pending: dict[str, tuple[tuple[str, ...], int]] = {}
    for key, zone in reading.zones.items():
        if zone.occluded or zone.confidence < settings.min_confidence:
            continue
        if zone.crystals == state.contents(key):
            doubted.pop(key, None)
            continue
        waiting = state.pending.get(key)
        if waiting is not None and waiting[0] == zone.crystals:
            pending[key] = waiting
        else:
            pending[key] = (zone.crystals, now)
    ready = {
        key: v
        for key, v in pending.items()
        if now - v[1] >= settings.stable_ns
        and _a_hand_did_it(state, v[1], settings)
        and doubted.get(key) != v[0]
    }
    if not ready:
        known = state.known or not pending
        return replace(state, pending=pending, known=known, doubted=doubted), None
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
        doubted.pop(key, None)
    first_seen = min(since for _contents, since in ready.values())
    told = FilterState(committed, pending, state.hand_ns, known=True, doubted=doubted)
    return told, BoardObservation(tuple(changes), first_seen)


def _a_hand_did_it(state: FilterState, since: int, settings: FilterSettings) -> bool:
    """Whether a change first read at `since` may be a hand's doing."""
    if not state.known:
        return True
    return state.hand_ns is not None and since - state.hand_ns <= settings.after_hand_ns


def _zone_order(key: str) -> tuple[int, int]:
    """Places by number, then the claim diamonds."""
    if key.isdigit():
        return (0, int(key))
    return (1, int(key.rsplit("-", 1)[-1]) if key[-1].isdigit() else 0)
