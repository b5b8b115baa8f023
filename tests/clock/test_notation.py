"""Time-control strings: PGN exactly, the extension and the shorthand; printing round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.clock.controls import NS_PER_S, ByoYomi, Delay, Kind, Stage, TimeControl, s
from companion.clock.display import format_time
from companion.clock.notation import (
    BadTimeControl,
    describe,
    format_control,
    format_pgn,
    parse,
    parse_pgn,
)

PGN = ["?", "-", "300", "4500+60", "40/9000", "*180", "40/7200:3600", "40/9000:20/3600:900+30"]


@pytest.mark.parametrize("text", PGN)
def test_pgn_reads_exactly_and_prints_back_the_same(text: str) -> None:
    assert format_control(parse_pgn(text)) == text
    assert parse(text) == parse_pgn(text)


def test_pgn_meanings() -> None:
    assert parse_pgn("40/9000") == TimeControl.stages_of(Stage(40, s(9000)))
    assert parse_pgn("4500+60") == TimeControl.sudden_death(4500, 60)
    assert parse_pgn("*180") == TimeControl(Kind.HOURGLASS, hourglass_ns=s(180))
    assert parse_pgn("?").kind is Kind.UNKNOWN and parse_pgn("-").kind is Kind.NONE
    stages = parse_pgn("40/7200:3600").stages
    assert stages == (Stage(40, s(7200)), Stage(None, s(3600)))


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("5+3", "300+3"),
        ("90+30", "5400+30"),
        ("15+10", "900+10"),
        ("180+2", "180+2"),
        ("90m+30", "5400+30"),
        ("40/90m+30:30m+30", "40/5400+30:1800+30"),
        ("300d5", "300d5"),
        ("300b5", "300b5"),
        ("300d5+2", "300d5+2"),
        ("300b5+2", "300b5+2"),
        ("5md3+2", "300d3+2"),
        ("40/90md5+30:30md5+30", "40/5400d5+30:1800d5+30"),
        ("0d5+1", "0d5+1"),
        ("3600|5x30", "3600|5x30"),
        ("3600|25/600", "3600|25/600"),
        ("-!30", "-!30"),
        ("^", "^"),
        ("^!30", "^!30"),
        ("300+0.5", "300+0.5"),
        (" 300 ", "300"),
    ],
)
def test_extension_and_shorthand(text: str, canonical: str) -> None:
    control = parse(text)
    assert format_control(control) == canonical
    assert parse(canonical) == control
    assert describe(control)


@pytest.mark.parametrize(
    ("text", "position", "problem"),
    [
        ("", 1, "empty"),
        ("40/", 4, "seconds after '/'"),
        ("abc", 1, "expected a number"),
        ("300+", 5, "after '+'"),
        ("300x", 4, "unexpected 'x'"),
        ("3600|5", 7, "'x'"),
        ("0/300", 1, "moves must be"),
        ("300!0", 5, "more than 0"),
        ("0", 1, "0 s"),
        ("3600|0x30", 6, "above 0"),
        ("300:40/9000", 1, "must be the last"),
        ("40/9000:300:40/7200", 9, "must be the last"),
        ("40/0", 1, "0 s"),
        ("40/0+30", 1, "0 s"),
        ("*0", 2, "0 s"),
        ("0+5", 1, "0 s"),
        ("0b5", 1, "0 s"),
        ("40/5400:0", 9, "0 s"),
        ("300+2d5", 6, "the delay before the increment"),
        ("300d5+", 7, "after '+'"),
        ("300d5b2", 6, "unexpected 'b'"),
    ],
)
def test_errors_name_the_position(text: str, position: int, problem: str) -> None:
    with pytest.raises(BadTimeControl) as err:
        parse(text)
    assert err.value.position + 1 == position
    assert problem in str(err.value) and f"position {position}" in str(err.value)


@pytest.mark.parametrize("text", ["300:40/9000", "40/0", "*0", "0+5"])
def test_strict_pgn_refuses_what_flags_at_once_or_cannot_be_reached(text: str) -> None:
    with pytest.raises(BadTimeControl):
        parse_pgn(text)


@pytest.mark.parametrize("text", ["0d5", "0|5x30", "0|10/300", "40/0|5x30", "-", "?"])
def test_controls_that_start_at_0_s_but_give_time(text: str) -> None:
    # A simple delay, or byo-yomi after no main time, gives a first move time of its own.
    assert format_control(parse(text)) == text


def test_a_delay_with_an_increment() -> None:
    assert parse("300d5+2") == TimeControl.stages_of(Stage(None, s(300), s(2), s(5), Delay.SIMPLE))
    assert parse("300b5+2").stages[0] == Stage(None, s(300), s(2), s(5), Delay.BRONSTEIN)
    assert describe(parse("300d5+2")) == "5 min with a 5 s delay + 2 s per move"
    assert describe(parse("300b5+2")) == "5 min with a 5 s Bronstein delay + 2 s per move"


@pytest.mark.parametrize(
    "text", ["300d5+2", "40/5400+30", "300d5", "300b5", "90m", "3600|5x30", "-!30", "^", "1.5"]
)
def test_strict_pgn_refuses_the_extension(text: str) -> None:
    with pytest.raises(BadTimeControl, match="PGN"):
        parse_pgn(text)


SECONDS = st.integers(1, 20_000).map(s) | st.integers(1, 10**9).map(lambda ns: ns * 1000)
STAGE = st.builds(
    Stage,
    st.one_of(st.none(), st.integers(1, 60)),
    SECONDS,
    st.integers(0, 120).map(s),
    st.integers(0, 120).map(s),
    st.sampled_from([Delay.SIMPLE, Delay.BRONSTEIN]),
)
CONTROL = st.one_of(
    st.builds(
        lambda stages, byo, limit: TimeControl(
            Kind.STAGES, tuple(stages), byo_yomi=byo, move_limit_ns=limit
        ),
        st.builds(
            lambda counted, last: [*counted, last],
            st.lists(STAGE.filter(lambda stage: stage.moves is not None), max_size=2),
            STAGE,
        ),
        st.none()
        | st.builds(ByoYomi, st.integers(1, 9), SECONDS, st.just(1))
        | st.builds(lambda m, p: ByoYomi(1, p, m), st.integers(2, 40), SECONDS),
        st.none() | SECONDS,
    ),
    st.builds(lambda ns: TimeControl(Kind.HOURGLASS, hourglass_ns=ns), SECONDS),
    st.sampled_from([TimeControl(Kind.UPCOUNT), TimeControl(Kind.NONE), TimeControl(Kind.UNKNOWN)]),
)


@given(CONTROL)
def test_printing_then_parsing_gives_the_same_control(control: TimeControl) -> None:
    text = format_control(control)
    assert parse(text) == control, text


@pytest.mark.parametrize(
    ("ns", "text"),
    [
        (3_725 * NS_PER_S, "1:02:05"),
        (3_600 * NS_PER_S, "1:00:00"),
        (65 * NS_PER_S, "1:05"),
        (20 * NS_PER_S, "0:20"),
        (19_990_000_000, "19.9"),
        (9_340_000_000, "9.3"),
        (0, "0.0"),
        (-5, "0.0"),
        (59 * NS_PER_S, "0:59"),
    ],
)
def test_display_format(ns: int, text: str) -> None:
    assert format_time(ns) == text


def test_tenths_threshold_is_configurable() -> None:
    assert format_time(25 * NS_PER_S, tenths_below_ns=30 * NS_PER_S) == "25.0"
    assert format_time(5 * NS_PER_S, tenths_below_ns=0) == "0:05"


def test_pgn_output_for_what_pgn_can_say() -> None:
    assert format_pgn(parse_pgn("90+30")) == "90+30"
    assert parse_pgn(format_pgn(parse_pgn("90+30"))) == parse_pgn("90+30")
    assert format_control(parse_pgn("90+30")) == "90s+30"
    with pytest.raises(BadTimeControl):
        format_pgn(parse("300d5"))
