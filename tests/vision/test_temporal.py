"""The temporal filter: changes commit once enough hand-free frames agree, never under a hand."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from vision.reading import (
    BoardObservation,
    BoardReading,
    CounterChange,
    Registration,
    ZoneChange,
    ZoneReading,
)
from vision.temporal import QUICK_NS, STABLE_NS, FilterSettings, FilterState, step

MS = 1_000_000
SEEN = Registration(markers_seen=20, markers_total=27, error_mm=0.2)


def frame(
    t_ms: int, hands: bool = False, held: bool = False, **zones: tuple[str, ...]
) -> BoardReading:
    registration = Registration(20, 27, 0.2, held=held)
    readings = {
        key.lstrip("_"): ZoneReading(key.lstrip("_"), crystals) for key, crystals in zones.items()
    }
    return BoardReading(readings, hands=hands, registration=registration, t_ns=t_ms * MS)


def run(frames: list[BoardReading], state: FilterState | None = None):
    state = state or FilterState.start()
    observations = []
    for reading in frames:
        state, observation = step(state, reading)
        if observation is not None:
            observations.append(observation)
    return state, observations


def test_a_board_found_unknown_commits_once_it_has_held_still_for_250_ms() -> None:
    frames = [frame(t, _17=("red",)) for t in range(0, 400, 66)]
    state, observations = run(frames)
    assert len(observations) == 1
    assert observations[0].changes == (ZoneChange("17", (), ("red",)),)
    assert observations[0].t_ns == 0
    assert state.contents("17") == ("red",)


def test_nothing_commits_before_the_wait_is_over() -> None:
    _state, observations = run([frame(t, _17=("red",)) for t in range(0, 240, 20)])
    assert observations == []


def test_a_flickering_reading_never_commits() -> None:
    frames = [frame(t, _17=("red",) if (t // 66) % 2 else ()) for t in range(0, 2000, 66)]
    _state, observations = run(frames)
    assert observations == []


def test_nothing_commits_while_a_hand_is_over_the_board_and_the_wait_restarts_after() -> None:
    frames = [frame(t, _17=("red",)) for t in range(0, 200, 50)]
    frames += [frame(t, hands=True, _17=("red",)) for t in range(200, 1000, 50)]
    frames += [frame(t, _17=("red",)) for t in range(1000, 1200, 50)]
    _state, observations = run(frames)
    assert observations == []
    _state, observations = run([*frames, frame(1250, _17=("red",))])
    assert [o.changes for o in observations] == [(ZoneChange("17", (), ("red",)),)]
    assert observations[0].t_ns == 1000 * MS


def test_a_held_registration_or_no_board_commits_nothing() -> None:
    frames = [frame(t, held=True, _17=("red",)) for t in range(0, 1000, 50)]
    frames += [BoardReading(t_ns=t * MS) for t in range(1000, 2000, 50)]
    assert run(frames)[1] == []


def test_occluded_or_unsure_zones_wait() -> None:
    occluded = {"17": ZoneReading("17", ("red",), occluded=True)}
    unsure = {"17": ZoneReading("17", ("red",), confidence=0.3)}
    for zones in (occluded, unsure):
        frames = [BoardReading(zones, registration=SEEN, t_ns=t * MS) for t in range(0, 1000, 50)]
        assert run(frames)[1] == []


def test_removal_and_replacement_are_changes_too() -> None:
    start = FilterState.start({"17": ("red",), "3": ("blue",)})
    frames = [frame(-100, hands=True)]
    frames += [frame(t, _17=(), _3=("blue", "yellow")) for t in range(0, 300, 50)]
    state, observations = run(frames, start)
    assert observations[0].changes == (
        ZoneChange("3", ("blue",), ("blue", "yellow")),
        ZoneChange("17", ("red",), ()),
    )
    assert state.committed == {"3": ("blue", "yellow")}


def test_the_wait_is_a_setting() -> None:
    settings = FilterSettings(stable_ns=100 * MS)
    state = FilterState.start()
    committed_at = None
    for t in range(0, 300, 20):
        state, observation = step(state, frame(t, _5=("red",)), settings)
        if observation and committed_at is None:
            committed_at = t
    assert committed_at == 100


def test_on_a_known_board_a_reading_that_drifts_with_no_hand_is_never_a_move() -> None:
    start = FilterState.start({"17": ("blue",)})
    frames = [frame(t, _17=()) for t in range(0, 5000, 66)]
    state, observations = run(frames, start)
    assert observations == []
    assert state.contents("17") == ("blue",)


def test_a_change_read_soon_after_a_hand_left_is_committed() -> None:
    start = FilterState.start({"17": ("blue",)})
    frames = [frame(t, _17=("blue",)) for t in range(0, 1000, 66)]
    frames += [frame(t, hands=True) for t in range(1000, 1500, 66)]
    frames += [frame(t, _17=()) for t in range(1500, 2000, 66)]
    state, observations = run(frames, start)
    assert [o.changes for o in observations] == [(ZoneChange("17", ("blue",), ()),)]
    assert state.contents("17") == ()


def test_a_reading_that_drifted_before_a_hand_came_is_not_that_hand_s_doing() -> None:
    start = FilterState.start({"17": ("blue",)})
    frames = [frame(t, hands=True) for t in range(0, 300, 66)]
    frames += [frame(t, _17=("blue",)) for t in range(300, 4000, 66)]
    frames += [frame(t, _17=()) for t in range(4000, 6000, 66)]
    _state, observations = run(frames, start)
    assert observations == []
    # A hand comes by elsewhere: the zone reads as it did before, which is no move.
    frames += [frame(t, hands=True) for t in range(6000, 6300, 66)]
    frames += [frame(t, _17=()) for t in range(6300, 7000, 66)]
    _state, observations = run(frames, start)
    assert observations == []
    # A hand that does change the zone is told.
    frames += [frame(t, hands=True) for t in range(7000, 7300, 66)]
    frames += [frame(t, _17=("red",)) for t in range(7300, 7700, 66)]
    state, observations = run(frames, start)
    assert [o.changes for o in observations] == [(ZoneChange("17", ("blue",), ("red",)),)]
    assert state.doubted == {}


def test_a_board_found_with_nothing_known_is_read_as_it_is_with_no_hand() -> None:
    frames = [frame(t, _17=("blue",), _3=("red",)) for t in range(0, 400, 66)]
    frames += [frame(t, _17=("blue",), _3=()) for t in range(400, 2000, 66)]
    state, observations = run(frames)
    assert [o.changes for o in observations] == [
        (ZoneChange("3", (), ("red",)), ZoneChange("17", (), ("blue",)))
    ]
    assert state.contents("3") == ("red",)


# -- once the hand has gone: as soon as the evidence suffices ----------------------------------


def times(fps: float, count: int, start_ms: float = 0.0) -> list[int]:
    """`count` frame times, in ns, of a camera at `fps` from `start_ms`."""
    return [round((start_ms + k * 1000 / fps) * MS) for k in range(count)]


def seen(
    t_ns: int, hands: bool = False, confidence: float = 1.0, **zones: tuple[str, ...] | None
) -> BoardReading:
    """A frame at `t_ns`; a zone given None is occluded."""
    readings = {
        key.lstrip("_"): ZoneReading(key.lstrip("_"), (), 0.0, occluded=True)
        if crystals is None
        else ZoneReading(key.lstrip("_"), crystals, confidence)
        for key, crystals in zones.items()
    }
    return BoardReading(readings, hands=hands, registration=SEEN, t_ns=t_ns)


def first_commit(frames: list[BoardReading], state: FilterState) -> int | None:
    """The index of the frame on which something was first committed."""
    for index, reading in enumerate(frames):
        state, observation = step(state, reading)
        if observation is not None:
            return index
    return None


def hand_then_still(
    fps: float, still: int, confidence: float = 1.0, **zones: tuple[str, ...] | None
) -> list[BoardReading]:
    """Four frames of a hand over zone 17, then `still` frames with none reading `zones`."""
    clock = times(fps, 4 + still)
    frames = [seen(t, hands=True, _17=None) for t in clock[:4]]
    return frames + [seen(t, False, confidence, **zones) for t in clock[4:]]


KNOWN = FilterState.start({"18": ("blue",)})


def test_once_the_hand_has_gone_two_clear_frames_commit_a_change() -> None:
    frames = hand_then_still(15, 6, _17=("red",), _18=("blue",))
    assert first_commit(frames, KNOWN) == 5  # the second frame with no hand
    _state, observations = run(frames, KNOWN)
    assert [o.changes for o in observations] == [(ZoneChange("17", (), ("red",)),)]
    assert observations[0].t_ns == frames[4].t_ns


def test_one_frame_is_never_enough_however_long_it_stays() -> None:
    frames = hand_then_still(2, 1, _17=("red",), _18=("blue",))
    assert first_commit(frames, KNOWN) is None


def test_a_hand_coming_back_before_the_evidence_suffices_starts_again() -> None:
    clock = times(15, 13)
    frames = []
    for k, t in enumerate(clock[:9]):
        # hand, one still frame, hand, one still frame, ...: never two still frames in a row
        frames.append(seen(t, hands=k % 2 == 0, _17=("red",), _18=("blue",)))
    assert first_commit(frames, KNOWN) is None
    frames += [seen(t, _17=("red",), _18=("blue",)) for t in clock[9:]]
    assert first_commit(frames, KNOWN) == 10
    _state, observations = run(frames, KNOWN)
    assert observations[0].t_ns == clock[9]


def test_nothing_is_committed_on_a_frame_with_a_hand_whatever_came_before() -> None:
    frames = hand_then_still(15, 1, _17=("red",), _18=("blue",))
    frames += [seen(t, hands=True, _17=("red",)) for t in times(15, 30, 400)]
    assert first_commit(frames, KNOWN) is None


def test_less_confident_readings_need_more_frames_and_longer() -> None:
    clear = first_commit(hand_then_still(15, 8, 1.0, _17=("red",), _18=("blue",)), KNOWN)
    unsure = first_commit(hand_then_still(15, 8, 0.75, _17=("red",), _18=("blue",)), KNOWN)
    least = first_commit(hand_then_still(15, 8, 0.6, _17=("red",), _18=("blue",)), KNOWN)
    assert clear is not None and unsure is not None and least is not None
    assert clear < unsure < least
    # The least sure wait the whole 250 ms: the fifth still frame at 15 frames a second.
    assert least - 4 == 4


def test_a_zone_the_hand_was_over_that_has_not_settled_makes_every_change_wait() -> None:
    frames = [seen(t, hands=True, _17=None, _18=None) for t in times(15, 4)]
    # The hand has gone; 18, where it was, is still read as covered, 17 reads clearly.
    frames += [seen(t, _17=("red",), _18=None) for t in times(15, 6, 4000 / 15)]
    index = first_commit(frames, KNOWN)
    assert index is not None
    assert frames[index].t_ns - frames[4].t_ns >= STABLE_NS
    # Once 18 has read the same twice, 17 commits as soon as it has two clear frames.
    frames = frames[:4] + [seen(t, _17=("red",), _18=("blue",)) for t in times(15, 3, 4000 / 15)]
    assert first_commit(frames, KNOWN) == 5


def test_a_board_seen_again_after_it_was_lost_must_settle_everywhere() -> None:
    frames = [BoardReading(t_ns=t) for t in times(15, 4)]
    still = times(15, 6, 4000 / 15)
    frames += [seen(t, _17=("red",), _18=None if k < 3 else ("blue",)) for k, t in enumerate(still)]
    assert first_commit(frames, KNOWN) == 4 + 4  # 18 read the same on the 4th and 5th


def fps_commit(fps: float, confidence: float) -> tuple[list[BoardReading], BoardObservation, int]:
    frames = hand_then_still(fps, 12, confidence, _17=("red",), _18=("blue",))
    state = KNOWN
    for index, reading in enumerate(frames):
        state, observation = step(state, reading)
        if observation is not None:
            return frames, observation, index
    raise AssertionError("nothing committed")


def test_from_5_to_30_frames_a_second_a_clear_change_needs_two_frames_and_50_ms() -> None:
    for fps in (5, 15, 30):
        frames, observation, index = fps_commit(fps, 1.0)
        assert observation.changes == (ZoneChange("17", (), ("red",)),)
        assert observation.t_ns == frames[4].t_ns
        still = [r.t_ns for r in frames[4:]]
        expected = next(k for k in range(1, len(still)) if still[k] - still[0] >= QUICK_NS)
        assert index - 4 == expected
    assert fps_commit(30, 1.0)[2] - 4 == 2  # the third still frame: two are 33 ms apart
    assert fps_commit(5, 1.0)[2] - 4 == 1  # the second: one frame is one look


def test_from_5_to_30_frames_a_second_an_unsure_change_needs_three_frames_and_its_time() -> None:
    for fps in (5, 15, 30):
        frames, _observation, index = fps_commit(fps, 0.7)
        held = frames[index].t_ns - frames[4].t_ns
        assert index - 4 >= 2
        assert held > QUICK_NS
        assert held - 1000 / fps * MS < STABLE_NS


def test_the_quick_evidence_is_a_setting() -> None:
    quick = FilterSettings(quick_ns=200 * MS, quick_frames=3)
    frames = hand_then_still(15, 8, _17=("red",), _18=("blue",))
    state = KNOWN
    committed_on = []
    for index, reading in enumerate(frames):
        state, observation = step(state, reading, quick)
        if observation is not None:
            committed_on.append(index - 4)
    assert committed_on == [3]  # the fourth still frame: 200 ms after the first


# -- for any readings ------------------------------------------------------------------------

ZONES = ("1", "2")
# Weighted towards clear readings of few contents: those are the ones that commit.
crystals = st.sampled_from([(), (), ("red",), ("red",), ("blue",), ("blue", "red")])
confidence = st.sampled_from([0.3, 0.6, 0.75, 0.9, 1.0, 1.0, 1.0])
zone_reading = st.tuples(crystals, confidence, st.sampled_from([False, False, False, True]))
# A stretch of frames reading the same (the board holds still, the hand stays), a gap apart.
a_stretch = st.tuples(
    st.integers(1, 300),  # ms between frames
    st.sampled_from(["still", "still", "still", "hand", "held", "lost"]),
    st.tuples(zone_reading, zone_reading),
    st.integers(1, 4),  # frames
)


@settings(max_examples=500, deadline=None)
@given(st.lists(a_stretch, max_size=25), st.booleans())
def test_nothing_is_committed_under_a_hand_and_a_change_is_what_the_frames_read(
    stretches: list[tuple[int, str, tuple[tuple[tuple[str, ...], float, bool], ...], int]],
    known: bool,
) -> None:
    frames = [(gap, kind, zones) for gap, kind, zones, count in stretches for _ in range(count)]
    state = FilterState.start({"1": ("red",)} if known else None)
    readings: list[BoardReading] = []
    t = 0
    for gap, kind, zones in frames:
        t += gap * MS
        if kind == "lost":
            reading = BoardReading(t_ns=t)
        else:
            registration = Registration(20, 27, 0.2, held=kind == "held")
            readings_ = {
                key: ZoneReading(key, contents, confidence, occluded=occluded)
                for key, (contents, confidence, occluded) in zip(ZONES, zones, strict=True)
            }
            reading = BoardReading(readings_, kind == "hand", registration, t)
        readings.append(reading)
        state, observation = step(state, reading)
        if observation is None:
            continue
        assert kind == "still"
        for change in observation.changes:
            # The frames that justified it: the last ones, with no hand, that read it so.
            streak = []
            for earlier in reversed(readings):
                zone = earlier.zones.get(change.key)
                if (
                    earlier.hands
                    or earlier.registration is None
                    or earlier.registration.held
                    or zone is None
                    or zone.occluded
                    or zone.confidence < 0.6
                    or zone.crystals != change.after
                ):
                    break
                streak.append(earlier.t_ns)
            assert len(streak) >= 2  # two looks at least
            assert streak[0] - streak[-1] >= 50 * MS
            assert observation.t_ns <= streak[-1]


# -- topology counters ---------------------------------------------------------------------


def counters_frame(
    t_ms: int,
    hands: bool = False,
    crystals: dict[str, tuple[str, ...]] | None = None,
    **zones: tuple[int | None, ...],
) -> BoardReading:
    """A frame whose zones hold the counters given (and the crystals given)."""
    registration = Registration(20, 27, 0.2)
    keys = set(zones) | set(crystals or {})
    readings = {
        key.lstrip("_"): ZoneReading(
            key.lstrip("_"),
            (crystals or {}).get(key, ()),
            counters=zones.get(key, ()),
        )
        for key in keys
    }
    return BoardReading(readings, hands=hands, registration=registration, t_ns=t_ms * MS)


def test_counters_found_on_the_board_are_committed_in_any_order_as_it_is_found() -> None:
    frames = [counters_frame(t, _33=(None, 5), _8=(3,)) for t in range(0, 400, 66)]
    state, observations = run(frames)
    assert [o.changes for o in observations] == [()]
    assert observations[0].counter_changes == (
        CounterChange("8", (), (3,)),
        CounterChange("33", (), (5, None)),
    )
    assert state.committed_counters() == {"8": (3,), "33": (5, None)}
    # The same counters listed in another order are no change.
    state, observations = run(
        [counters_frame(t, _33=(5, None), _8=(3,)) for t in range(400, 900, 66)], state
    )
    assert observations == []


def test_a_counter_turned_by_a_hand_is_committed_after_it_and_never_under_it() -> None:
    start = run([counters_frame(t, _33=(None,)) for t in range(0, 400, 66)])[0]
    hand = [counters_frame(t, hands=True, _33=(5,)) for t in range(400, 800, 66)]
    state, observations = run(hand, start)
    assert observations == [] and state.committed_counters() == {"33": (None,)}
    still = [counters_frame(t, _33=(5,)) for t in range(800, 1000, 66)]
    state, observations = run(still, state)
    assert [o.counter_changes for o in observations] == [(CounterChange("33", (None,), (5,)),)]
    assert state.committed_counters() == {"33": (5,)}


def test_a_counter_taken_is_committed_as_none_left() -> None:
    start = run([counters_frame(t, _33=(2,)) for t in range(0, 400, 66)])[0]
    frames = [counters_frame(400, hands=True, _33=())]
    frames += [counters_frame(t, _33=()) for t in range(466, 800, 66)]
    state, observations = run(frames, start)
    assert [o.counter_changes for o in observations] == [(CounterChange("33", (2,), ()),)]
    assert state.committed_counters() == {}


def test_an_unreadable_counter_says_nothing_and_a_counter_misread_with_no_hand_is_no_move() -> None:
    start = run([counters_frame(t, _33=(None,)) for t in range(0, 400, 66)])[0]
    # A crystal put on it hides its back: unreadable, so it stays as it was.
    frames = [counters_frame(400, hands=True, crystals={"_33": ("red",)}, _33=(0,))]
    frames += [
        counters_frame(t, crystals={"_33": ("red",)}, _33=(0,)) for t in range(466, 1000, 66)
    ]
    state, observations = run(frames, start)
    assert [o.changes for o in observations] == [(ZoneChange("33", (), ("red",)),)]
    assert [o.counter_changes for o in observations] == [()]
    assert state.committed_counters() == {"33": (None,)}
    # Read as a 5 long after the hand has gone: a misreading, not a counter turned.
    later = [counters_frame(t, crystals={"_33": ("red",)}, _33=(5,)) for t in range(4000, 5000, 66)]
    state, observations = run(later, state)
    assert observations == [] and state.committed_counters() == {"33": (None,)}


def test_counters_leave_the_crystals_commits_as_they_were() -> None:
    frames = hand_then_still(15, 12, 1.0, _17=("red",), _18=("blue",))
    plain = [o.changes for o in run(frames, KNOWN)[1]]
    with_counters = [
        replace(
            reading,
            zones={
                **reading.zones,
                "40": ZoneReading("40", counters=(None,), occluded=reading.hands),
            },
        )
        for reading in frames
    ]
    assert [o.changes for o in run(with_counters, KNOWN)[1] if o.changes] == plain


def hand(t_ms: int, reach: tuple[str, ...] = (), **zones: tuple[str, ...]) -> BoardReading:
    """A frame with a hand over the board, over (or beside) the zones `reach`."""
    readings = {key.lstrip("_"): ZoneReading(key.lstrip("_"), held) for key, held in zones.items()}
    return replace(frame(t_ms, hands=True), zones=readings, reach=frozenset(reach))


def known_board(**zones: tuple[str, ...]) -> FilterState:
    return FilterState.start({key.lstrip("_"): crystals for key, crystals in zones.items()})


def test_a_change_away_from_where_the_hand_was_is_not_its_doing() -> None:
    # A crystal is laid on 17; 80, far from the hand, starts to read wrongly as it goes.
    start = known_board(_80=("red",))
    frames = [frame(0, _80=("red",))]
    frames += [hand(t, ("16", "17", "18"), _80=("red",)) for t in range(66, 400, 66)]
    frames += [frame(t, _17=("blue",), _80=()) for t in range(400, 1500, 66)]
    state, observations = run(frames, start)
    assert [o.changes for o in observations] == [(ZoneChange("17", (), ("blue",)),)]
    assert state.contents("80") == ("red",)


def test_a_hand_that_showed_no_zone_may_have_changed_any() -> None:
    start = known_board(_80=("red",))
    frames = [hand(t, (), _80=("red",)) for t in range(0, 300, 66)]
    frames += [frame(t, _17=("blue",), _80=()) for t in range(300, 1000, 66)]
    state, _observations = run(frames, start)
    assert state.contents("17") == ("blue",)
    assert state.contents("80") == ()


def test_a_hand_back_before_its_last_change_settled_keeps_where_it_was() -> None:
    # Laid on 17, then the hand comes back to 60 before 17 has read the same twice.
    frames = [hand(t, ("17",)) for t in range(0, 200, 66)]
    frames += [frame(200, _17=("blue",))]
    frames += [hand(t, ("60",), _17=("blue",)) for t in range(266, 500, 66)]
    frames += [frame(t, _17=("blue",), _60=("red",)) for t in range(500, 1200, 66)]
    state, _observations = run(frames, known_board())
    assert state.contents("17") == ("blue",)
    assert state.contents("60") == ("red",)


def test_a_hand_that_comes_once_the_board_has_settled_starts_afresh() -> None:
    frames = [hand(t, ("17",)) for t in range(0, 200, 66)]
    frames += [frame(t, _17=("blue",)) for t in range(200, 800, 66)]
    # Later, a hand over 60; 17's neighbour 18 then reads wrongly.
    frames += [hand(t, ("60",), _17=("blue",)) for t in range(800, 1000, 66)]
    frames += [frame(t, _17=("blue",), _18=("red",), _60=("red",)) for t in range(1000, 1800, 66)]
    state, _observations = run(frames, known_board())
    assert state.contents("60") == ("red",)
    assert state.contents("18") == ()


def test_a_board_out_of_sight_under_the_hand_leaves_every_zone_in_reach() -> None:
    start = known_board(_80=("red",))
    frames = [hand(0, ("17",), _80=("red",)), BoardReading(t_ns=66 * MS)]
    frames += [frame(t, _17=("blue",), _80=()) for t in range(133, 1000, 66)]
    state, _observations = run(frames, start)
    assert state.contents("80") == ()


@settings(max_examples=60, deadline=None)
@given(
    reach=st.sets(st.sampled_from([str(n) for n in range(1, 21)]), min_size=1, max_size=6),
    changed=st.sampled_from([str(n) for n in range(1, 21)]),
    frames_over=st.integers(1, 6),
)
def test_with_a_hand_seen_somewhere_nothing_outside_its_reach_commits(
    reach: set[str], changed: str, frames_over: int
) -> None:
    frames = [hand(t * 66, tuple(reach)) for t in range(frames_over)]
    after = frames_over * 66
    red = {changed: ZoneReading(changed, ("red",))}
    frames += [replace(frame(after + t), zones=red) for t in range(0, 1500, 66)]
    state, _observations = run(frames, known_board())
    assert (state.contents(changed) == ("red",)) == (changed in reach)
