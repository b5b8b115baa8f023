"""Exact time accounting for any sequence of presses and pauses (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.clock.controls import Delay, Stage, TimeControl, s
from companion.clock.model import (
    SETTLE_NS,
    Clock,
    FlagFell,
    Pressed,
    TimeAdjusted,
    adjust,
    flag_instant,
    new_clock,
    pause,
    press,
    remaining,
    resume,
    start,
    tick,
)
from companion.clock.notation import parse

DELAY = st.sampled_from([Delay.BRONSTEIN, Delay.SIMPLE])


def _stages(moves: st.SearchStrategy[int | None]) -> st.SearchStrategy[Stage]:
    """Increments, delays of either kind, and both together."""
    return st.builds(
        Stage,
        moves,
        st.integers(1, 600).map(s),
        st.integers(0, 30).map(s),
        st.integers(0, 30).map(s),
        DELAY,
    )


# Only the last stage may be the rest of the game (no move count).
STAGES = st.builds(
    lambda counted, last: [*counted, last],
    st.lists(_stages(st.integers(1, 5)), max_size=2),
    _stages(st.one_of(st.none(), st.integers(1, 5))),
)
CONTROLS = STAGES.map(lambda stages: TimeControl.stages_of(*stages))
STEP = st.tuples(st.integers(0, 40 * 10**9), st.booleans(), st.integers(0, 5 * 10**9))
"""(move length in ns, pause during it?, pause length)."""


def play(clock: Clock, steps: list[tuple[int, bool, int]]) -> list[tuple[Clock, int]]:
    t = 0
    seen = [(clock, t)]
    for length, pauses, pause_length in steps:
        if clock.running is None:
            break
        mover = clock.running
        if pauses:
            clock, _ = pause(clock, t + length // 2)
            clock, _ = resume(clock, t + length // 2 + pause_length)
            t += pause_length
        t += length
        clock, _ = press(clock, mover, t)
        seen.append((clock, t))
    return seen


@settings(max_examples=200, deadline=None)
@given(st.lists(CONTROLS, min_size=2, max_size=4), st.lists(STEP, max_size=60))
def test_remaining_is_base_plus_earned_minus_used(
    controls: list[TimeControl], steps: list[tuple[int, bool, int]]
) -> None:
    clock, _ = start(new_clock(controls), 0, 0)
    for state, t in play(clock, steps):
        for player, pt in enumerate(state.players):
            if pt.flagged_at is None:
                assert pt.main_ns == pt.earned_ns - pt.used_ns
                assert pt.main_ns >= 0
            if state.running != player:
                assert remaining(state, player, t) == pt.main_ns


@settings(max_examples=200, deadline=None)
@given(
    st.lists(CONTROLS, min_size=2, max_size=3),
    st.lists(STEP, max_size=30),
    st.lists(st.integers(0, 10**9), min_size=1, max_size=8),
)
def test_a_running_clock_never_goes_up(
    controls: list[TimeControl], steps: list[tuple[int, bool, int]], gaps: list[int]
) -> None:
    clock, _ = start(new_clock(controls), 0, 0)
    state, t = play(clock, steps)[-1]
    if state.running is None:
        return
    player = state.running
    last = remaining(state, player, t)
    for gap in gaps:
        t += gap
        now = remaining(state, player, t)
        assert now <= last
        last = now


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(["300", "60+5", "60b5", "60d5", "*90", "10|3x5", "10|3/20", "2/30:20+1"]),
    st.lists(st.integers(0, 20 * 10**9), max_size=40),
)
def test_ticks_change_nothing_but_flags(text: str, lengths: list[int]) -> None:
    clock, _ = start(new_clock([parse(text)] * 2), 0, 0)
    t = 0
    for length in lengths:
        if clock.running is None:
            break
        ticked, events = tick(clock, t + length // 3)
        if not events:
            assert ticked == clock
        clock = ticked
        t += length
        if clock.running is not None:
            clock, _ = press(clock, clock.running, t)
    # The players' time never exceeds what the rules could have given them.
    for pt in clock.players:
        assert pt.main_ns <= pt.earned_ns


HOURGLASS_STEP = st.tuples(
    st.sampled_from(["press", "tick", "pause", "resume", "look"]),
    st.integers(0, 90 * 10**9),
)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 120), st.lists(HOURGLASS_STEP, max_size=40))
def test_an_hourglass_keeps_its_total_through_anything_but_the_arbiter(
    seconds: int, steps: list[tuple[str, int]]
) -> None:
    """Presses, ticks, pauses and flags of either player: the two times always add up to
    the whole glass, at every instant anyone looks."""
    whole = 2 * s(seconds)
    clock, _ = start(new_clock([parse(f"*{seconds}")] * 2), 0, 0)
    t = 0
    for kind, gap in steps:
        t += gap
        if kind == "press":
            assert clock.running is not None
            clock, _ = press(clock, clock.running, t)
        elif kind == "tick":
            clock, _ = tick(clock, t)
        elif kind == "pause":
            clock, _ = pause(clock, t)
        elif kind == "resume":
            clock, _ = resume(clock, t)
        assert remaining(clock, 0, t) + remaining(clock, 1, t) == whole


@settings(max_examples=300, deadline=None)
@given(
    st.lists(CONTROLS, min_size=2, max_size=3),
    st.lists(STEP, max_size=20),
    st.integers(1, 10**9),
    st.integers(0, SETTLE_NS),
    st.lists(st.floats(0, 1), max_size=5),
)
def test_a_press_stamped_before_the_flag_always_wins(
    controls: list[TimeControl],
    steps: list[tuple[int, bool, int]],
    early: int,
    lag: int,
    ticks: list[float],
) -> None:
    """Whatever came before, a press stamped before the flag instant that reaches the clock
    within SETTLE_NS of its stamp ends the move, however the clock's ticks fall meanwhile."""
    clock, _ = start(new_clock(controls), 0, 0)
    clock, _ = play(clock, steps)[-1]
    fall = flag_instant(clock)
    if clock.running is None or fall is None:
        return
    mover = clock.running
    stamp = max(clock.as_of, fall - early)
    if stamp >= fall:
        return
    arrival = stamp + lag
    for share in sorted(ticks):
        clock, events = tick(clock, stamp + round(share * (arrival - stamp)))
        assert not any(isinstance(e, FlagFell) for e in events)
    clock, events = press(clock, mover, stamp)
    assert not any(isinstance(e, FlagFell) for e in events)
    assert isinstance(events[-1], Pressed) and events[-1].player == mover
    assert clock.players[mover].flagged_at is None


