"""The clock's beeps: which are due is decided from two successive displays, purely.

    buzzer = ClockBuzzer(13, config.clock)
    buzzer.update(clock_display)      # call whenever the display may have changed
    buzzer.close()

A beep marks a moment the running player's time passes: below the warning threshold (a short
beep), below each of the last five whole seconds (a short beep each), and a long tone when
any player's flag falls. "Below" means strictly: 10.0 s left is not yet below 10 s, 9.99 s
is, which is also when a display that rounds down first shows 9.9.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, Literal, TextIO

from companion.clock.display import NS_PER_S, ClockDisplay
from companion.config import ClockConfig
from vision.common.closing import Closing

BeepKind = Literal["flag", "warning", "countdown"]
SHORT_BEEP_S = 0.1
FLAG_TONE_S = 1.5
COUNTDOWN_FROM_S = 5
"""Countdown beeps as the time falls below 5, 4, 3, 2 and 1 seconds."""


@dataclass(frozen=True, slots=True)
class Beep:
    kind: BeepKind
    duration_s: float


def beeps_due(
    previous: ClockDisplay | None, current: ClockDisplay, settings: ClockConfig
) -> list[Beep]:
    """The beeps the step from `previous` to `current` calls for, most important first.

    At most one beep of each kind: if updates come late and the time jumps past several
    thresholds at once, one beep says so; a burst of stale beeps would only confuse.
    Without a previous display (or when the number of players changed: a new clock) nothing
    has been crossed, so a clock started on an already fallen flag stays quiet.

    Warning and countdown beeps are for the player whose time runs now: a player who
    pressed just after passing a threshold has handed the clock over and is not beeped at.
    An upcount clock's time only rises, so it never crosses a threshold.
    """
    if previous is None or len(previous.players) != len(current.players):
        return []
    due: list[Beep] = []
    pairs = list(zip(previous.players, current.players, strict=True))
    if settings.beep_flag and any(now.flagged and not then.flagged for then, now in pairs):
        due.append(Beep("flag", FLAG_TONE_S))
    running = current.running
    if current.paused or running is None or not 0 <= running < len(pairs):
        return due
    then, now = pairs[running]
    if now.flagged:
        return due  # the flag tone says it all
    before_ns, after_ns = then.remaining_ns, now.remaining_ns
    if settings.beep_warning and _crossed(before_ns, after_ns, settings.warning_s * NS_PER_S):
        due.append(Beep("warning", SHORT_BEEP_S))
    if settings.beep_countdown and any(
        _crossed(before_ns, after_ns, second * NS_PER_S)
        for second in range(1, COUNTDOWN_FROM_S + 1)
    ):
        due.append(Beep("countdown", SHORT_BEEP_S))
    return due


def _crossed(before_ns: int, after_ns: int, threshold_ns: int) -> bool:
    return before_ns >= threshold_ns > after_ns


class BeepPlan:
    """Follows a clock's displays one after another and says which beep to sound now: one
    sounder plays one beep at a time, so the most important of those due."""

    def __init__(self, settings: ClockConfig) -> None:
        self._settings = settings
        self._previous: ClockDisplay | None = None

    def next(self, display: ClockDisplay) -> Beep | None:
        due = beeps_due(self._previous, display, self._settings)
        self._previous = display
        return due[0] if due else None


class ClockBuzzer(Closing):
    """An active buzzer on a GPIO pin (gpiozero Buzzer), sounding the beeps that fall due.

    One buzzer sounds one beep at a time, so when several are due the most important plays;
    a new beep cuts short one still sounding, as on a real clock.
    """

    def __init__(self, pin: int, settings: ClockConfig, *, pin_factory: Any = None) -> None:
        from gpiozero import Buzzer  # lazily: `companion` imports on machines without GPIO

        self._buzzer: Any = Buzzer(pin, pin_factory=pin_factory)
        self._plan = BeepPlan(settings)

    def update(self, display: ClockDisplay) -> Beep | None:
        """Compares with the display of the last call; returns the beep it started, if any."""
        beep = self._plan.next(display)
        if beep is None:
            return None
        # background=True: update() is called from the display loop, which must not wait.
        self._buzzer.beep(on_time=beep.duration_s, off_time=0, n=1, background=True)
        return beep

    def close(self) -> None:
        """Silences the buzzer and releases the pin. Safe to call more than once."""
        if self._buzzer is not None:
            self._buzzer.off()
            self._buzzer.close()
            self._buzzer = None


class TerminalBell:
    """The buzzer's simulated twin: the terminal bell (BEL), with the same `update`."""

    def __init__(self, settings: ClockConfig, stream: TextIO | None = None) -> None:
        self._plan = BeepPlan(settings)
        self._stream = sys.stdout if stream is None else stream

    def update(self, display: ClockDisplay) -> Beep | None:
        beep = self._plan.next(display)
        if beep is not None:
            self._stream.write("\a")
            self._stream.flush()
        return beep

    def close(self) -> None:
        """Nothing to release; here so either buzzer can be closed alike."""
