"""uptime.py: a wrapping tick counter becomes a clock that never wraps."""

from harness import run
from uptime import Uptime, wrapping_diff

PERIOD = 1 << 30  # time.ticks_us on the Pico


class Ticks:
    def __init__(self, t):
        self.t = t

    def __call__(self):
        return self.t % PERIOD


def test_counts_across_many_wraps():
    ticks = Ticks(5)
    clock = Uptime(ticks, wrapping_diff(PERIOD))
    assert clock.now_us() == 5
    true_time = 5
    for _ in range(40):  # 40 steps of 8 minutes: 5 hours, 17 wraps
        true_time += 480000000
        ticks.t = true_time
        assert clock.now_us() == true_time
    assert true_time > 16 * PERIOD


def test_never_backwards():
    ticks = Ticks(1000)
    clock = Uptime(ticks, wrapping_diff(PERIOD))
    ticks.t = 900
    assert clock.now_us() == 1000
    ticks.t = 2000
    assert clock.now_us() == 2100  # the 100 us lost backwards is not taken back later


def test_wrapping_diff_is_ticks_diff():
    diff = wrapping_diff(PERIOD)
    assert diff(10, PERIOD - 10) == 20
    assert diff(PERIOD - 10, 10) == -20
    assert diff(7, 7) == 0


run(globals(), "uptime")
