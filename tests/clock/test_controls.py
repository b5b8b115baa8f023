"""One scenario per time control, against the rules as FIDE and PGN write them."""

from __future__ import annotations

import pytest

from companion.clock.controls import ByoYomi, Delay, Kind, Stage, TimeControl, s
from companion.clock.model import (
    SETTLE_NS,
    Clock,
    ClockError,
    FlagFell,
    MoveLimitExpired,
    PeriodsUsed,
    Pressed,
    PressIgnored,
    StageStarted,
    TimeAdjusted,
    adjust,
    display,
    flag_instant,
    new_clock,
    pause,
    press,
    remaining,
    resume,
    set_time,
    start,
    switch_to,
    tick,
    undo,
)
from companion.clock.notation import parse


def clock_of(text: str, players: int = 2) -> Clock:
    clock, _ = start(new_clock([parse(text)] * players), 0, 0)
    return clock


def moves(clock: Clock, *durations: float, t0: int = 0) -> tuple[Clock, int, list[object]]:
    """Plays moves of the given lengths in seconds, alternating from whoever runs."""
    t = t0
    events: list[object] = []
    for seconds in durations:
        t += s(seconds)
        assert clock.running is not None
        clock, happened = press(clock, clock.running, t)
        events.extend(happened)
    return clock, t, events


def test_sudden_death_flags_at_the_exact_instant() -> None:
    clock = clock_of("300")
    clock, t, _ = moves(clock, 100, 50)  # 0 used 100 s, 1 used 50 s
    assert remaining(clock, 0, t) == s(200)
    assert flag_instant(clock) == t + s(200)
    late = t + s(200) + s(3)  # the tick comes 3 s late; the flag still fell at its instant
    clock, events = tick(clock, late)
    assert events == (FlagFell(t + s(200), 0),)
    assert remaining(clock, 0, late) == 0
    assert display(clock, late).players[0].flagged


def test_a_flag_is_not_announced_before_it_falls_nor_within_the_settle_time() -> None:
    clock = clock_of("10")
    assert tick(clock, s(10) - 1)[1] == ()
    assert tick(clock, s(10) + 1)[1] == ()  # within 5 ms: a press may still be in flight
    clock, events = press(clock, 0, s(10) - 1)  # the press was made just before the flag
    assert isinstance(events[-1], Pressed)
    assert remaining(clock, 0, s(11)) == 1


MS = 1_000_000


def test_a_press_stamped_before_the_flag_wins_though_it_is_handled_after() -> None:
    """The arbiter's case: pressed 10 ms before the flag, a tick at +20 ms, the press
    handled at +40 ms. The clock judges by the press's stamp."""
    clock = clock_of("10s+2")
    fall = s(10)
    ticked, events = tick(clock, fall + 20 * MS)
    assert events == () and ticked == clock  # not final while a press may be on its way
    clock, events = press(ticked, 0, fall - 10 * MS)
    assert not any(isinstance(e, FlagFell) for e in events)
    assert events[-1] == Pressed(fall - 10 * MS, 0, 1, fall - 10 * MS, s(2))
    assert clock.players[0].flagged_at is None
    assert remaining(clock, 0, fall + 40 * MS) == 10 * MS + s(2)


def test_a_runner_judges_a_late_press_by_its_stamp() -> None:
    from companion.clock.presses import ButtonPress
    from companion.clock.runner import ClockRunner

    now = [0]
    runner = ClockRunner(new_clock([parse("10")] * 2), now_ns=lambda: now[0])
    runner.start(0)
    now[0] = s(10) + 20 * MS
    assert runner.tick() == ()
    assert not runner.display().players[0].flagged  # 0.0, but the flag is not final yet
    now[0] = s(10) + 40 * MS
    events = runner.handle(ButtonPress("player", 0, s(10) - 10 * MS))
    assert isinstance(events[-1], Pressed) and runner.clock.running == 1
    assert runner.clock.players[0].flagged_at is None


def test_a_flag_is_final_once_no_press_from_before_it_can_arrive() -> None:
    clock = clock_of("10")
    assert tick(clock, s(10) + SETTLE_NS - 1)[1] == ()
    clock, events = tick(clock, s(10) + SETTLE_NS)
    assert events == (FlagFell(s(10), 0),)
    assert display(clock, s(11)).players[0].flagged
    # A press that took longer than that to arrive is refused, saying so; the flag stands.
    clock, events = press(clock, 0, s(10) - 1)
    assert isinstance(events[0], PressIgnored) and "flag" in events[0].reason
    assert clock.players[0].flagged_at == s(10)


