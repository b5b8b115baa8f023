"""The companion's standard topology card: where face-up counters go (MW-T2).

The rule book ships a topology card without printing it, so this is the companion's own:
every quadrant alike, 3 counters of each value, 36 in all. In each quadrant (local places
1..25) the 5s sit on 3, 8 and 23, centres of three corner quincunxes; the 3s on 11, 12 and 15,
around the centre; the 2s on the corners 1, 7 and 25. A player can trade a hard card for a
rich place.
"""

from __future__ import annotations

# local index (1..25 within a quadrant) -> counter value
_LOCAL = {3: 5, 8: 5, 23: 5, 11: 3, 12: 3, 15: 3, 1: 2, 7: 2, 25: 2}

STANDARD_TOPOLOGY: tuple[tuple[int, int], ...] = tuple(
    (25 * quadrant + local, value)
    for quadrant in range(4)
    for local, value in sorted(_LOCAL.items())
)
