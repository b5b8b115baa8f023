"""One LED per player, following the clock: whose time runs, whose flag has fallen.

    lights = ClockLights([5, 6])
    lights.show(clock_display)        # call whenever the display may have changed
    lights.close()

The rules, in order: a flagged player's LED blinks (paused or not, so a fallen flag stays
visible); otherwise the running player's LED is on; every other LED is off. While paused no
player is running, so only flagged LEDs blink.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from companion.clock.display import ClockDisplay
from vision.common.closing import Closing

LightState = Literal["off", "on", "blink"]
BLINK_S = 0.25


def light_states(display: ClockDisplay, count: int) -> tuple[LightState, ...]:
    """What each of `count` LEDs should show; also the lights' simulated twin for a screen.

    LEDs beyond the display's players stay off; players beyond the LEDs have no light.
    """
    states: list[LightState] = []
    for index in range(count):
        if index >= len(display.players):
            states.append("off")
        elif display.players[index].flagged:
            states.append("blink")
        elif not display.paused and display.running == index:
            states.append("on")
        else:
            states.append("off")
    return tuple(states)


class ClockLights(Closing):
    """gpiozero LEDs, one per player in pin order, driven by `show(display)`.

    An LED is only touched when what it should show changes: show() is called many times a
    second and restarting a blink each time would freeze it in its first half-period.
    """

    def __init__(
        self, pins: Sequence[int], *, pin_factory: Any = None, blink_s: float = BLINK_S
    ) -> None:
        from gpiozero import LED  # lazily: `companion` imports on machines without GPIO

        self._blink_s = blink_s
        self._leds: list[Any] = []
        try:
            for pin in pins:
                self._leds.append(LED(pin, pin_factory=pin_factory))
        except BaseException:
            self.close()
            raise
        self._states: list[LightState] = ["off"] * len(self._leds)  # gpiozero starts LEDs off

    @property
    def states(self) -> tuple[LightState, ...]:
        """What each LED shows now."""
        return tuple(self._states)

    def show(self, display: ClockDisplay) -> tuple[LightState, ...]:
        wanted = light_states(display, len(self._leds))
        for index, (led, state) in enumerate(zip(self._leds, wanted, strict=True)):
            if state == self._states[index]:
                continue
            if state == "on":
                led.on()  # also stops a blink
            elif state == "off":
                led.off()
            else:
                led.blink(on_time=self._blink_s, off_time=self._blink_s, background=True)
            self._states[index] = state
        return wanted

    def close(self) -> None:
        """Turns the LEDs off and releases the pins. Safe to call more than once."""
        leds, self._leds = self._leds, []
        self._states = []
        for led in leds:
            led.off()  # explicitly: a closed pin may otherwise keep driving its last level
            led.close()