def test_fischer_increment_only_while_the_flag_stands() -> None:
    clock = clock_of("60+5")
    clock, t, _ = moves(clock, 10)
    assert remaining(clock, 0, t) == s(55)  # 60 - 10 + 5
    clock, t, _ = moves(clock, 1, 56, t0=t)  # 1 moves; 0 then takes 56 s of 55: flagged
    assert clock.players[0].flagged_at == s(10) + s(1) + s(55)
    assert remaining(clock, 0, t) == 0  # no increment after the flag
    assert clock.players[0].earned_ns == s(60) + s(5)


def test_bronstein_delay_never_adds_time() -> None:
    clock = clock_of("60b5")
    clock, _, _ = moves(clock, 3, 1, 8)
    # 0: 3 s used, all 3 s given back; then 8 s used and only 5 s given back.
    assert clock.players[0].main_ns == s(60) - s(8) + s(5)
    assert clock.players[1].main_ns == s(60)


def test_simple_delay_waits_before_counting_down() -> None:
    clock = clock_of("60d5")
    assert remaining(clock, 0, s(4)) == s(60)
    assert remaining(clock, 0, s(7)) == s(58)
    clock, t, _ = moves(clock, 3, 9)
    assert clock.players[0].main_ns == s(60)
    assert clock.players[1].main_ns == s(56)
    assert flag_instant(clock) == t + s(65)


def test_simple_delay_with_an_increment() -> None:
    clock = clock_of("60d5+2")
    assert remaining(clock, 0, s(4)) == s(60)  # the delay runs first
    clock, t, events = moves(clock, 3, 9)
    assert clock.players[0].main_ns == s(62)  # no main time used, 2 s added
    assert clock.players[1].main_ns == s(60 - 4 + 2)
    assert [e.earned_ns for e in events if isinstance(e, Pressed)] == [s(2), s(2)]
    assert flag_instant(clock) == t + s(5) + s(62)


def test_bronstein_delay_with_an_increment() -> None:
    clock = clock_of("60b5+2")
    clock, _, _ = moves(clock, 3, 1, 8)
    # 3 s used, 3 s given back, 2 s added; then 8 s used, 5 s given back, 2 s added.
    assert clock.players[0].main_ns == s(60) + s(2) - s(8) + s(5) + s(2)
    assert clock.players[1].main_ns == s(60) - s(1) + s(1) + s(2)


def test_no_increment_nor_refund_after_the_flag_with_a_delay() -> None:
    clock = clock_of("10d5+2")
    clock, _ = tick(clock, s(16))  # 5 s of delay, then 10 s of main time: flagged at 15 s
    assert clock.players[0].flagged_at == s(15)
    clock, events = press(clock, 0, s(17))
    assert remaining(clock, 0, s(17)) == 0
    assert [e.earned_ns for e in events if isinstance(e, Pressed)] == [0]


def test_a_simple_delay_shows_counting_down() -> None:
    clock = clock_of("60d5+2")
    shown = display(clock, s(1.5)).players
    assert (shown[0].text, shown[0].delay_ns, shown[0].detail) == ("1:00", s(3.5), "delay 3.5")
    assert shown[1].delay_ns == 0 and shown[1].detail == ""  # waiting: no delay runs
    shown = display(clock, s(7)).players
    assert (shown[0].text, shown[0].delay_ns, shown[0].detail) == ("0:58", 0, "")
    clock, _ = pause(clock, s(2))
    assert display(clock, s(30)).players[0].detail == "delay 3.0"  # it waits while paused
    clock, _ = resume(clock, s(30))
    clock, _ = press(clock, 0, s(31))
    assert display(clock, s(31)).players[1].detail == "delay 5.0"
    assert display(clock, s(31)).players[0].detail == ""
    bronstein = clock_of("60b5")  # counts down at once: nothing to wait for
    assert display(bronstein, s(1)).players[0].delay_ns == 0


def test_hourglass_moves_time_to_the_opponent() -> None:
    clock = clock_of("*60")
    clock, t, _ = moves(clock, 20)
    assert remaining(clock, 0, t) == s(40) and remaining(clock, 1, t) == s(80)
    assert remaining(clock, 0, t + s(10)) == s(50)  # 1 is running: 10 s flows to 0
    clock, t, _ = moves(clock, 10, t0=t)
    assert clock.players[0].main_ns + clock.players[1].main_ns == s(120)


