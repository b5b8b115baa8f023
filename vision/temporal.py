"""Frames -> committed changes: a change counts once enough frames, with no hand, agree on it.

Any frame with a hand over the board (or the registration held, or no board) starts every
wait again, and its readings count for nothing: a hand carrying a crystal across the board
never commits a half-made move, and nothing is ever committed on such a frame. Once the hand
has gone, a zone's new contents are committed when the frames since have read them the same,
unoccluded and with at least `min_confidence`, for long enough. How long is the evidence
the reading needs, counted both ways, in frames and in time, and both must be met:

- **Clear-cut: two frames, 50 ms apart or more.** Every frame of the run read the zone with
  a confidence of `clear_confidence` (0.9) or more, and every zone the hand covered or
  unsettled on its last frames over the board has since read the same on two frames in a
  row. One frame is never enough, however long it stays: it is one look, and a hand's
  blurred trail or a shadow leaving can make one look wrong. Two agreeing looks are two
  separate exposures; at 15 frames a second they are 67 ms apart, which is the move
  committed two frames after the hand has gone. The 50 ms are for fast cameras: at 30
  frames a second two frames are one instant of a hand's departure (its shadow, the
  camera's exposure catching up), so the reading must also hold for 50 ms, three frames.
- **Less sure: longer, up to the whole `stable_ns` (250 ms).** The time needed grows from
  50 ms at a confidence of 0.9 to 250 ms at `min_confidence` (0.6), and at least three
  frames are needed: a reading near a threshold may repeat by chance on two looks, much
  less on three. While a zone the hand was over has yet to read the same twice (still
  occluded, unsure or changing: the hand may not quite have gone), every change waits the
  whole 250 ms. A change read the same for 250 ms over two frames or more is committed
  whatever: no change waits longer than 250 ms of stillness.

So the rule is not frames alone (at 30 frames a second two frames are 33 ms) nor time alone
(at 5 frames a second 50 ms is a single frame): from 5 to 30 frames a second a clear-cut
move is committed on the first frame that is both the second agreeing one and 50 ms or more
after the first, and never on a frame with a hand.

Crystals do not move by themselves: once the board's contents are known, a change is
committed only when it was first read soon (`after_hand_ns`) after a hand was over the
board. A reading that drifts on a still board (the light changed, a crystal lost in glare)
is never told as a move; it waits. When a hand comes, what such a zone read steadily (for
`stable_ns`) before it is remembered: reading the same after the hand has gone is no change
the hand made, so it is not told either (a crystal lost in glare stays lost whoever passes
by). Until the contents are known (a board found with nothing said about it), they are read
as found, with the whole `stable_ns` of stillness: there is no hand to have gone.

Nor where no hand was: each frame with a hand says which zones it is over or beside
(`reading.reach`), and once a hand has been seen over some zone, a change is committed only
within the reach of the hands since the board last settled (no hand for `stable_ns`, and
every zone the last one unsettled read the same twice). A hand that comes back sooner adds
to the last one's reach, so a move not yet committed is not lost to it. A hand that showed
no zone, or a board out of sight under it, leaves every zone in reach.

Topology counters are committed by the same rules, on a track of their own beside the
crystals': a zone's counters (as `counter_names`, so their order does not matter) are its
contents there. A reading with a counter present but unreadable (0: a crystal on it, pips
that make no die) says nothing about the zone's counters, as an occluded zone says nothing
about its crystals: it neither commits nor breaks a run. So a counter turned or taken by a
hand is committed once the hand has gone and it has read the same long enough, a counter
misread for a frame never is, and the crystals are committed exactly as without counters.

    state = FilterState.start()                        # or .start(initial contents)
    state, observation = step(state, reading)          # pure
    observation.changes  # (ZoneChange('17', before=(), after=('red',)),)
    observation.counter_changes  # (CounterChange('33', before=(None,), after=(5,)),)
    state.committed_counters()   # {'33': (5,)}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from vision.reading import (
    BoardObservation,
    BoardReading,
    CounterChange,
    ZoneChange,
    ZoneReading,
    counter_names,
    counter_values,
)

STABLE_NS = 250_000_000
"""The longest a change read the same waits: for unsure readings, an unsettled board, and a
board read as it was found."""
QUICK_NS = 50_000_000
"""How long a clear-cut change must have been read the same, with two frames at least."""
MIN_CONFIDENCE = 0.6
CLEAR_CONFIDENCE = 0.9
QUICK_FRAMES = 2
UNSURE_FRAMES = 3
AFTER_HAND_NS = 2_000_000_000
"""How long after a hand was over the board a change may first be read and still be the
hand's doing."""


