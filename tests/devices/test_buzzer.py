"""Beeps: which transitions call for one, and the buzzer that sounds them."""

from __future__ import annotations

import io
import itertools
import time
from dataclasses import replace
from typing import Any

import pytest
from gpiozero import Buzzer

from companion.clock.display import ClockDisplay
from companion.config import ClockConfig
from companion.devices.buzzer import (
    FLAG_TONE_S,
    SHORT_BEEP_S,
    Beep,
    ClockBuzzer,
    TerminalBell,
    beeps_due,
)
from tests.devices.conftest import display, player

S = 1_000_000_000
MS = 1_000_000
ALL_ON = ClockConfig()
WARNING = Beep("warning", SHORT_BEEP_S)
COUNTDOWN = Beep("countdown", SHORT_BEEP_S)
FLAG = Beep("flag", FLAG_TONE_S)


def _running(first_ns: int, second_ns: int = 60 * S, *, running: int = 0) -> ClockDisplay:
    return display(player(first_ns), player(second_ns), running=running)


def _kinds(before_ns: int, after_ns: int, settings: ClockConfig = ALL_ON) -> list[str]:
    return [b.kind for b in beeps_due(_running(before_ns), _running(after_ns), settings)]


@pytest.mark.parametrize(
    ("before_ns", "after_ns", "kinds"),
    [
        (11 * S, 10 * S + 1, []),
        (10 * S + 1, 10 * S, []),  # 10.0 s left is not yet below 10 s
        (10 * S, 10 * S - 1, ["warning"]),
        (10 * S + 50 * MS, 9_950 * MS, ["warning"]),
        (9_950 * MS, 9_850 * MS, []),  # once only
        (12 * S, 8 * S, ["warning"]),  # a late update still beeps
        (8 * S, 6 * S, []),
        (5 * S + 1, 5 * S, []),
        (5 * S, 5 * S - 1, ["countdown"]),
        (4 * S + 20 * MS, 3_980 * MS, ["countdown"]),
        (3 * S + 20 * MS, 2_980 * MS, ["countdown"]),
        (2 * S + 20 * MS, 1_980 * MS, ["countdown"]),
        (1 * S + 20 * MS, 980 * MS, ["countdown"]),
        (4_900 * MS, 4_100 * MS, []),  # between whole seconds: quiet
        (980 * MS, 1, []),  # below the last whole second there is nothing left to count
        (4_500 * MS, 1_500 * MS, ["countdown"]),  # three seconds at once: one beep
        (10 * S, 4 * S, ["warning", "countdown"]),
        (30 * S, 31 * S, []),  # an upcount clock only rises
        (0, 2 * S, []),
        (4 * S, 8 * S, []),  # a byo-yomi period starting again
    ],
)
def test_warning_and_countdown_crossings(before_ns: int, after_ns: int, kinds: list[str]) -> None:
    assert _kinds(before_ns, after_ns) == kinds


@pytest.mark.parametrize("second", [5, 4, 3, 2, 1])
def test_each_of_the_last_five_seconds_beeps(second: int) -> None:
    before, after = _running(second * S + 30 * MS), _running(second * S - 70 * MS)
    assert beeps_due(before, after, ALL_ON) == [COUNTDOWN]


def test_a_whole_countdown_beeps_six_times_in_steps_of_a_tenth() -> None:
    times = range(12 * S, -1, -100 * MS)
    displays = [_running(t) for t in times]
    steps = itertools.pairwise(displays)
    beeps = [beep for then, now in steps for beep in beeps_due(then, now, ALL_ON)]
    assert beeps == [WARNING, COUNTDOWN, COUNTDOWN, COUNTDOWN, COUNTDOWN, COUNTDOWN]


def test_the_warning_threshold_comes_from_the_settings() -> None:
    settings = replace(ALL_ON, warning_s=30)
    assert _kinds(30 * S, 29 * S, settings) == ["warning"]
    assert _kinds(10 * S, 9 * S, settings) == []


def test_a_falling_flag_gives_a_long_tone() -> None:
    before = display(player(50 * MS), player(30 * S), running=0)
    after = display(player(0, flagged=True), player(30 * S))
    assert beeps_due(before, after, ALL_ON) == [FLAG]
    assert FLAG.duration_s > SHORT_BEEP_S
    # The flag stays down: no second tone.
    assert beeps_due(after, after, ALL_ON) == []


def test_the_flag_comes_first_and_silences_the_flagged_players_countdown() -> None:
    before = display(player(1_200 * MS), player(30 * S), running=0)
    after = display(player(0, flagged=True), player(30 * S), running=0)
    assert beeps_due(before, after, ALL_ON) == [FLAG]


def test_a_flag_on_the_waiting_player_with_a_countdown_on_the_running_one() -> None:
    before = display(player(0), player(5_100 * MS), running=1)
    after = display(player(0, flagged=True), player(4_900 * MS), running=1)
    assert beeps_due(before, after, ALL_ON) == [FLAG, COUNTDOWN]


