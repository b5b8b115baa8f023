"""Who follows a game being played at the table (its screen, say), and telling them what it
shows now. One listener that fails is logged and the others still hear.

    listeners = Listeners[LiveView]("live game")
    unsubscribe = listeners.add(screen.show)
    listeners.tell(view)
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

View = TypeVar("View")


class Listeners(Generic[View]):
    def __init__(self, what: str) -> None:
        self._what = what
        self._listeners: list[Callable[[View], None]] = []

    def add(self, listener: Callable[[View], None]) -> Callable[[], None]:
        """Adds `listener`; returns what stops it."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def tell(self, view: View) -> None:
        for listener in list(self._listeners):
            try:
                listener(view)
            except Exception:
                log.warning("%s listener %r failed", self._what, listener, exc_info=True)

    def clear(self) -> None:
        self._listeners.clear()
