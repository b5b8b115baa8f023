"""ClockButtons on gpiozero mock pins: one timestamped press per real press."""

from __future__ import annotations

from typing import Any

import gpiozero.pins.mock
import pytest
from gpiozero import Button
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory, MockPin

from companion.clock.presses import ButtonPress
from companion.devices.buttons import ClockButtons
from tests.devices.conftest import FakeClock

MS = 1_000_000


def _press(pin: Any, clock: FakeClock, t_ms: float) -> None:
    clock.t_ns = int(t_ms * MS)
    pin.drive_low()


def _release(pin: Any, clock: FakeClock, t_ms: float) -> None:
    clock.t_ns = int(t_ms * MS)
    pin.drive_high()


@pytest.fixture()
def clock() -> FakeClock:
    return FakeClock(1_000 * MS)


class PinTime:
    """The mock pins' own clock (gpiozero dates each edge by it), held still unless moved."""

    def __init__(self) -> None:
        self.s = 5.0

    def __call__(self) -> float:
        return self.s


@pytest.fixture(autouse=True)
def pin_time(monkeypatch: pytest.MonkeyPatch) -> PinTime:
    """Still, so that an edge is seen at the instant it happens unless a test says not."""
    held = PinTime()
    monkeypatch.setattr(gpiozero.pins.mock, "monotonic", held)
    return held


def press_delivered_late(
    pin_time: PinTime, clock: FakeClock, late_s: float, late_ns: int
) -> list[ButtonPress]:
    """One press of pin 17 whose callback runs `late_s` after the edge by the pins' clock
    and `late_ns` after it by the companion's."""

    class LatePin(MockPin):  # type: ignore[misc]
        def _call_when_changed(self) -> None:
            pin_time.s += late_s
            clock.t_ns += late_ns
            super()._call_when_changed()

    factory = MockFactory(pin_class=LatePin)
    presses: list[ButtonPress] = []
    try:
        with ClockButtons([17], on_press=presses.append, clock_ns=clock, pin_factory=factory):
            factory.pin(17).drive_low()
    finally:
        factory.reset()
    return presses


def test_a_press_is_dated_at_its_edge_not_when_it_is_handled(
    pin_time: PinTime, clock: FakeClock
) -> None:
    """On a busy machine gpiozero may run the callback well after the pin changed; the pin
    factory dates the edge itself (the kernel's time, with lgpio), and the press takes it."""
    presses = press_delivered_late(pin_time, clock, 0.040, 40 * MS)
    assert presses == [ButtonPress("player", 0, 1_000 * MS)]


@pytest.mark.parametrize("edge_s", [-0.5, 3.0], ids=["in-the-future", "long-ago"])
def test_an_edge_time_on_some_other_clock_is_not_believed(
    pin_time: PinTime, clock: FakeClock, edge_s: float
) -> None:
    presses = press_delivered_late(pin_time, clock, edge_s, 0)
    assert presses == [ButtonPress("player", 0, 1_000 * MS)]


def test_a_press_gives_exactly_one_press_at_the_clock_time(pins: Any, clock: FakeClock) -> None:
    presses: list[ButtonPress] = []
    with ClockButtons([17, 27], on_press=presses.append, clock_ns=clock, pin_factory=pins):
        pins.pin(17).drive_low()
        assert presses == [ButtonPress("player", 0, 1_000 * MS)]
        pins.pin(17).drive_high()
        assert len(presses) == 1  # letting go is not a press


def test_the_time_is_read_once_at_the_press(pins: Any) -> None:
    reads: list[int] = []

    def ticking_clock() -> int:
        reads.append(len(reads) * MS)
        return reads[-1]

    presses: list[ButtonPress] = []

    def on_press(press: ButtonPress) -> None:
        ticking_clock()  # the clock moves on while the press is handled
        presses.append(press)

    with ClockButtons([17], on_press=on_press, clock_ns=ticking_clock, pin_factory=pins):
        pins.pin(17).drive_low()
    assert presses == [ButtonPress("player", 0, 0)]
    assert reads == [0, MS]


def test_chatter_within_the_window_gives_one_press(pins: Any, clock: FakeClock) -> None:
    presses: list[ButtonPress] = []
    with ClockButtons([17], on_press=presses.append, clock_ns=clock, pin_factory=pins):
        pin = pins.pin(17)
        _press(pin, clock, 0)
        for t in (2, 5, 9, 14, 20, 29.999):
            _release(pin, clock, t)
            _press(pin, clock, t + 0.0005)
        assert presses == [ButtonPress("player", 0, 0)]


def test_a_press_after_the_window_gives_a_second(pins: Any, clock: FakeClock) -> None:
    presses: list[ButtonPress] = []
    with ClockButtons([17], on_press=presses.append, clock_ns=clock, pin_factory=pins):
        pin = pins.pin(17)
        _press(pin, clock, 0)
        _release(pin, clock, 80)
        _press(pin, clock, 150)
        assert presses == [ButtonPress("player", 0, 0), ButtonPress("player", 0, 150 * MS)]


