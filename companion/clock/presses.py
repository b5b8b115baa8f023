"""A press of a clock button, as every button source reports it: GPIO pins, a keyboard, the
buttons on a Pico reader, a touch on the screen.

    ButtonPress(kind="player", player=0, t_ns=clock_ns())

Sources only report, faithfully and on time; whether a press counts is the clock model's
decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

PressKind = Literal["player", "pause"]


@dataclass(frozen=True, slots=True)
class ButtonPress:
    kind: PressKind
    player: int | None
    """Whose button: 0 for the first player pin, and so on; None for the pause button."""
    t_ns: int
    """When the button went down, on the same monotonic clock the clock model runs on."""


OnPress = Callable[[ButtonPress], object]
"""Called with each press; whatever it returns is ignored."""
ClockNs = Callable[[], int]