def test_hourglass_keeps_the_total_when_a_flag_falls() -> None:
    clock = clock_of("*60")
    assert remaining(clock, 0, s(59)) + remaining(clock, 1, s(59)) == s(120)
    clock, events = tick(clock, s(61))
    assert events == (FlagFell(s(60), 0),)
    # All of 0's sand has run to 1: 1 keeps it, before and after 0's late press.
    assert (remaining(clock, 0, s(61)), remaining(clock, 1, s(61))) == (0, s(120))
    clock, _ = press(clock, 0, s(62))
    assert (remaining(clock, 0, s(62)), remaining(clock, 1, s(62))) == (0, s(120))
    assert remaining(clock, 0, s(72)) + remaining(clock, 1, s(72)) == s(120)


def test_japanese_byo_yomi_uses_periods_only_when_they_run_out() -> None:
    clock = clock_of("10|3x5")
    clock, t, events = moves(clock, 12)  # 10 s main, then 2 s of a 5 s period: none used
    assert clock.players[0].in_byo and clock.players[0].byo_periods == 3
    clock, t, events = moves(clock, 1, 7, t0=t)  # a 7 s move uses one period
    assert clock.players[0].byo_periods == 2
    assert PeriodsUsed(t, 0, 2) in events
    clock, t, _ = moves(clock, 1, t0=t)
    assert flag_instant(clock) == t + s(10)  # two periods of 5 s left


def test_canadian_byo_yomi_blocks_of_moves() -> None:
    clock = clock_of("10|3/20")
    # 0's first move uses all 10 s of main time: it is the first move of a 3-move block.
    clock, t, _ = moves(clock, 10, 1)
    assert (clock.players[0].byo_moves, clock.players[0].byo_ns) == (1, s(20))
    clock, t, _ = moves(clock, 6, 1, t0=t)
    assert (clock.players[0].byo_moves, clock.players[0].byo_ns) == (2, s(14))
    clock, t, _ = moves(clock, 7, 1, t0=t)  # the third move renews the block
    assert (clock.players[0].byo_moves, clock.players[0].byo_ns) == (0, s(20))


def test_multi_period_controls_count_moves() -> None:
    clock = clock_of("2/100+10:50+5")
    clock, t, events = moves(clock, 30, 1, 30, 1)
    # 0: 100 - 30 + 10 - 30 + 10 = 60 after 2 moves, then the second period adds 50.
    assert clock.players[0].main_ns == s(110)
    assert StageStarted(t - s(1), 0, 1, s(50)) in events
    clock, t, _ = moves(clock, 10, t0=t)
    assert clock.players[0].main_ns == s(105)  # the second period's 5 s increment


def test_pgn_periods_repeat() -> None:
    clock = clock_of("1/10")
    clock, _, _ = moves(clock, 4, 1, 4)
    assert clock.players[0].main_ns == s(22)  # 10 - 4 + 10 - 4 + 10
    assert clock.players[0].stage == 2


def test_per_move_limit_forfeits_the_move_and_passes_on() -> None:
    clock = clock_of("-!30", players=3)
    clock, events = tick(clock, s(31))
    assert events[0] == MoveLimitExpired(s(30), 0, 1)
    assert clock.running == 1 and clock.segment_start == s(30)
    clock, events = tick(clock, s(95))
    assert [e.player for e in events if isinstance(e, MoveLimitExpired)] == [1, 2]


def test_upcount_counts_up_and_never_flags() -> None:
    clock = clock_of("^")
    clock, t, _ = moves(clock, 5, 7, 9)
    assert remaining(clock, 0, t) == s(14) and remaining(clock, 1, t) == s(7)
    assert flag_instant(clock) is None


def test_handicap_controls_and_custom_order() -> None:
    clock = new_clock([parse("300"), parse("600"), parse("60+2")], order=[2, 0, 1])
    clock, _ = start(clock, 2, 0)
    clock, _ = press(clock, 2, s(10))
    assert clock.running == 0
    clock, _ = press(clock, 0, s(20))
    assert clock.running == 1
    assert clock.players[2].main_ns == s(52)


