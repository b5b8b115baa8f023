"""A game's options: what the players agree before a game besides its house rules (how many
quadrants, how deep, which topology...), each as the rule book asks it, with its default and
the values it allows. The same list drives the All options page, setup files
(companion/table/setups.py) and `companion setup new GAME`.

An option's key is where its value goes in the engine's setup: ``depth`` is the setup's
"depth", ``topology.kind`` the "kind" in its "topology" object, and ``sides.*.depth`` each
side's "depth" (chosen per side, as ``sides.2.depth`` for the third side). Keys starting
``clock.`` are not the engine's: they set the game clock (``clock.controls.*``, each side's
time control).

    option = GameOption("depth", "Depth", "How deep do you play?", "MW-S8", 1,
                        (("1", 1), ("2", 2), ("Rolled", "roll")))
    apply_options({"depth": 1}, {"depth": "roll"}, (option,))      # {"depth": "roll"}
"""

from __future__ import annotations

import copy
import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.contract import JSON

Choice = tuple[str, Any]
"""(text on a button, value)."""

PER_SIDE = "*"
"""The part of a key that stands for a side's index."""
CLOCK = "clock."
"""What the keys of the game clock's options start with."""
TIME_CONTROLS = ("", "5+3", "15+10", "30+30", "-!60")
"""The game clock's presets: none, blitz, rapid, classical, one minute a move (clock
notation, `companion clock --help`)."""
_SIDE_KEY = re.compile(r"^(?P<head>[^*]*\.)(?P<side>\d+)(?P<tail>(\..+)?)$")


@dataclass(frozen=True, slots=True)
class GameOption:
    key: str
    group: str
    """The part of the rule book it belongs to, for grouping on the All options page."""
    question: str
    """What the players agree, as the book asks it."""
    rule: str
    """The rule id that defines it (MW-S4), '' where the book has none."""
    default: Any
    choices: tuple[Choice, ...]
    """Every value allowed, with its text; for a `many` option, the items it picks from.
    Empty for a text the players type (a board dealt by hand), which the engine checks when
    the game begins."""
    many: bool = False
    """The value is a list of some of the choices (at least one), in the choices' order."""

    @property
    def per_side(self) -> bool:
        return PER_SIDE in self.key.split(".")

    def for_side(self, side: int) -> str:
        """The key of a per-side option for side `side` (0-based)."""
        return ".".join(str(side) if part == PER_SIDE else part for part in self.key.split("."))

    def text_of(self, value: Any) -> str:
        """The value as the buttons say it."""
        texts = dict((_hashable(v), t) for t, v in self.choices)
        if self.many and isinstance(value, list | tuple):
            return ", ".join(texts.get(_hashable(v), str(v)) for v in value)
        return str(texts.get(_hashable(value), value))

    @property
    def typed(self) -> bool:
        """The value is a text typed, not one of a list."""
        return not self.choices

    def problem(self, value: Any) -> str | None:
        """What is wrong with `value` for this option, or None."""
        if self.typed:
            return None if isinstance(value, str) else f"must be a text, got {_shown(value)}"
        allowed = [v for _t, v in self.choices]
        if self.many:
            if (
                not isinstance(value, list | tuple)
                or not value
                or len(set(map(_hashable, value))) != len(value)
                or not all(_is_one_of(v, allowed) for v in value)
            ):
                items = ", ".join(_shown(v) for v in allowed)
                return f"must be a list of one or more of {items}, got {_shown(value)}"
            return None
        if not _is_one_of(value, allowed):
            return f"must be one of {', '.join(_shown(v) for v in allowed)}, got {_shown(value)}"
        return None


class BadOption(ValueError):
    """An option key or value a game does not have; names the key."""

    def __init__(self, key: str, problem: str) -> None:
        self.key = key
        self.problem = problem
        super().__init__(f"{key}: {problem}")


