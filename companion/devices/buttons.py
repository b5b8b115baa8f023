"""The clock's physical buttons on GPIO pins, reported as timestamped presses.

Buttons only report, faithfully and on time. Whether a press counts (the waiting player's
button, any press while paused) is the clock model's decision, as on a real chess clock.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from companion.clock.presses import ButtonPress, ClockNs, OnPress, PressKind
from companion.devices.debounce import Debouncer
from vision.common.closing import Closing

DEFAULT_DEBOUNCE_NS = 30_000_000
MAX_EDGE_AGE_NS = 1_000_000_000
"""An edge the pin factory dates further back than this (or in the future) is dated now
instead: its clock is not the one we compare it with."""


class ClockButtons(Closing):
    """One gpiozero Button per player, plus an optional pause button, each debounced.

        buttons = ClockButtons([17, 27], pause_pin=22, on_press=presses.put)
        ...                                      # each press arrives as a ButtonPress
        buttons.close()

    Buttons are wired to ground and use the Pi's internal pull-ups (gpiozero's default).
    `on_press` runs on gpiozero's event thread (synchronously under a MockFactory), so it
    should be quick: put the press on a queue, or take a lock before touching the clock.

    gpiozero's own `bounce_time` is left unset: it does nothing on some pin factories (mock
    pins among them), while our Debouncer behaves the same on every factory and is tested.
    """

    def __init__(
        self,
        player_pins: Sequence[int],
        pause_pin: int | None = None,
        *,
        on_press: OnPress,
        clock_ns: ClockNs = time.monotonic_ns,
        debounce_ns: int = DEFAULT_DEBOUNCE_NS,
        pin_factory: Any = None,
    ) -> None:
        if not player_pins:
            raise ValueError("a clock needs at least one player button")
        Debouncer(debounce_ns)  # a bad window fails here, before any pin is claimed
        self._on_press = on_press
        self._clock_ns = clock_ns
        self._buttons: list[Any] = []
        try:
            for player, pin in enumerate(player_pins):
                self._add(pin, "player", player, debounce_ns, pin_factory)
            if pause_pin is not None:
                self._add(pause_pin, "pause", None, debounce_ns, pin_factory)
        except BaseException:
            # A pin already in use (or no GPIO at all) must not leave the earlier pins claimed.
            self.close()
            raise

    def _add(
        self,
        pin: int,
        kind: PressKind,
        player: int | None,
        debounce_ns: int,
        pin_factory: Any,
    ) -> None:
        from gpiozero import Button  # lazily: `companion` imports on machines without GPIO

        button = Button(pin, bounce_time=None, pin_factory=pin_factory)
        self._buttons.append(button)
        debouncer = Debouncer(debounce_ns)

        def pressed() -> None:
            # The time of the press itself decides how much time the player used, not the
            # time this callback runs, which on a busy machine can be much later: the clock
            # is read first, less how long ago the pin factory saw the edge.
            t_ns = self._clock_ns() - _edge_age_ns(button.active_time)
            if debouncer.accept(t_ns):
                self._on_press(ButtonPress(kind, player, t_ns))

        def released() -> None:
            # A contact also chatters when it is let go. Passing releases through the same
            # debouncer means that chatter, which can come long after the press, is dropped
            # instead of reading as a second press.
            debouncer.accept(self._clock_ns() - _edge_age_ns(button.inactive_time))

        button.when_pressed = pressed
        button.when_released = released

    def close(self) -> None:
        """Releases the pins. Safe to call more than once."""
        buttons, self._buttons = self._buttons, []
        for button in buttons:
            button.close()


def _edge_age_ns(since_edge_s: float | None) -> int:
    """How long ago the edge was, from gpiozero's active_time or inactive_time: seconds since
    the edge on the pin factory's own clock (on a Pi with lgpio, the kernel's time of the
    interrupt). 0 when that is unknown or not believable."""
    if since_edge_s is None:
        return 0
    age = round(since_edge_s * 1e9)
    return age if 0 <= age <= MAX_EDGE_AGE_NS else 0