def test_presses_at_the_wrong_time_are_ignored() -> None:
    clock = clock_of("300")
    clock, events = press(clock, 1, s(1))
    assert isinstance(events[0], PressIgnored) and clock.running == 0
    clock, _ = pause(clock, s(2))
    clock, events = press(clock, 0, s(3))
    assert isinstance(events[0], PressIgnored)
    clock, _ = resume(clock, s(10))
    assert remaining(clock, 0, s(11)) == s(297)  # 2 s before the pause, 1 s after


def test_a_first_press_starts_the_next_player() -> None:
    clock = new_clock([parse("300")] * 2)
    clock, _ = press(clock, 1, s(5))
    assert clock.running == 0 and clock.segment_start == s(5)


def test_arbiter_adjust_set_and_undo() -> None:
    clock = clock_of("300+2")
    clock, _ = adjust(clock, 1, s(60), s(1))
    assert remaining(clock, 1, s(1)) == s(360)
    clock, _ = press(clock, 0, s(10))
    clock, _ = undo(clock, s(12))
    assert clock.running == 0 and remaining(clock, 0, s(12)) == s(288)
    with pytest.raises(ClockError):
        undo(clock, s(13))
    clock, _ = set_time(clock, 0, s(100), s(20))
    assert remaining(clock, 0, s(20)) == s(100)
    flagged = clock_of("5")
    flagged, _ = tick(flagged, s(6))
    flagged, _ = set_time(flagged, 0, s(30), s(7))
    assert remaining(flagged, 0, s(7)) == s(30) and flagged.players[0].flagged_at is None


def test_time_added_in_japanese_byo_yomi_is_used_before_the_period() -> None:
    clock = clock_of("10|3x30")
    clock, t, _ = moves(clock, 12)  # 0 is in byo-yomi: 3 periods of 30 s
    assert remaining(clock, 0, t) == s(30)
    clock, events = adjust(clock, 0, s(10), t)
    assert events == (TimeAdjusted(t, 0, s(10)),)
    assert remaining(clock, 0, t) == s(40)  # 10 s, then the period
    assert display(clock, t).players[0].detail == "3 x 0:30"
    clock, t, _ = moves(clock, 1, t0=t)
    assert flag_instant(clock) == t + s(10) + 3 * s(30)
    clock, t, _ = moves(clock, 25, t0=t)  # 10 s added, then 15 s of a period: none used
    assert clock.players[0].byo_periods == 3 and remaining(clock, 0, t) == s(30)


def test_time_added_to_a_running_player_in_byo_yomi_shows_and_counts_at_once() -> None:
    clock = clock_of("10|3x30")
    before = flag_instant(clock)
    assert before == s(100)
    # 15 s into the move: the main time is gone and 5 s of the first period too.
    clock, _ = adjust(clock, 0, s(10), s(15))
    assert remaining(clock, 0, s(15)) == s(35)
    assert flag_instant(clock) == s(110)
    clock, _ = press(clock, 0, s(20))
    assert clock.players[0].in_byo and clock.players[0].byo_periods == 3


def test_time_added_in_canadian_byo_yomi() -> None:
    clock = clock_of("10|3/20")
    clock, t, _ = moves(clock, 15, 1)  # 0: 5 s of the block used, 15 s left for 2 moves
    assert remaining(clock, 0, t) == s(15)
    clock, _ = adjust(clock, 0, s(10), t + s(3))  # 3 s into 0's move
    assert remaining(clock, 0, t + s(3)) == s(22)
    assert flag_instant(clock) == t + s(25)
    clock, _ = press(clock, 0, t + s(5))  # 5 s of the 10 added: the block is untouched
    pt = clock.players[0]
    assert (pt.main_ns, pt.byo_ns, pt.byo_moves) == (s(5), s(15), 2)
    assert remaining(clock, 0, t + s(5)) == s(20)


def test_time_added_lifts_a_fallen_flag_of_a_waiting_player() -> None:
    clock = clock_of("5+2")  # 5 min: the increment shows it is not given after a flag
    clock, _ = tick(clock, s(300) + SETTLE_NS)
    clock, _ = press(clock, 0, s(301))  # the flagged player passes the turn
    assert clock.players[0].flagged_at == s(300) and clock.running == 1
    clock, events = adjust(clock, 0, s(10), s(302))
    assert events == (TimeAdjusted(s(302), 0, s(10)),)
    assert clock.players[0].flagged_at is None
    assert remaining(clock, 0, s(302)) == s(10)
    assert not display(clock, s(302)).players[0].flagged
    clock, _ = press(clock, 1, s(303))
    assert flag_instant(clock) == s(313)