@settings(max_examples=300, deadline=None)
@given(
    st.lists(CONTROLS, min_size=2, max_size=3)
    | st.sampled_from(["10|3x30", "10|3/20", "0|2x5", "60d5|2x10", "*60"]).map(
        lambda text: [parse(text)] * 2
    ),
    st.lists(STEP, max_size=20),
    st.integers(0, 150 * 10**9),
    st.integers(1, 60 * 10**9),
)
def test_time_added_to_the_running_player_moves_their_flag_exactly_that_much(
    controls: list[TimeControl], steps: list[tuple[int, bool, int]], gap: int, added: int
) -> None:
    """In every time control, main time or byo-yomi: +N s means the flag falls N s later,
    and a flag that has fallen by then is lifted, with N s from the arbiter's correction."""
    clock, _ = start(new_clock(controls), 0, 0)
    clock, t = play(clock, steps)[-1]
    if clock.running is None:
        return
    player = clock.running
    t += gap
    fall = flag_instant(clock)
    clock, events = adjust(clock, player, added, t)
    # An hourglass's fallen flag is made final first (its sand is the opponent's).
    assert events[-1] == TimeAdjusted(t, player, added)
    assert all(isinstance(e, FlagFell) and e.at == fall for e in events[:-1])
    assert clock.players[player].flagged_at is None
    if fall is not None:
        assert flag_instant(clock) == max(fall, t) + added
