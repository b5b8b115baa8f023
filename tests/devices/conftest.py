"""Fixtures for the clock's devices: a fresh gpiozero MockFactory per test, a clock we set."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.clock.display import ClockDisplay, PlayerDisplay, format_time


@pytest.fixture()
def pins() -> Iterator[Any]:
    """A MockFactory that is also the default one, so both ways of choosing pins are tested;
    reset and the previous default restored afterwards, so no pin stays claimed."""
    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = saved


class FakeClock:
    """A monotonic clock that reads whatever the test sets."""

    def __init__(self, t_ns: int = 0) -> None:
        self.t_ns = t_ns
        self.reads = 0

    def __call__(self) -> int:
        self.reads += 1
        return self.t_ns


def player(
    remaining_ns: int,
    *,
    running: bool = False,
    flagged: bool = False,
    warning: bool = False,
    moves: int = 0,
) -> PlayerDisplay:
    return PlayerDisplay(remaining_ns, format_time(remaining_ns), running, flagged, warning, moves)


def display(
    *players: PlayerDisplay, running: int | None = None, paused: bool = False
) -> ClockDisplay:
    """A display with `running` marked on that player too, as the clock model would."""
    marked = tuple(
        PlayerDisplay(p.remaining_ns, p.text, index == running, p.flagged, p.warning, p.moves)
        for index, p in enumerate(players)
    )
    return ClockDisplay(marked, running, paused)
