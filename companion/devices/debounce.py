"""Contact chatter: a mechanical button opens and closes several times within a few
milliseconds of being pressed or let go. Pure, so it is tested without any pins.

    debouncer = Debouncer(30_000_000)     # 30 ms
    debouncer.accept(0)                   # True: the press
    debouncer.accept(4_000_000)           # False: chatter 4 ms later
    debouncer.accept(30_000_000)          # True: a whole window after the press
"""

from __future__ import annotations


class Debouncer:
    """Accepts an edge only if at least `window_ns` passed since the last ACCEPTED edge.

    Measuring from the last accepted edge, not the last edge seen, means a burst of chatter
    cannot keep extending itself: however long a contact rattles, one edge per window gets
    through. The first edge is always accepted.
    """

    def __init__(self, window_ns: int) -> None:
        if window_ns < 0:
            raise ValueError(f"a debounce window cannot be negative, got {window_ns}")
        self.window_ns = window_ns
        self._last_accepted_ns: int | None = None

    def accept(self, t_ns: int) -> bool:
        # Timestamps come from a monotonic clock; one earlier than the last accepted edge can
        # only be a stale reading and falls inside the window like any other chatter.
        if self._last_accepted_ns is not None and t_ns - self._last_accepted_ns < self.window_ns:
            return False
        self._last_accepted_ns = t_ns
        return True

    def reset(self) -> None:
        """Forgets the last accepted edge: the next edge is accepted whenever it comes."""
        self._last_accepted_ns = None
