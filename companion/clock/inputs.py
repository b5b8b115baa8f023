"""Clock inputs as JSON: what is recorded so that a game's clock replays exactly.

A clock changes only through inputs (presses, switches, pauses, arbiter corrections, ticks
that announced a flag) and each carries its own time on the game's timeline, in integer
nanoseconds. Folding the recorded inputs through the model gives the clock back to the
nanosecond.

    {"type": "press", "player": 0, "t_ns": 12500000000}
    {"type": "checkpoint", "t_ns": 13000000000}       # changes nothing; marks time passing
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from companion.clock import model
from companion.clock.model import Clock, ClockError, Events
from companion.clock.notation import BadTimeControl, parse

INPUT_FIELDS: dict[str, tuple[str, ...]] = {
    "start": ("player",),
    "press": ("player",),
    "switch": ("player",),
    "pause": (),
    "resume": (),
    "adjust": ("player", "delta_ns"),
    "set": ("player", "ns"),
    "undo": (),
    "tick": (),
    "checkpoint": (),
}


def clock_from_spec(spec: Mapping[str, Any]) -> Clock:
    """A new clock from a header's clock entry; ClockError says what is wrong."""
    if not isinstance(spec, Mapping) or not isinstance(spec.get("controls"), list):
        raise ClockError("a clock needs a list of controls, one per side")
    try:
        controls = [parse(text) for text in spec["controls"]]
    except (BadTimeControl, AttributeError, TypeError) as err:
        raise ClockError(f"clock.controls: {err}") from None
    order = spec.get("order")
    if order is not None and not (
        isinstance(order, list) and all(isinstance(p, int) for p in order)
    ):
        raise ClockError("clock.order must be a list of player numbers")
    return model.new_clock(controls, order)


def apply_input(clock: Clock, data: Mapping[str, Any]) -> tuple[Clock, Events]:
    """One recorded input through the model; ClockError for one that does not fit."""
    kind = data.get("type") if isinstance(data, Mapping) else None
    if kind not in INPUT_FIELDS:
        raise ClockError(f"unknown clock input {kind!r}")
    t = _int(data, "t_ns")
    args = [_int(data, name) for name in INPUT_FIELDS[kind]]
    if kind == "start":
        return model.start(clock, args[0], t)
    if kind == "press":
        return model.press(clock, args[0], t)
    if kind == "switch":
        return model.switch_to(clock, args[0], t)
    if kind == "pause":
        return model.pause(clock, t)
    if kind == "resume":
        return model.resume(clock, t)
    if kind == "adjust":
        return model.adjust(clock, args[0], args[1], t)
    if kind == "set":
        return model.set_time(clock, args[0], args[1], t)
    if kind == "undo":
        return model.undo(clock, t)
    if kind == "tick":
        return model.tick(clock, t, settle_ns=0)
    return clock, ()


def replay_inputs(clock: Clock, inputs: Iterable[Mapping[str, Any]]) -> Clock:
    for data in inputs:
        clock, _ = apply_input(clock, data)
    return clock


def _int(data: Mapping[str, Any], name: str) -> int:
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ClockError(f"clock input {data.get('type')!r}: {name} must be a whole number")
    return value