def test_the_window_is_exact_and_configurable(pins: Any, clock: FakeClock) -> None:
    presses: list[ButtonPress] = []
    with ClockButtons(
        [17], on_press=presses.append, clock_ns=clock, debounce_ns=10 * MS, pin_factory=pins
    ):
        pin = pins.pin(17)
        _press(pin, clock, 0)
        _release(pin, clock, 9.999999)  # dropped: within the window
        _press(pin, clock, 10)  # exactly a window after the press: a new press
        assert [p.t_ns for p in presses] == [0, 10 * MS]


def test_chatter_on_release_after_a_long_hold_is_not_a_press(pins: Any, clock: FakeClock) -> None:
    presses: list[ButtonPress] = []
    with ClockButtons([17], on_press=presses.append, clock_ns=clock, pin_factory=pins):
        pin = pins.pin(17)
        _press(pin, clock, 0)
        _release(pin, clock, 600)  # held for 0.6 s, then let go with a rattle
        for t in (601, 604, 610, 625):
            _press(pin, clock, t)
            _release(pin, clock, t + 1)
        assert len(presses) == 1


def test_the_pause_button(pins: Any, clock: FakeClock) -> None:
    presses: list[ButtonPress] = []
    with ClockButtons([17, 27], 22, on_press=presses.append, clock_ns=clock, pin_factory=pins):
        pins.pin(22).drive_low()
        assert presses == [ButtonPress("pause", None, 1_000 * MS)]
        # Let go before closing: gpiozero waits up to its hold time (1 s) to close a held button.
        _release(pins.pin(22), clock, 1_100)


def test_buttons_are_debounced_independently(pins: Any, clock: FakeClock) -> None:
    presses: list[ButtonPress] = []
    with ClockButtons([17, 27], 22, on_press=presses.append, clock_ns=clock, pin_factory=pins):
        _press(pins.pin(17), clock, 0)
        _press(pins.pin(27), clock, 1)  # 1 ms later, on another button: not chatter
        _press(pins.pin(22), clock, 2)
        _release(pins.pin(17), clock, 3)
        _press(pins.pin(17), clock, 4)  # chatter on the first button only
        assert presses == [
            ButtonPress("player", 0, 0),
            ButtonPress("player", 1, 1 * MS),
            ButtonPress("pause", None, 2 * MS),
        ]
        for number in (17, 27, 22):
            _release(pins.pin(number), clock, 100)


def test_presses_at_any_time_are_reported(pins: Any, clock: FakeClock) -> None:
    # Whether a press counts is the clock model's business: the same button twice in a row
    # (the waiting player's button, on a real clock) is reported both times.
    presses: list[ButtonPress] = []
    with ClockButtons([17, 27], 22, on_press=presses.append, clock_ns=clock, pin_factory=pins):
        for t in (0, 500, 1000):
            _press(pins.pin(17), clock, t)
            _release(pins.pin(17), clock, t + 100)
        assert [p.player for p in presses] == [0, 0, 0]


def test_the_default_pin_factory_is_used_when_none_is_given(pins: Any, clock: FakeClock) -> None:
    presses: list[ButtonPress] = []
    with ClockButtons([17], on_press=presses.append, clock_ns=clock):
        pins.pin(17).drive_low()
    assert len(presses) == 1


def test_buttons_pull_up_and_leave_gpiozero_bounce_time_unset(pins: Any) -> None:
    with ClockButtons([17], 22, on_press=lambda press: None, pin_factory=pins):
        for number in (17, 22):
            assert pins.pin(number).pull == "up"
            assert pins.pin(number).bounce is None


def test_close_releases_the_pins_and_stops_reporting(pins: Any, clock: FakeClock) -> None:
    presses: list[ButtonPress] = []
    buttons = ClockButtons([17, 27], 22, on_press=presses.append, clock_ns=clock)
    buttons.close()
    buttons.close()  # twice is fine
    for number in (17, 27, 22):
        Button(number).close()  # free again
    pins.pin(17).drive_low()
    assert presses == []


def test_a_pin_in_use_fails_without_keeping_the_others(pins: Any) -> None:
    with pytest.raises(GPIOPinInUse):
        ClockButtons([17, 27], 17, on_press=lambda press: None)
    Button(17).close()
    Button(27).close()


def test_bad_arguments_are_refused_before_any_pin_is_claimed(pins: Any) -> None:
    with pytest.raises(ValueError, match="at least one"):
        ClockButtons([], on_press=lambda press: None)
    with pytest.raises(ValueError, match="negative"):
        ClockButtons([17], on_press=lambda press: None, debounce_ns=-1)
    Button(17).close()
