"""A microsecond clock that never wraps, from one that does. Pure: the ticks function and
its difference function are given (time.ticks_us and time.ticks_diff on the Pico).

    clock = Uptime(time.ticks_us, time.ticks_diff)
    clock.now_us()            # microseconds since boot, as a plain (growing) integer

MicroPython's ticks_us wraps (every 2**30 us, about 17.9 minutes, on the Pico); a game
lasts hours. Each call adds the difference since the previous call, which ticks_diff gets
right as long as calls come less than half a period apart (9 minutes); the firmware calls
it all the time. It starts from the raw ticks value, which on a Pico that has just booted
is the time since boot.
"""


class Uptime:
    def __init__(self, ticks, diff):
        self._ticks = ticks
        self._diff = diff
        self._last = ticks()
        self._total = self._last

    def now_us(self):
        now = self._ticks()
        step = self._diff(now, self._last)
        self._last = now
        if step > 0:  # never backwards, whatever the ticks do
            self._total += step
        return self._total


def wrapping_diff(period):
    """A ticks_diff for a counter that wraps at `period` (a power of two): for tests and
    for ports without time.ticks_diff."""
    half = period // 2

    def diff(a, b):
        return ((a - b + half) % period) - half

    return diff
