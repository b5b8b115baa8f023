"""A search for the companion's move or a hint, run off the game's thread so that the table
stays live, its answer handed back on the game's thread.

    search_aside(lambda: best(state), deliver, call_soon, "companion-move", failed=None)

`deliver` gets the answer, or `failed` when the search raised (logged, never lost): the
caller says why nothing came.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


def search_aside(
    find: Callable[[], T],
    deliver: Callable[[T], None],
    call_soon: Callable[[Callable[[], None]], None],
    name: str,
    *,
    failed: T,
) -> None:
    """Runs `find` on a thread of its own and `deliver`s what it found on the game's thread
    (`call_soon`)."""

    def search() -> None:
        try:
            found = find()
        except Exception:
            log.warning("the %s search failed", name, exc_info=True)
            found = failed
        call_soon(lambda: deliver(found))

    threading.Thread(target=search, name=name, daemon=True).start()
