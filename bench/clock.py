"""Clock speed and exactness.

1. Press to switch: a mock GPIO pin is driven low; the time until the clock has switched to
   the next player (the runner's listener has heard it), p50 and p99 over 10,000 presses.
   Floor: p99 <= 1000 us.
2. Exactness: a simulated 6-hour game of 2,000 presses under "40/7200+30:3600+30", with
   random move times in nanoseconds and pauses, against plain integer arithmetic done
   separately. Floor: 0 ns total error.

Exits 1 when a floor is missed. Run with `make bench`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.clock import model
from companion.clock.display import ClockDisplay
from companion.clock.model import Events, new_clock
from companion.clock.notation import parse
from companion.clock.runner import ClockRunner
from companion.devices.buttons import ClockButtons

PRESSES = 10_000
P99_FLOOR_US = 1000.0
GAME_PRESSES = 2_000
GAME_NS = 6 * 3600 * 10**9


def press_latency() -> tuple[float, float]:
    factory = MockFactory()
    Device.pin_factory = factory
    fake_now = [0]

    def now() -> int:
        fake_now[0] += 50_000_000  # 50 ms between readings: well past the debounce window
        return fake_now[0]

    runner = ClockRunner(new_clock([parse("3600+5")] * 2), now_ns=now)
    runner.start(0)
    switched_at: list[int] = []

    def heard(events: Events, display: ClockDisplay) -> None:
        switched_at.append(time.perf_counter_ns())

    runner.subscribe(heard)
    buttons = ClockButtons([17, 27], on_press=runner.handle, clock_ns=now, pin_factory=factory)
    pins = [factory.pin(17), factory.pin(27)]
    latencies = []
    try:
        for i in range(PRESSES):
            player = i % 2
            assert runner.clock.running == player
            began = time.perf_counter_ns()
            pins[player].drive_low()
            latencies.append((switched_at[-1] - began) / 1000)
            assert runner.clock.running == 1 - player
            pins[player].drive_high()
    finally:
        buttons.close()
        factory.reset()
    latencies.sort()
    return statistics.median(latencies), latencies[int(len(latencies) * 0.99) - 1]


def exact_game() -> tuple[int, int]:
    """Total error in ns between the clock and plain arithmetic; the presses played."""
    rng = random.Random(6)
    control = parse("40/7200+30:3600+30")
    clock, _ = model.start(new_clock([control] * 2), 0, 0)
    expected = [7200 * 10**9, 7200 * 10**9]
    made = [0, 0]
    t = 0
    mean = GAME_NS // GAME_PRESSES
    for i in range(GAME_PRESSES):
        player = i % 2
        move = rng.randint(1, 2 * mean - 1)
        if rng.random() < 0.05:
            # The arbiter pauses mid-move; paused time is nobody's.
            clock, _ = model.pause(clock, t + move // 2)
            clock, _ = model.resume(clock, t + move // 2 + rng.randint(1, 10**11))
            t += clock.segment_start - (t + move // 2)
        t += move
        clock, _ = model.press(clock, player, t)
        expected[player] += 30 * 10**9 - move
        made[player] += 1
        if made[player] == 40:
            expected[player] += 3600 * 10**9
    error = sum(abs(clock.players[p].main_ns - expected[p]) for p in (0, 1))
    assert all(pt.flagged_at is None for pt in clock.players)
    return error, GAME_PRESSES


def main() -> int:
    p50, p99 = press_latency()
    error, presses = exact_game()
    print(
        f"press to switch: p50 {p50:.1f} us, p99 {p99:.1f} us over {PRESSES} mock presses "
        f"(floor: p99 <= {P99_FLOOR_US:.0f} us)"
    )
    print(
        f"exactness: {error} ns total error after a 6-hour game of {presses} presses (floor: 0 ns)"
    )
    ok = p99 <= P99_FLOOR_US and error == 0
    print("floors met" if ok else "FLOOR MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