def option_for(key: str, options: Sequence[GameOption]) -> GameOption | None:
    """The option a key sets (``sides.1.depth`` is the per-side ``sides.*.depth``)."""
    for option in options:
        if option.key == key:
            return option
    match = _SIDE_KEY.match(key)
    if match is not None:
        general = f"{match['head']}{PER_SIDE}{match['tail']}"
        for option in options:
            if option.key == general:
                return option
    return None


def check_options(
    values: Mapping[str, Any], options: Sequence[GameOption], sides: int = 4
) -> dict[str, Any]:
    """The values, each checked against its option (BadOption naming the first bad one);
    lists are read as lists, in the choices' order for a `many` option."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        option = option_for(key, options)
        if option is None:
            raise BadOption(key, "is not an option of this game")
        if option.per_side:
            match = _SIDE_KEY.match(key)
            if match is None:
                raise BadOption(key, "names no side: write it with the side's number (0, 1...)")
            if int(match["side"]) >= sides:
                raise BadOption(key, f"there are only {sides} sides (numbered from 0)")
        problem = option.problem(value)
        if problem is not None:
            raise BadOption(key, problem)
        if option.typed and not value.strip():
            continue  # nothing typed: as if the option were not given
        if option.many:
            order = [_hashable(v) for _t, v in option.choices]
            value = sorted(value, key=lambda v: order.index(_hashable(v)))
        out[key] = list(value) if isinstance(value, tuple) else value
    return out


def apply_options(setup: Mapping[str, Any], values: Mapping[str, Any]) -> JSON:
    """A copy of the engine's `setup` with each option's value put where its key says (clock
    options left out: the clock is not the engine's). A side the setup does not have is
    skipped: an option chosen for a fourth side does not make a game of four."""
    out: JSON = copy.deepcopy(dict(setup))
    for key, value in values.items():
        if key.startswith(CLOCK):
            continue
        parts = key.split(".")
        place: Any = out
        for part, after in itertools.pairwise(parts):
            if isinstance(place, list):
                index = int(part)
                if index >= len(place):
                    place = None
                    break
                place = place[index]
            else:
                place = place.setdefault(part, [] if after.isdigit() else {})
        if place is None:
            continue
        last = parts[-1]
        if isinstance(place, list):
            if int(last) < len(place):
                place[int(last)] = copy.deepcopy(value)
        else:
            place[last] = copy.deepcopy(value)
    return out


def options_in(
    setup: Mapping[str, Any], options: Sequence[GameOption], sides: int
) -> dict[str, Any]:
    """The values an engine's `setup` gives its options, by key (per-side options for each
    of `sides` sides); an option the setup leaves out is left out."""
    out: dict[str, Any] = {}
    for option in options:
        if option.key.startswith(CLOCK):
            continue
        for key in [option.for_side(s) for s in range(sides)] if option.per_side else [option.key]:
            found, value = _at(setup, key.split("."))
            if found:
                out[key] = value
    return out


def _at(data: Any, parts: Sequence[str]) -> tuple[bool, Any]:
    for part in parts:
        if isinstance(data, list) and part.isdigit() and int(part) < len(data):
            data = data[int(part)]
        elif isinstance(data, Mapping) and part in data:
            data = data[part]
        else:
            return False, None
    return True, data


def clock_controls(values: Mapping[str, Any], sides: int, default: str) -> list[str]:
    """Each side's time control: the option chosen for it (``clock.controls.1``), else
    `default`."""
    return [str(values.get(f"{CLOCK}controls.{side}", default)) for side in range(sides)]


def time_control_text(control: str) -> str:
    """A time control as a button says it."""
    return {"": "None", "-!60": "1 min/move"}.get(control, control)


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _is_one_of(value: Any, allowed: Sequence[Any]) -> bool:
    # True == 1 in Python: a bool must match a bool, a number a number.
    return any(value == v and type(value) is type(v) for v in allowed)


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return str(value)
