"""Crystals found anywhere on the board, sorted into the colours named: a plan found.

Each place found holding a crystal is a Spot: its crystal's hue and how much of the place
it covers. The spots are split into as many groups as colours were named, at the widest
gaps between their hues around the colour wheel, and each group takes the name whose usual
hue is nearest (vision/hue_names.py). Anything that leaves a doubt is refused in one
sentence: calibrating from a wrong guess would teach the reader wrong colours.

    plan = plan_from_spots(spots, ["red", "blue", "yellow"])   # {'red': (3, 41), ...}
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

from vision.common.errors import UserError
from vision.geometry import Board
from vision.hue_names import FAR, distance, nameable, nearest
from vision.plans import Place, check_colour_names

MIN_PER_COLOUR = 2
"""Crystals of each colour to lay: two show how a colour varies over the board's light."""
NEUTRAL_SATURATION = 0.05
"""A crystal less saturated than this has no hue to tell it by (white, clear, grey)."""
MORE_THAN_ONE = 1.7
"""A place covered this many times the typical place's area holds more than one crystal."""
TWO_HUES = 0.7
"""Hue spread (radians) on one place that means crystals of two colours lie there: one
crystal's spread stays under 0.5 even in poor light."""


@dataclass(frozen=True, slots=True)
class Spot:
    """A place where a crystal was found, and what it looks like."""

    key: str
    hue: float
    """Radians, as vision.colours measures it."""
    spread: float
    """How far (radians) the crystal's pixels' hues stray from `hue`."""
    saturation: float
    area: float
    """How much of the place the crystal covers, in crystals' discs (one lying flat ~ 1)."""


def check_findable(board: Board, colours: Sequence[str]) -> None:
    """Refuse, before any frame is taken, colours that could not be found by their hue."""
    if board.game == "mem":
        raise UserError("MeM's stones are calibrated to the board's plan: leave out --anywhere")
    check_colour_names(colours)
    reason = nameable(colours)
    if reason:
        raise UserError(reason)


def anywhere_instructions(colours: Sequence[str]) -> str:
    """What to lay, in words: 'at least 2 red, blue and yellow crystals each, ...'."""
    where = "anywhere on the places, one a place"
    if len(colours) == 1:
        return f"at least {MIN_PER_COLOUR} {colours[0]} crystals, {where}"
    names = ", ".join(colours[:-1]) + f" and {colours[-1]}"
    return f"at least {MIN_PER_COLOUR} {names} crystals each, {where}"


def plan_from_spots(spots: Sequence[Spot], colours: Sequence[str]) -> dict[str, tuple[Place, ...]]:
    """Which colour lies where; UserError (one sentence) when the spots leave a doubt."""
    check_colour_names(colours)
    reason = nameable(colours)
    if reason:
        raise UserError(reason)
    needed = MIN_PER_COLOUR * len(colours)
    if not spots:
        raise UserError(
            f"no crystals were found on the board: lay at least {MIN_PER_COLOUR} of each "
            "colour named, one a place"
        )
    grey = [spot.key for spot in spots if spot.saturation < NEUTRAL_SATURATION]
    if grey:
        raise UserError(
            f"{_places(grey)} {_holds(grey)} a crystal with no hue to tell it by (white, clear,"
            " grey or black): take it off, or lay the crystals to a plan (--plan FILE)"
        )
    typical = median(spot.area for spot in spots)
    crowded = [
        spot.key for spot in spots if spot.area > MORE_THAN_ONE * typical or spot.spread > TWO_HUES
    ]
    if crowded:
        raise UserError(
            f"{_places(crowded)} {_seem(crowded)} to hold more than one crystal: put one "
            "crystal on a place"
        )
    if len(spots) < needed:
        raise UserError(
            f"crystals were found on {len(spots)} place{'s' * (len(spots) != 1)}: lay at least"
            f" {MIN_PER_COLOUR} of each of the {len(colours)} colours named, one a place"
        )
    split = hue_groups([spot.hue for spot in spots], len(colours))
    groups = [[spots[i] for i in group] for group in split]
    return _named(groups, colours)


def hue_groups(hues: Sequence[float], count: int) -> list[list[int]]:
    """Indices of `hues` split into `count` groups at the widest gaps around the wheel,
    each group in order of hue."""
    order = sorted(range(len(hues)), key=lambda i: hues[i] % (2 * math.pi))
    if count <= 1 or len(order) <= 1:
        return [order]
    wheel = [hues[i] % (2 * math.pi) for i in order]
    # gaps[i]: from the i-th hue round to the next (the last wraps to the first).
    gaps = [(wheel[(i + 1) % len(wheel)] - wheel[i]) % (2 * math.pi) for i in range(len(wheel))]
    cuts = sorted(sorted(range(len(gaps)), key=lambda i: -gaps[i])[:count])
    groups = []
    for start, end in zip(cuts, [*cuts[1:], cuts[0] + len(order)], strict=True):
        groups.append([order[i % len(order)] for i in range(start + 1, end + 1)])
    return [group for group in groups if group]


def _named(groups: list[list[Spot]], colours: Sequence[str]) -> dict[str, tuple[Place, ...]]:
    hues = [_mean_hue([spot.hue for spot in group]) for group in groups]
    names = [nearest(hue, colours) for hue in hues]
    for group, hue, name in zip(groups, hues, names, strict=True):
        if distance(hue, name) > FAR:
            raise UserError(
                f"the crystals on {_places(_keys(group))} look like none of"
                f" {', '.join(colours)}: lay crystals of the colours named only"
            )
    named: dict[str, list[Spot]] = {}
    for group, name in zip(groups, names, strict=True):
        if name in named:
            missing = [c for c in colours if c not in names]
            raise UserError(
                f"two groups of crystals look {name} ({_places(_keys(named[name]))};"
                f" {_places(_keys(group))})"
                + (f" and none looks {' or '.join(missing)}" if missing else "")
                + f": lay at least {MIN_PER_COLOUR} crystals of each colour named, and no others"
            )
        named[name] = group
    for name in colours:
        keys = _keys(named.get(name, []))
        if len(keys) < MIN_PER_COLOUR:
            found = f"only {len(keys)} {name} crystal was found ({_places(keys)})"
            if not keys:
                found = f"no {name} crystal was found"
            raise UserError(f"{found}: lay at least {MIN_PER_COLOUR} of each colour, one a place")
    return {
        name: tuple(sorted((_place(key) for key in _keys(named[name])), key=_order))
        for name in colours
    }


def _keys(group: Sequence[Spot]) -> list[str]:
    return [spot.key for spot in group]


def _mean_hue(hues: Sequence[float]) -> float:
    return math.atan2(sum(math.sin(h) for h in hues), sum(math.cos(h) for h in hues))


def _place(key: str) -> Place:
    return int(key) if key.isdigit() else key


def _order(place: Place) -> tuple[int, int, str]:
    return (0, place, "") if isinstance(place, int) else (1, 0, place)


def _places(keys: Sequence[str]) -> str:
    ordered = [str(p) for p in sorted((_place(k) for k in keys), key=_order)]
    if len(ordered) == 1:
        return f"place {ordered[0]}"
    return f"places {', '.join(ordered[:-1])} and {ordered[-1]}"


def _holds(keys: Sequence[str]) -> str:
    return "holds" if len(keys) == 1 else "hold"


def _seem(keys: Sequence[str]) -> str:
    return "seems" if len(keys) == 1 else "seem"
