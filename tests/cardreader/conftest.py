"""Fixtures for the card readers: socat pseudo-terminal pairs and an event recorder."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from companion.devices.cardreader.events import (
    BadFrame,
    CardEvent,
    CardPresented,
    CardRemoved,
    Observation,
    TagSeen,
)
from companion.devices.cardreader.ptypair import PtyPair

needs_socat = pytest.mark.skipif(
    shutil.which("socat") is None, reason="needs socat (make installs it)"
)


@pytest.fixture()
def pty_pair() -> Iterator[PtyPair]:
    """A linked pair of pseudo-terminals: emulators open device_path, readers host_path.
    Modules that use it are marked `needs_socat`."""
    with PtyPair() as pair:
        yield pair


class Recorder:
    """Collects a CardReader's events and observations, from its thread, for a test."""

    def __init__(self) -> None:
        self.events: list[CardEvent] = []
        self.observations: list[Observation] = []
        self._changed = threading.Condition()

    def event(self, event: CardEvent) -> None:
        with self._changed:
            self.events.append(event)
            self._changed.notify_all()

    def observation(self, observation: Observation) -> None:
        with self._changed:
            self.observations.append(observation)
            self._changed.notify_all()

    def wait_for(self, condition: Callable[[], bool], timeout_s: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.05))
            return True

    @property
    def presented(self) -> list[CardPresented]:
        return [e for e in self.events if isinstance(e, CardPresented)]

    @property
    def removed(self) -> list[CardRemoved]:
        return [e for e in self.events if isinstance(e, CardRemoved)]

    @property
    def tags_seen(self) -> list[TagSeen]:
        return [o for o in self.observations if isinstance(o, TagSeen)]

    @property
    def bad_frames(self) -> list[BadFrame]:
        return [o for o in self.observations if isinstance(o, BadFrame)]


@pytest.fixture()
def recorder() -> Recorder:
    return Recorder()


def wait_until(condition: Callable[[], bool], timeout_s: float = 2.0) -> bool:
    """Polls `condition` every 5 ms until it holds or the time is up."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True
