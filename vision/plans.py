"""Where the calibration crystals lie: the built-in plan, a plan file, or a plan found.

A plan maps each colour to the places its crystals lie on, one crystal a listing: a place
listed once holds that crystal alone (calibration learns the colour there); a place listed
more than once holds several crystals (calibration only checks it reads them all).

    calibration_plan(("red", "blue"))            # {'red': (13, 88), 'blue': (38, 63)}
    calibration_plan_for(board, ["red", "blue"])  # the same, or a board file's own places
    load_plan(Path("plan.toml"), board, ["red", "blue", "yellow"])

A plan file (TOML) names the crystals on each place:

    [places]
    17 = ["red"]
    "diamond-2" = ["blue", "yellow"]

No NumPy or OpenCV here: the command line reads plans before it loads the camera code.
"""

from __future__ import annotations

import os
import tomllib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from vision.common.errors import UserError
from vision.common.files import parsing, read_input_text
from vision.geometry import Board

Place = int | str
"""A place's number (17), or another zone's key ('diamond-2')."""
Plan = Mapping[str, tuple[Place, ...]]
"""Colour -> the places its crystals lie on, one crystal a listing."""

PLAN_PLACES = (13, 88, 38, 63, 1, 100, 26, 75, 7, 94, 51, 32, 19, 57, 44, 82)
"""Places for the calibration crystals, taken two at a time: far apart, spread over the
quadrants and the board's edges as well as its middle."""

MAX_COLOURS = len(PLAN_PLACES) // 2


def check_colour_names(colours: Sequence[str]) -> None:
    """Refuse a colour list no plan can be made for: empty, repeated, or not names."""
    if not colours:
        raise UserError("name at least one crystal colour to calibrate")
    if len(set(colours)) != len(colours):
        raise UserError("each crystal colour may be named once")
    for name in colours:
        if not name or not name.replace("-", "").replace("_", "").isalnum():
            raise UserError(f"{name!r} is not a colour name: use letters, digits, - and _")


def calibration_plan(colours: Sequence[str]) -> dict[str, tuple[int, int]]:
    check_colour_names(colours)
    if len(colours) > MAX_COLOURS:
        raise UserError(f"at most {MAX_COLOURS} crystal colours can be calibrated at once")
    return {name: (PLAN_PLACES[2 * i], PLAN_PLACES[2 * i + 1]) for i, name in enumerate(colours)}


def calibration_plan_for(board: Board, colours: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """Where each colour's calibration pieces go: one on each of the board file's
    calibration places in turn (the MeM board's squares), or else two places a colour
    (calibration_plan)."""
    places = board.calibration_places
    if not places:
        return dict(calibration_plan(colours).items())
    check_colour_names(colours)
    if len(colours) > len(places):
        raise UserError(
            f"at most {len(places)} colours can be calibrated on the {board.name} board"
        )
    return {name: (places[i],) for i, name in enumerate(colours)}


def plan_instructions(board: Board, plan: Plan) -> str:
    """The plan in words: 'one red crystal on places 13 and 88; ...'."""
    piece, place = ("stone", "square") if board.game == "mem" else ("crystal", "place")
    return "; ".join(
        f"one {name} {piece} on {place}{'s' * (len(where) > 1)} "
        + " and ".join(str(p) for p in where)
        for name, where in plan.items()
    )


def found_words(plan: Plan) -> str:
    """Where crystals were found, in words: 'red crystals on places 3, 41 and 60; ...'."""
    parts = []
    for name, places in plan.items():
        where = [str(place) for place in places]
        listed = ", ".join(where[:-1]) + f" and {where[-1]}" if len(where) > 1 else where[0]
        parts.append(f"{name} crystals on place{'s' * (len(where) > 1)} {listed}")
    return "; ".join(parts)


def crystals_by_place(plan: Plan) -> dict[str, tuple[str, ...]]:
    """Zone key -> the colours of the crystals on it, sorted as a reading lists them."""
    held: dict[str, list[str]] = {}
    for name, places in plan.items():
        for place in places:
            held.setdefault(str(place), []).append(name)
    return {key: tuple(sorted(names)) for key, names in held.items()}


def alone(plan: Plan) -> dict[str, tuple[Place, ...]]:
    """Each colour's places that hold its crystal and nothing else: the ones to learn from."""
    count = Counter(str(place) for places in plan.values() for place in places)
    return {
        name: tuple(place for place in places if count[str(place)] == 1)
        for name, places in plan.items()
    }


def load_plan(path: Path, board: Board, colours: Sequence[str]) -> dict[str, tuple[Place, ...]]:
    """A plan file, checked against the board's zones and the colours named."""
    if not os.path.lexists(path):
        raise UserError("no such plan file", where=str(path))
    text = read_input_text(path, "plan file")
    return parse_plan(text, str(path), board, colours)


def parse_plan(
    text: str, where: str, board: Board, colours: Sequence[str]
) -> dict[str, tuple[Place, ...]]:
    check_colour_names(colours)
    try:
        with parsing(where, "plan file"):
            data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise UserError(f"not valid TOML: {error}", where=where) from None
    return _plan(data, board, colours, where)


def _plan(
    data: dict[str, Any], board: Board, colours: Sequence[str], where: str
) -> dict[str, tuple[Place, ...]]:
    def refuse(message: str) -> UserError:
        return UserError(message, where=where)

    unknown = sorted(set(data) - {"places"})
    if unknown:
        raise refuse(f"unknown section {unknown[0]!r}: a plan file has only [places]")
    places = data.get("places")
    if not isinstance(places, dict) or not places:
        raise refuse('the plan lays no crystals: add [places] with lines like 17 = ["red"]')
    keys = [zone.key for zone in board.zones()]
    plan: dict[str, list[Place]] = {name: [] for name in colours}
    for key, names in places.items():
        if key not in keys:
            raise refuse(f"no place {key!r} on the {board.name} board ({_zone_names(keys)})")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise refuse(f'place {key}: give a list of colours, e.g. {key} = ["red"]')
        if not names:
            raise refuse(f"place {key}: no colours listed")
        for name in names:
            if name not in plan:
                raise refuse(
                    f"place {key}: {name!r} is not one of the colours {', '.join(colours)}"
                )
            plan[name].append(int(key) if key.isdigit() else key)
    result = {name: tuple(listed) for name, listed in plan.items()}
    _check_learnable(result, board, refuse)
    return result


def _check_learnable(plan: Plan, board: Board, refuse: Callable[[str], UserError]) -> None:
    """Every colour needs a crystal of its own to be learnt from (a MeM stone, a square)."""
    for name, places in plan.items():
        if not places:
            raise refuse(f"no {name} crystal in the plan: give it a place")
        if not alone(plan)[name]:
            raise refuse(
                f"{name} only lies with other crystals: give one {name} crystal a place alone"
            )
    if board.game == "mem" and any(len(c) > 1 for c in crystals_by_place(plan).values()):
        raise refuse("a MeM plan puts one stone on a square, each on a square of its own")


def _zone_names(keys: Sequence[str]) -> str:
    numbers = [key for key in keys if key.isdigit()]
    others = [key for key in keys if not key.isdigit()]
    span = f"places {numbers[0]} to {numbers[-1]}" if numbers else ""
    return ", ".join([span, *others] if span else others)
