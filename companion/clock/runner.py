"""The live clock: the pure model behind a lock, fed by buttons and ticks, heard by displays.

    runner = ClockRunner(new_clock([parse("300+2")] * 2), now_ns=time.monotonic_ns)
    buttons = ClockButtons([17, 27], pause_pin=22, on_press=runner.handle)
    runner.subscribe(lambda events, display: lights.show(display))

Presses are applied in the button's own callback, at the press's own timestamp, so the
switch happens within microseconds and the time it takes never costs the player anything.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from companion.clock import model
from companion.clock.display import ClockDisplay
from companion.clock.model import Clock, Events
from companion.clock.presses import ButtonPress

log = logging.getLogger(__name__)

Listener = Callable[[Events, ClockDisplay], object]
"""Hears every change: the events it brought and the display right after."""


class ClockRunner:
    def __init__(self, clock: Clock, *, now_ns: Callable[[], int] = time.monotonic_ns) -> None:
        self._clock = clock
        self._now = now_ns
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []

    @property
    def clock(self) -> Clock:
        return self._clock

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def display(self) -> ClockDisplay:
        with self._lock:
            clock = self._clock
        return model.display(clock, self._now())

    def handle(self, press: ButtonPress) -> Events:
        """A button went down: a player's press, or the pause button toggling pause."""
        if press.kind == "pause":
            if self._clock.paused:
                return self._change(lambda c: model.resume(c, press.t_ns))
            return self._change(lambda c: model.pause(c, press.t_ns))
        assert press.player is not None
        player = press.player
        return self._change(lambda c: model.press(c, player, press.t_ns))

    def tick(self) -> Events:
        """Announces a fallen flag or an expired move limit; call it often (every 50 ms)."""
        now = self._now()
        return self._change(lambda c: model.tick(c, now), quiet=True)

    def start(self, player: int) -> Events:
        now = self._now()
        return self._change(lambda c: model.start(c, player, now))

    def pause(self) -> Events:
        now = self._now()
        return self._change(lambda c: model.pause(c, now))

    def resume(self) -> Events:
        now = self._now()
        return self._change(lambda c: model.resume(c, now))

    def adjust(self, player: int, delta_ns: int) -> Events:
        now = self._now()
        return self._change(lambda c: model.adjust(c, player, delta_ns, now))

    def undo(self) -> Events:
        now = self._now()
        return self._change(lambda c: model.undo(c, now))

    def _change(
        self, step: Callable[[Clock], tuple[Clock, Events]], *, quiet: bool = False
    ) -> Events:
        with self._lock:
            self._clock, events = step(self._clock)
            clock = self._clock
        if events or not quiet:
            tell(self._listeners, events, model.display(clock, self._now()))
        return events


def tell(listeners: list[Listener], events: Events, shown: ClockDisplay) -> None:
    """Gives every listener the change; one that fails is logged and the rest still hear."""
    for listener in list(listeners):
        try:
            listener(events, shown)
        except Exception:  # a broken display must not stop the clock
            log.warning("a clock listener failed", exc_info=True)
