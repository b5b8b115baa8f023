"""The Pico board's buttons as the clock's buttons: ButtonSeen in, ButtonPress out.

    protocol = PicoProtocol()
    buttons = PicoButtons(2, pause=2, clock=protocol.clock, on_press=runner.handle)
    reader = CardReader(port, protocol, on_event=..., on_observation=buttons.observe)

Button 0..players-1 is that player's button, `pause` (if given) the pause button; any
other button is ignored. Only presses count, as with ClockButtons: releases are heard so
that their chatter cannot read as a press.

**Time.** A press is stamped by the board, in its own microseconds, at the moment the
contact first moved; the frame that carries it comes a little later (debouncing, USB).
The clock model runs on the host's `time.monotonic_ns`, so the stamp is mapped through a
DeviceClock: host ns = device us * 1000 + offset, where the offset is the smallest
`arrival - stamp` over the last 30 s of frames (hello, heartbeats, every event), which is
the fastest frame's, the one closest to the truth. A press is never dated after the arrival
of its own frame. Give the protocol's clock (`clock=protocol.clock`): it hears the hellos
and heartbeats and notices a reboot. Without one, PicoButtons keeps its own, learnt from
the button frames alone (coarser until a press happens to arrive quickly).

**Repeats.** The firmware debounces, so each edge comes once. The host still refuses to
count one twice: an edge no later (on the board's clock) than the last one taken for that
button is a repeat (a frame sent again, a replay after a reconnection), and edges of one
button closer together than `debounce_ns` (10 ms, half the firmware's lock-out) pass the
same Debouncer as ClockButtons uses. A press after a lost release still counts. When the
board reboots (the clock's epoch changes), what was known of its old clock is forgotten.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from companion.clock.presses import ButtonPress, OnPress
from companion.devices.cardreader.events import ButtonSeen, Observation
from companion.devices.cardreader.pico import DeviceClock
from companion.devices.debounce import Debouncer

DEFAULT_DEBOUNCE_NS = 10_000_000
REBOOT_BACKSTEP_US = 1_000_000
"""With its own clock: a stamp this much earlier than the latest one means a reboot."""


@dataclass(slots=True)
class PicoButtonStats:
    presses: int = 0
    repeats: int = 0
    """Edges no later than the last one taken for their button."""
    bounces: int = 0
    """Edges inside the debounce window."""
    unmapped: int = 0
    """Edges of buttons that are neither a player's nor the pause button."""
    bad_stamps: int = 0
    """With its own clock: edges whose stamp jumped beyond what the link allows
    (DeviceClock.vet), dropped. A shared clock is vetted by the protocol that feeds it."""


class PicoButtons:
    def __init__(
        self,
        players: int,
        pause: int | None = None,
        *,
        on_press: OnPress | None = None,
        clock: DeviceClock | None = None,
        debounce_ns: int = DEFAULT_DEBOUNCE_NS,
    ) -> None:
        if players < 1:
            raise ValueError("a clock needs at least one player button")
        if pause is not None and (pause < players or pause > 255):
            raise ValueError(f"the pause button must be a button after the players', got {pause}")
        Debouncer(debounce_ns)  # a bad window fails here
        self.players = players
        self.pause = pause
        self.debounce_ns = debounce_ns
        self._on_press = on_press
        self._own_clock = clock is None
        self.clock = clock if clock is not None else DeviceClock()
        self.stats = PicoButtonStats()
        self._lock = threading.Lock()
        self._epoch = self.clock.epoch
        self._latest_us: int | None = None
        self._last_us: dict[int, int] = {}
        self._debouncers: dict[int, Debouncer] = {}

    def observe(self, observation: Observation) -> ButtonPress | None:
        """Any observation (so it can be a CardReader's `on_observation`); a ButtonSeen that
        is a new press becomes a ButtonPress, given to `on_press` and returned."""
        if not isinstance(observation, ButtonSeen):
            return None
        with self._lock:
            press = self._edge(observation)
        if press is not None and self._on_press is not None:
            self._on_press(press)
        return press

    def _edge(self, seen: ButtonSeen) -> ButtonPress | None:
        if self._own_clock:
            latest = self._latest_us
            if latest is not None and seen.device_us < latest - REBOOT_BACKSTEP_US:
                self.clock.restart()
                latest = None
            if self.clock.vet(seen.device_us, seen.t_ns) is not None:
                # One wild stamp must not make every later press of its button a repeat.
                self.stats.bad_stamps += 1
                return None
            self._latest_us = seen.device_us if latest is None else max(latest, seen.device_us)
            self.clock.observe(seen.device_us, seen.t_ns)
        if self.clock.epoch != self._epoch:
            self._epoch = self.clock.epoch
            self._last_us.clear()
            self._debouncers.clear()
        kind: str
        if seen.button < self.players:
            kind = "player"
        elif seen.button == self.pause:
            kind = "pause"
        else:
            self.stats.unmapped += 1
            return None
        last = self._last_us.get(seen.button)
        if last is not None and seen.device_us <= last:
            self.stats.repeats += 1
            return None
        self._last_us[seen.button] = seen.device_us
        debouncer = self._debouncers.setdefault(seen.button, Debouncer(self.debounce_ns))
        if not debouncer.accept(seen.device_us * 1000):
            self.stats.bounces += 1
            return None
        if not seen.pressed:
            return None
        self.stats.presses += 1
        t_ns = self.clock.to_host_ns(seen.device_us, seen.t_ns)
        if kind == "player":
            return ButtonPress("player", seen.button, t_ns)
        return ButtonPress("pause", None, t_ns)