@pytest.mark.parametrize(
    ("setting", "before", "after"),
    [
        ("beep_warning", _running(10 * S), _running(9 * S)),
        ("beep_countdown", _running(5 * S), _running(4 * S)),
        (
            "beep_flag",
            display(player(1), player(S), running=0),
            display(player(0, flagged=True), player(S)),
        ),
    ],
)
def test_each_kind_can_be_switched_off(
    setting: str, before: ClockDisplay, after: ClockDisplay
) -> None:
    assert len(beeps_due(before, after, ALL_ON)) == 1
    assert beeps_due(before, after, replace(ALL_ON, **{setting: False})) == []


def test_only_the_running_player_is_beeped_at() -> None:
    # Player 0 pressed at 9.9 s: the clock is player 1's now, and player 0 hears nothing.
    before = display(player(10_100 * MS), player(30 * S), running=0)
    after = display(player(9_900 * MS), player(29_900 * MS), running=1)
    assert beeps_due(before, after, ALL_ON) == []
    # The second player's crossing counts.
    assert beeps_due(
        _running(60 * S, 10 * S, running=1), _running(60 * S, 9 * S, running=1), ALL_ON
    ) == [WARNING]


def test_nothing_while_paused_or_before_the_first_press() -> None:
    paused = display(player(9 * S), player(S), paused=True)
    assert beeps_due(display(player(11 * S), player(S), paused=True), paused, ALL_ON) == []
    assert (
        beeps_due(display(player(11 * S), player(S)), display(player(9 * S), player(S)), ALL_ON)
        == []
    )


def test_nothing_without_a_previous_display_or_after_a_new_clock() -> None:
    flagged = display(player(0, flagged=True), player(S))
    assert beeps_due(None, flagged, ALL_ON) == []
    assert beeps_due(display(player(S)), flagged, ALL_ON) == []
    assert beeps_due(display(player(11 * S)), _running(9 * S), ALL_ON) == []


def _wait_for(condition: Any, timeout_s: float = 2.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)


def test_the_buzzer_sounds_on_a_transition(pins: Any) -> None:
    pin = pins.pin(13)
    with ClockBuzzer(13, ALL_ON, pin_factory=pins) as buzzer:
        assert buzzer.update(_running(10_050 * MS)) is None  # the first display: nothing yet
        assert buzzer.update(_running(10_010 * MS)) is None
        assert [s.state for s in pin.states] == [False]
        assert buzzer.update(_running(9_990 * MS)) == WARNING
        _wait_for(lambda: [s.state for s in pin.states] == [False, True, False])
        on, off = pin.states[1:]
        assert off.timestamp - on.timestamp == pytest.approx(SHORT_BEEP_S, abs=0.08)


def test_the_buzzer_plays_the_most_important_beep(pins: Any) -> None:
    pin = pins.pin(13)
    with ClockBuzzer(13, ALL_ON, pin_factory=pins) as buzzer:
        buzzer.update(display(player(1_100 * MS), player(30 * S), running=0))
        assert buzzer.update(display(player(0, flagged=True), player(30 * S))) == FLAG
        _wait_for(lambda: pin.state)
        time.sleep(SHORT_BEEP_S * 2)
        assert pin.state  # a long tone, still sounding
        buzzer.close()
        assert not pin.state  # closing silences it


def test_the_buzzer_stays_quiet_when_switched_off(pins: Any) -> None:
    quiet = ClockConfig(beep_warning=False, beep_countdown=False, beep_flag=False)
    pin = pins.pin(13)
    with ClockBuzzer(13, quiet, pin_factory=pins) as buzzer:
        for t in range(12 * S, -1, -100 * MS):
            buzzer.update(_running(t))
        buzzer.update(display(player(0, flagged=True), player(S)))
        time.sleep(0.02)
        assert [s.state for s in pin.states] == [False]


def test_the_buzzer_uses_the_default_factory_and_releases_its_pin(pins: Any) -> None:
    buzzer = ClockBuzzer(13, ALL_ON)
    buzzer.close()
    buzzer.close()
    Buzzer(13).close()


def test_the_terminal_bell_rings_for_the_same_transitions() -> None:
    out = io.StringIO()
    bell = TerminalBell(ALL_ON, out)
    assert bell.update(_running(10 * S)) is None
    assert bell.update(_running(9 * S)) == WARNING
    assert bell.update(_running(8 * S)) is None
    assert bell.update(_running(4 * S)) == COUNTDOWN
    assert out.getvalue() == "\a\a"
    bell.close()


def test_the_alarm_beeps_three_times_on_an_alert(pins: Any) -> None:
    from companion.devices.alarm import BEEPS, AlertBuzzer

    pin = pins.pin(19)
    with AlertBuzzer(19, pin_factory=pins) as alarm:
        alarm.sound()
        _wait_for(lambda: [s.state for s in pin.states].count(True) == BEEPS)
        _wait_for(lambda: not pin.state)
    assert [s.state for s in pin.states] == [False] + [True, False] * BEEPS


def test_the_terminal_alarm_rings_the_bell() -> None:
    import io

    from companion.devices.alarm import TerminalAlarm

    out = io.StringIO()
    TerminalAlarm(out).sound()
    assert out.getvalue() == "\a"
