"""ClockLights on gpiozero mock pins: the running player's LED, blinking flags."""

from __future__ import annotations

import time
from typing import Any

import pytest
from gpiozero import LED

from companion.devices.lights import ClockLights, light_states
from tests.devices.conftest import display, player

S = 1_000_000_000
FAST_BLINK_S = 0.01


def _lit(pins: Any, *numbers: int) -> list[bool]:
    return [pins.pin(number).state for number in numbers]


def _toggles_within(pins: Any, number: int, seconds: float) -> int:
    before = len(pins.pin(number).states)
    time.sleep(seconds)
    return len(pins.pin(number).states) - before


@pytest.mark.parametrize(
    ("clock", "expected"),
    [
        (display(player(60 * S), player(60 * S)), ("off", "off")),  # before the first press
        (display(player(60 * S), player(60 * S), running=0), ("on", "off")),
        (display(player(60 * S), player(60 * S), running=1), ("off", "on")),
        (display(player(60 * S), player(60 * S), paused=True), ("off", "off")),
        (display(player(0, flagged=True), player(9 * S)), ("blink", "off")),
        (display(player(0, flagged=True), player(9 * S), running=1), ("blink", "on")),
        (display(player(0, flagged=True), player(9 * S), paused=True), ("blink", "off")),
        (display(player(0, flagged=True), player(0, flagged=True)), ("blink", "blink")),
        # A running index with paused set (should not happen) still lights nothing.
        (display(player(60 * S), player(60 * S), running=0, paused=True), ("off", "off")),
    ],
)
def test_light_states(clock: Any, expected: tuple[str, ...]) -> None:
    assert light_states(clock, 2) == expected


def test_light_states_with_more_or_fewer_leds_than_players() -> None:
    three = display(player(S), player(S), player(S), running=2)
    assert light_states(three, 2) == ("off", "off")
    assert light_states(display(player(S), running=0), 3) == ("on", "off", "off")
    assert light_states(three, 0) == ()


def test_leds_follow_the_running_player(pins: Any) -> None:
    with ClockLights([5, 6], pin_factory=pins) as lights:
        assert _lit(pins, 5, 6) == [False, False]
        lights.show(display(player(60 * S), player(60 * S), running=0))
        assert _lit(pins, 5, 6) == [True, False]
        lights.show(display(player(58 * S), player(60 * S), running=1))
        assert _lit(pins, 5, 6) == [False, True]
        lights.show(display(player(58 * S), player(57 * S), paused=True))
        assert _lit(pins, 5, 6) == [False, False]
        assert lights.states == ("off", "off")


def test_a_flagged_players_led_blinks(pins: Any) -> None:
    with ClockLights([5, 6], pin_factory=pins, blink_s=FAST_BLINK_S) as lights:
        lights.show(display(player(S), player(60 * S), running=0))
        lights.show(display(player(0, flagged=True), player(60 * S)))
        assert lights.states == ("blink", "off")
        assert _toggles_within(pins, 5, 0.2) >= 4
        assert _toggles_within(pins, 6, 0.05) == 0


def test_the_default_blink_is_a_quarter_second_each_way(pins: Any) -> None:
    with ClockLights([5], pin_factory=pins) as lights:
        lights.show(display(player(0, flagged=True)))
        time.sleep(0.4)
        history = pins.pin(5).states
        on_at = next(s.timestamp for s in history if s.state)
        off_at = next(s.timestamp for s in history if s.timestamp > on_at and not s.state)
        assert off_at - on_at == pytest.approx(0.25, abs=0.1)


def test_repeated_identical_shows_touch_nothing(pins: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    for method in ("on", "off", "blink"):
        original = getattr(LED, method)

        def spy(
            self: Any, *args: Any, _name: str = method, _original: Any = original, **kwargs: Any
        ) -> Any:
            calls.append(_name)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(LED, method, spy)
    with ClockLights([5, 6], pin_factory=pins, blink_s=FAST_BLINK_S) as lights:
        flagged = display(player(0, flagged=True), player(30 * S), running=1)
        for _ in range(20):
            lights.show(flagged)
        assert calls == ["blink", "on"]
        # The clock ticks on: the other player's time changes, the lights do not.
        lights.show(display(player(0, flagged=True), player(29 * S), running=1))
        assert calls == ["blink", "on"]
        lights.show(display(player(0, flagged=True), player(29 * S), paused=True))
        assert calls == ["blink", "on", "off"]
        assert _toggles_within(pins, 5, 0.1) >= 2  # still blinking all along


def test_a_blink_stops_when_the_led_is_next_turned_on(pins: Any) -> None:
    with ClockLights([5], pin_factory=pins, blink_s=FAST_BLINK_S) as lights:
        lights.show(display(player(0, flagged=True)))
        lights.show(display(player(60 * S), running=0))  # a new game on the same clock
        time.sleep(0.05)
        assert _toggles_within(pins, 5, 0.1) == 0
        assert _lit(pins, 5) == [True]


def test_close_turns_off_and_releases_the_pins(pins: Any) -> None:
    lights = ClockLights([5, 6], pin_factory=pins, blink_s=FAST_BLINK_S)
    lights.show(display(player(0, flagged=True), player(S), running=1))
    lights.close()
    lights.close()
    assert _lit(pins, 5, 6) == [False, False]
    assert _toggles_within(pins, 5, 0.05) == 0
    LED(5).close()
    LED(6).close()
    lights.show(display(player(S), running=0))  # nothing left to drive; no error