@dataclass(frozen=True, slots=True)
class FilterSettings:
    stable_ns: int = STABLE_NS
    min_confidence: float = MIN_CONFIDENCE
    after_hand_ns: int = AFTER_HAND_NS
    quick_ns: int = QUICK_NS
    clear_confidence: float = CLEAR_CONFIDENCE
    quick_frames: int = QUICK_FRAMES
    unsure_frames: int = UNSURE_FRAMES


@dataclass(frozen=True, slots=True)
class Run:
    """Contents a zone has read the same on every hand-free frame since `since`."""

    contents: tuple[str, ...]
    since: int
    """When they were first read (the camera's clock)."""
    frames: int = 1
    lowest: float = 1.0
    """The lowest confidence they were read with."""


@dataclass(frozen=True, slots=True)
class FilterState:
    committed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """What each zone holds as far as anyone has been told; absent zones are empty."""
    pending: Mapping[str, Run] = field(default_factory=dict)
    """Zone -> what it has read, differently from the committed contents, since when."""
    hand_ns: int | None = None
    """When a hand was last over the board (or the board out of sight)."""
    known: bool = True
    """Whether the contents are known: until a first reading has been committed, or has
    agreed with what is committed, the board is read as it is found, with no hand needed."""
    doubted: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Zone -> contents it read steadily, with no hand to explain them, before a hand came."""
    unsettled: Mapping[str, Run | None] | None = field(default_factory=dict)
    """The zones the hand covered or unsettled on its last frames over the board, until each
    has read the same on two hand-free frames in a row -> what it read on the last one (None:
    nothing it could be sure of). None: every zone (the board was out of sight)."""
    counters: FilterState | None = None
    """The topology counters' own track, whose contents are `counter_names`; None until
    the first frame is stepped."""
    reach: frozenset[str] | None = None
    """The zones the hand was over or beside since the board last settled: only there may
    a change be its doing. None or empty: anywhere (no hand yet, a hand that showed no
    zone, or the board out of sight)."""
    hand_over: bool = False
    """Whether the last frame had a hand over the board."""

    @classmethod
    def start(cls, initial: Mapping[str, tuple[str, ...]] | None = None) -> FilterState:
        """From known contents; with none, the board is read as it is found."""
        contents = {key: tuple(sorted(v)) for key, v in (initial or {}).items() if v}
        return cls(committed=contents, known=initial is not None)

    def contents(self, key: str) -> tuple[str, ...]:
        return self.committed.get(key, ())

    def committed_counters(self) -> dict[str, tuple[int | None, ...]]:
        """Zone -> the topology counters committed on it (values, None face down), for the
        zones that hold any."""
        track = self.counters
        if track is None:
            return {}
        return {key: counter_values(names) for key, names in track.committed.items()}


def step(
    state: FilterState, reading: BoardReading, settings: FilterSettings = FilterSettings()
) -> tuple[FilterState, BoardObservation | None]:
    after, observation = _step(state, reading, settings)
    track = state.counters if state.counters is not None else FilterState.start()
    track, counted = _step(track, _counters_read(reading), settings)
    after = replace(after, counters=track)
    if counted is None:
        return after, observation
    changes = tuple(
        CounterChange(c.key, counter_values(c.before), counter_values(c.after))
        for c in counted.changes
    )
    if observation is None:
        return after, BoardObservation((), counted.t_ns, changes)
    t_ns = min(observation.t_ns, counted.t_ns)
    return after, replace(observation, t_ns=t_ns, counter_changes=changes)


def _counters_read(reading: BoardReading) -> BoardReading:
    """The frame as the counters' track reads it: each zone's counters as its contents; a
    zone with a counter it could not read is unreadable there."""
    zones = {
        key: ZoneReading(key, confidence=0.0, occluded=True)
        if 0 in zone.counters
        else ZoneReading(key, counter_names(zone.counters), zone.confidence, occluded=zone.occluded)
        for key, zone in reading.zones.items()
    }
    return replace(reading, zones=zones)


def _step(
    state: FilterState, reading: BoardReading, settings: FilterSettings
) -> tuple[FilterState, BoardObservation | None]:
    """One track (the crystals, or the counters): what the module docstring says."""
    registration = reading.registration
    now = reading.t_ns
    if registration is None or registration.held or reading.hands:
        return _hand_over(state, reading, settings), None
    doubted = dict(state.doubted)
    pending: dict[str, Run] = {}
    for key, zone in reading.zones.items():
        if not _readable(zone, settings):
            continue
        if zone.crystals == state.contents(key):
            doubted.pop(key, None)
            continue
        pending[key] = _extended(state.pending.get(key), zone, now)
    unsettled = _settling(state.unsettled, reading, settings)
    ready = {
        key: run
        for key, run in pending.items()
        if _enough(run, now, state, not unsettled, settings)
        and _a_hand_did_it(state, run.since, settings)
        and _within_reach(state, key)
        and doubted.get(key) != run.contents
    }
    if not ready:
        known = state.known or not pending
        after = replace(
            state,
            pending=pending,
            known=known,
            doubted=doubted,
            unsettled=unsettled,
            hand_over=False,
        )
        return after, None
    committed = dict(state.committed)
    changes = []
    for key in sorted(ready, key=_zone_order):
        contents = ready[key].contents
        changes.append(ZoneChange(key, state.contents(key), contents))
        if contents:
            committed[key] = contents
        else:
            committed.pop(key, None)
        del pending[key]
        doubted.pop(key, None)
    first_seen = min(run.since for run in ready.values())
    told = replace(
        state,
        committed=committed,
        pending=pending,
        known=True,
        doubted=doubted,
        unsettled=unsettled,
        hand_over=False,
    )
    return told, BoardObservation(tuple(changes), first_seen)


def _hand_over(state: FilterState, reading: BoardReading, settings: FilterSettings) -> FilterState:
    """A frame with a hand over the board (or none to be seen): every wait starts again."""
    now = reading.t_ns
    unexplained = {
        key: run.contents
        for key, run in state.pending.items()
        if now - run.since >= settings.stable_ns
    }
    doubted = {**state.doubted, **unexplained} if state.known else {}
    # Where the hand is: zones it hides, or that read unsure or other than they hold (a
    # crystal carried over them). Kept over all its frames: it may have swept across.
    unsettled: dict[str, Run | None] | None = None
    if reading.registration is not None and state.unsettled is not None:
        unsettled = {key: None for key in state.unsettled}
        for key, zone in reading.zones.items():
            if not _readable(zone, settings) or zone.crystals != state.contents(key):
                unsettled[key] = None
    return replace(
        state,
        pending={},
        hand_ns=now,
        doubted=doubted,
        unsettled=unsettled,
        reach=_reached(state, reading, settings),
        hand_over=True,
    )


def _reached(
    state: FilterState, reading: BoardReading, settings: FilterSettings
) -> frozenset[str] | None:
    """Where the hands have been, with this frame's. A hand that comes once the board has
    settled (no hand for `stable_ns`, the longest a change waits, and every zone the last
    one unsettled read the same twice) starts afresh; one that comes back sooner, or never
    quite left, adds to where the last one was."""
    if reading.registration is None:
        return None
    settled = state.hand_ns is None or (
        not state.hand_over
        and reading.t_ns - state.hand_ns >= settings.stable_ns
        and state.unsettled is not None
        and not state.unsettled
    )
    if settled:
        return reading.reach
    if state.reach is None:
        return None
    return state.reach | reading.reach


def _within_reach(state: FilterState, key: str) -> bool:
    """Whether a change at `key` may be a hand's doing, by where the hands were."""
    return not state.reach or key in state.reach


