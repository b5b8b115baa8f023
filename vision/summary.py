"""A reading in a few lines a person can check against the table.

photo.jpg: board found, 23/27 markers, error 0.3 mm, North at the top; no hands
  crystals: 5 red | 17 blue+yellow | diamond-2 red
  counters: 3 [5] | 8 [face down]
  unsure: 44 (62 %)
"""

from __future__ import annotations

from vision.reading import BoardReading


def describe(name: str, reading: BoardReading) -> str:
    registration = reading.registration
    if registration is None:
        return f"{name}: board not found (are the markers in view?)"
    head = (
        f"{name}: board found, {registration.markers_seen}/{registration.markers_total} markers,"
        f" error {registration.error_mm:.1f} mm, North at the {registration.north}"
    )
    if registration.held:
        head += " (registration held from an earlier frame)"
    if reading.hands:
        signs = ", ".join(reason.text() for reason in reading.hand_reasons)
        head += "; a hand is over the board" + (f" ({signs})" if signs else "")
    else:
        head += "; no hands"
    lines = [head]
    crystals = [f"{key} {'+'.join(z.crystals)}" for key, z in reading.zones.items() if z.crystals]
    lines.append("  crystals: " + (" | ".join(crystals) if crystals else "none"))
    counters = [
        f"{key} [{', '.join(_counter(v) for v in z.counters)}]"
        for key, z in reading.zones.items()
        if z.counters
    ]
    if counters:
        lines.append("  counters: " + " | ".join(counters))
    occluded = [key for key, z in reading.zones.items() if z.occluded]
    if occluded:
        lines.append(f"  not seen: {', '.join(occluded)}")
    unsure = [
        f"{key} ({z.confidence:.0%})"
        for key, z in reading.zones.items()
        if not z.occluded and z.confidence < 0.75
    ]
    if unsure:
        lines.append(f"  unsure: {', '.join(unsure)}")
    return "\n".join(lines)


def _counter(value: int | None) -> str:
    if value is None:
        return "face down"
    return "unreadable" if value == 0 else str(value)