def test_time_added_lifts_the_flag_of_the_running_player() -> None:
    clock = clock_of("60d5")
    clock, _ = tick(clock, s(66))  # 5 s of delay and 60 s: the flag fell at 65 s
    assert clock.players[0].flagged_at == s(65)
    clock, _ = adjust(clock, 0, s(10), s(70))
    assert clock.players[0].flagged_at is None
    # 10 s from the arbiter's correction: the move's delay was used before the flag.
    assert remaining(clock, 0, s(70)) == s(10)
    assert flag_instant(clock) == s(80)
    clock, _ = press(clock, 0, s(75))
    assert clock.players[0].main_ns == s(5)


def test_time_added_after_a_flag_that_is_not_final_yet_counts_from_now() -> None:
    clock = clock_of("60")
    clock, events = adjust(clock, 0, s(10), s(60) + 100 * MS)
    assert not any(isinstance(e, FlagFell) for e in events)
    assert remaining(clock, 0, s(60) + 100 * MS) == s(10)
    assert flag_instant(clock) == s(70) + 100 * MS


def test_time_added_after_an_hourglass_flag_that_is_not_final_yet() -> None:
    clock = clock_of("*60")
    t = s(60) + 100 * MS  # 0's sand ran out 0.1 s ago: all 60 s of it are 1's
    clock, _ = adjust(clock, 0, s(10), t)
    assert remaining(clock, 0, t) == s(10) and remaining(clock, 1, t) == s(120)
    assert flag_instant(clock) == t + s(10)
    assert remaining(clock, 0, t + s(4)) + remaining(clock, 1, t + s(4)) == s(130)
    # Paused with no sand left, as an arbiter's '-' can leave it: the time is added alike.
    clock = clock_of("*60")
    clock, _ = pause(clock, s(20))
    clock, _ = adjust(clock, 0, -s(60), s(21))
    clock, _ = adjust(clock, 0, s(10), s(22))
    assert remaining(clock, 0, s(22)) == s(10) and remaining(clock, 1, s(22)) == s(80)


def test_time_taken_away_stops_at_0_and_never_flags_in_the_past() -> None:
    clock = clock_of("60")
    clock, events = adjust(clock, 0, -s(100), s(55))
    assert events == (TimeAdjusted(s(55), 0, -s(5)),)
    assert flag_instant(clock) == s(55)
    clock, events = tick(clock, s(56))
    assert events == (FlagFell(s(55), 0),)
    clock, events = adjust(clock, 0, -s(10), s(57))  # nothing left to take
    assert events == (TimeAdjusted(s(57), 0, 0),) and clock.players[0].flagged_at == s(55)


def test_time_added_to_an_hourglass_and_a_stopwatch() -> None:
    clock = clock_of("*60")
    clock, _ = adjust(clock, 0, s(10), s(5))
    assert remaining(clock, 0, s(5)) == s(65) and flag_instant(clock) == s(70)
    watch = clock_of("^")
    watch, _ = adjust(watch, 1, s(10), s(5))
    assert remaining(watch, 1, s(5)) == s(10)


def test_switch_to_follows_the_game_not_the_order() -> None:
    clock = clock_of("300", players=3)
    clock, _ = switch_to(clock, 2, s(10))
    assert clock.running == 2 and clock.players[0].main_ns == s(290)


def test_bad_clocks() -> None:
    with pytest.raises(ClockError):
        new_clock([parse("300")])
    with pytest.raises(ClockError):
        new_clock([parse("*60")] * 3)
    with pytest.raises(ClockError):
        new_clock([parse("300")] * 2, order=[0, 0])


def test_controls_from_code_and_text_agree() -> None:
    assert parse("40/5400+30:1800+30") == TimeControl.stages_of(
        Stage(40, s(5400), s(30)), Stage(None, s(1800), s(30))
    )
    assert parse("3600|5x30").byo_yomi == ByoYomi(5, s(30))
    assert parse("300b5").stages[0].delay is Delay.BRONSTEIN
    assert parse("300d5+2").stages[0] == Stage(None, s(300), s(2), s(5), Delay.SIMPLE)
    assert parse("*180").kind is Kind.HOURGLASS