def _readable(zone: ZoneReading, settings: FilterSettings) -> bool:
    return not zone.occluded and zone.confidence >= settings.min_confidence


def _extended(run: Run | None, zone: ZoneReading, now: int) -> Run:
    """`run` with one more frame reading `zone`, or a new run if it reads otherwise."""
    if run is None or run.contents != zone.crystals:
        return Run(zone.crystals, now, 1, zone.confidence)
    return Run(run.contents, run.since, run.frames + 1, min(run.lowest, zone.confidence))


def _settling(
    unsettled: Mapping[str, Run | None] | None, reading: BoardReading, settings: FilterSettings
) -> dict[str, Run | None]:
    """The zones the hand left unsettled that have yet to read the same twice in a row."""
    keys = reading.zones.keys() if unsettled is None else unsettled.keys()
    left: dict[str, Run | None] = {}
    for key in keys:
        zone = reading.zones.get(key)
        if zone is None or not _readable(zone, settings):
            left[key] = None
            continue
        before = None if unsettled is None else unsettled[key]
        run = _extended(before, zone, reading.t_ns)
        if run.frames < 2:
            left[key] = run
    return left


def _enough(
    run: Run, now: int, state: FilterState, settled: bool, settings: FilterSettings
) -> bool:
    """Whether `run` is evidence enough to commit, now."""
    held = now - run.since
    if run.frames >= 2 and held >= settings.stable_ns:
        return True  # the longest wait: enough whatever
    if not state.known or state.hand_ns is None or not settled:
        return False
    if run.lowest >= settings.clear_confidence:
        return run.frames >= settings.quick_frames and held >= settings.quick_ns
    # Less sure: from quick_ns at clear_confidence up to stable_ns at min_confidence.
    doubt = (settings.clear_confidence - run.lowest) / (
        settings.clear_confidence - settings.min_confidence
    )
    wait = settings.quick_ns + doubt * (settings.stable_ns - settings.quick_ns)
    return run.frames >= settings.unsure_frames and held >= wait


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
