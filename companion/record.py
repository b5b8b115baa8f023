"""The game record: the project's PGN, as JSON Lines.

Line 1 is the header; every further line is one action with its time:

    {"record": "tabletop-companion/game-record", "version": 1, "game": "memwars",
     "started": "2026-11-22T10:00:00Z", "deck": {"id": ..., "hash": ...}, "setup": {...}}
    {"seq": 1, "t": 0.0, "action": {"type": "roll_for_first"}}

Readers take streams, not paths; a bad line is a UserError naming the line and field.
"""

from __future__ import annotations

import io
import json
import math
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, Any

from companion.errors import UserError
from companion.games import find_engine
from companion.games.contract import (
    JSON,
    Action,
    BadData,
    BadSetup,
    Event,
    GameEngine,
    IllegalAction,
)
from vision.common.files import parsing, read_input_text, read_stream_text

RECORD_MAGIC = "tabletop-companion/game-record"
RECORD_VERSION = 1


@dataclass(frozen=True)
class RecordHeader:
    game: str
    setup: JSON
    deck: JSON = field(default_factory=dict)
    started: str = ""
    clock: JSON | None = None
    """The game clock, when the game is timed: {"controls": [one per side], "order": [...]}."""

    def to_dict(self) -> JSON:
        out: JSON = {
            "record": RECORD_MAGIC,
            "version": RECORD_VERSION,
            "game": self.game,
            "started": self.started,
            "deck": self.deck,
            "setup": self.setup,
        }
        if self.clock is not None:
            out["clock"] = self.clock
        return out

    @staticmethod
    def from_dict(data: Any, where: str = "header") -> RecordHeader:
        if not isinstance(data, dict):
            raise UserError("the header must be a JSON object", where=where)
        if data.get("record") != RECORD_MAGIC:
            raise UserError(f'not a game record ("record" must be {RECORD_MAGIC!r})', where=where)
        if data.get("version") != RECORD_VERSION:
            raise UserError(
                f"record version {data.get('version')!r} is not supported "
                f"(this is {RECORD_VERSION})",
                where=where,
            )
        for key, kind in (("game", str), ("setup", dict)):
            if not isinstance(data.get(key), kind):
                raise UserError(f"{key!r} is missing or not a {kind.__name__}", where=where)
        deck = data.get("deck", {})
        started = data.get("started", "")
        if not isinstance(deck, dict) or not isinstance(started, str):
            raise UserError("'deck' must be an object and 'started' text", where=where)
        clock = data.get("clock")
        if clock is not None and not isinstance(clock, dict):
            raise UserError("'clock' must be an object", where=where)
        return RecordHeader(
            game=data["game"], setup=data["setup"], deck=deck, started=started, clock=clock
        )


@dataclass(frozen=True)
class RecordedAction:
    seq: int
    """The action's place among the record's actions, from 1: its line's `seq`, or where
    the line stands when a hand-written record leaves `seq` out."""
    t: float
    """Seconds since the game started, from the companion's monotonic clock."""
    action: Action
    line: int = 0
    """The line of the record it was read from (0 when not read from a file)."""


@dataclass(frozen=True)
class RecordedClockInput:
    n: int
    t_ns: int
    input: JSON


@dataclass(frozen=True)
class GameRecord:
    header: RecordHeader
    actions: tuple[RecordedAction, ...]
    clock_inputs: tuple[RecordedClockInput, ...] = ()


def write_record(
    out: IO[str],
    header: RecordHeader,
    actions: Iterable[tuple[float, JSON]],
    clock_inputs: Iterable[tuple[int, JSON]] = (),
) -> None:
    """Writes a record: `actions` are (seconds, action dict) pairs in order, `clock_inputs`
    (nanoseconds, input dict) pairs; the two are merged in time order, an action first when
    both happened at once."""
    lines: list[tuple[float, int, JSON]] = []
    for seq, (t, action) in enumerate(actions, start=1):
        lines.append((t, 0, {"seq": seq, "t": round(t, 6), "action": action}))
    for n, (t_ns, data) in enumerate(clock_inputs, start=1):
        lines.append(
            (
                t_ns / 1e9,
                1,
                {"clock": n, "t": round(t_ns / 1e9, 6), "input": {**data, "t_ns": t_ns}},
            )
        )
    lines.sort(key=lambda line: (line[0], line[1]))
    out.write(json.dumps(header.to_dict(), separators=(",", ":")) + "\n")
    for _, _, line in lines:
        out.write(json.dumps(line, separators=(",", ":")) + "\n")


def _no_constant(name: str) -> Any:
    raise UserError(f"not valid JSON: {name} is not a JSON number")


def _lines(stream: IO[str], name: str) -> Iterator[tuple[int, Any]]:
    for number, text in enumerate(stream, start=1):
        if not text.strip():
            continue
        where = f"{name}:{number}"
        try:
            with parsing(where, "game record line"):
                data = json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as err:
            raise UserError(
                f"not valid JSON: {err.msg} (column {err.colno})", where=where
            ) from None
        except UserError as err:
            raise UserError(err.message, where=where) from None
        yield number, data


def read_record(stream: IO[str], name: str = "<record>") -> GameRecord:
    """Parses a record and checks every action's shape (not yet its legality)."""
    lines = _lines(stream, name)
    first = next(lines, None)
    if first is None:
        raise UserError("the record is empty", where=name)
    header = RecordHeader.from_dict(first[1], where=f"{name}:{first[0]}")
    engine = find_engine(header.game)
    actions: list[RecordedAction] = []
    clock_inputs: list[RecordedClockInput] = []
    for number, data in lines:
        where = f"{name}:{number}"
        if not isinstance(data, dict):
            raise UserError("an action line must be a JSON object", where=where)
        if "clock" in data:
            after_ns = clock_inputs[-1].t_ns if clock_inputs else 0
            clock_inputs.append(_clock_line(data, len(clock_inputs) + 1, where, after_ns))
            continue
        # A hand-written record may leave 'seq' out; where it is given it must count on.
        expected_seq = len(actions) + 1
        seq, t = data.get("seq", expected_seq), data.get("t")
        if isinstance(seq, bool) or not isinstance(seq, int) or seq != expected_seq:
            raise UserError(f"'seq' must be {expected_seq}, got {seq!r}", where=where)
        seconds = _seconds(t, where)
        if actions and seconds < actions[-1].t:
            raise UserError(
                f"'t' goes backwards: {t!r} after {actions[-1].t!r} (times never decrease)",
                where=where,
            )
        if set(data) - {"seq", "t", "action"}:
            raise UserError(
                f"unknown key {sorted(set(data) - {'seq', 't', 'action'})[0]!r}", where=where
            )
        try:
            action = engine.action_from_dict(data.get("action"))  # type: ignore[arg-type]
        except BadData as err:
            raise UserError(str(err), where=where) from None
        actions.append(RecordedAction(seq=seq, t=seconds, action=action, line=number))
    if clock_inputs and header.clock is None:
        raise UserError("clock lines, but the header describes no clock", where=name)
    return GameRecord(header=header, actions=tuple(actions), clock_inputs=tuple(clock_inputs))


def read_record_file(name: str) -> GameRecord:
    """The record in file `name`, or on standard input for '-': read as every input file is
    (vision/common/files.py: a regular file, a few MB at most, UTF-8) and parsed."""
    if name == "-":
        text = read_stream_text(sys.stdin.buffer, "<stdin>", "game record")
        return read_record(io.StringIO(text), "<stdin>")
    text = read_input_text(name, "game record")
    return read_record(io.StringIO(text), name)


def _clock_line(data: JSON, expected_n: int, where: str, after_ns: int = 0) -> RecordedClockInput:
    n, item = data.get("clock"), data.get("input")
    if not isinstance(n, int) or n != expected_n:
        raise UserError(f"'clock' must be {expected_n}, got {n!r}", where=where)
    if set(data) - {"clock", "t", "input"}:
        raise UserError(
            f"unknown key {sorted(set(data) - {'clock', 't', 'input'})[0]!r}", where=where
        )
    if not isinstance(item, dict) or not isinstance(item.get("t_ns"), int):
        raise UserError("a clock line needs an 'input' object with a whole 't_ns'", where=where)
    _seconds(data.get("t"), where)
    if item["t_ns"] < 0 or item["t_ns"] < after_ns:
        raise UserError(
            f"'t_ns' must be 0 or more and never decrease, got {item['t_ns']!r} after {after_ns}",
            where=where,
        )
    return RecordedClockInput(n=n, t_ns=item["t_ns"], input=item)


def _seconds(t: Any, where: str) -> float:
    """A line's 't': a finite number of seconds, 0 or more (record.schema.json)."""
    if isinstance(t, bool) or not isinstance(t, int | float):
        raise UserError(f"'t' must be a number of seconds, got {t!r}", where=where)
    try:
        seconds = float(t)
    except OverflowError:
        seconds = math.inf
    if not math.isfinite(seconds) or seconds < 0:
        raise UserError(
            f"'t' must be a finite number of seconds, 0 or more, got {t!r}", where=where
        )
    return seconds


@dataclass(frozen=True)
class Replay:
    engine: GameEngine[Any]
    state: Any
    events: tuple[tuple[int, Event], ...]
    """Every event with the seq of the action that caused it, from the very first: 0 for
    those of starting the game (engine.start). An implied action's events carry the seq of
    the action it was implied before."""
    clock: Any = None
    """The game clock (companion.clock.model.Clock) after every recorded input, if timed."""
    implied: tuple[tuple[int, Action], ...] = ()
    """Actions the record left out and the reader supplied (engine.implied), each with the
    seq of the action it was supplied before: a hand-written MemWars record's declines."""


@dataclass(frozen=True)
class Step:
    """The game after one recorded action (seq 0: after starting it)."""

    seq: int
    state: Any
    events: tuple[Event, ...]
    """What this action made happen, those of the actions supplied before it first."""
    supplied: tuple[Action, ...] = ()
    """Actions the record left out, supplied before this one (engine.implied)."""


def replay_steps(
    record: GameRecord, name: str = "<record>", upto: int | None = None
) -> Iterator[Step]:
    """The game after each recorded action in turn, from the start; an illegal action is a
    UserError naming its line.

    Before each action the engine may supply actions the record left out (engine.implied,
    e.g. MemWars declines): they are applied first, and listed in the step's `supplied`.
    """
    engine = find_engine(record.header.game)
    try:
        state, opening = engine.start(record.header.setup)
    except BadSetup as err:
        raise UserError(f"bad setup: {err}", where=f"{name}:1") from None
    # What happened before action 1 (play starting, the first turn) is numbered seq 0.
    yield Step(0, state, tuple(opening))
    for recorded in record.actions[:upto]:
        supplied: list[Action] = []
        happened_all: list[Event] = []
        try:
            # A leftout action is legal by the engine's contract, and each one moves the game
            # on; the bound only guards against an engine that breaks that contract.
            for _ in range(_MAX_IMPLIED):
                extra = engine.implied(state, recorded.action)
                if extra is None:
                    break
                state, happened = engine.apply(state, extra)
                supplied.append(extra)
                happened_all.extend(happened)
            state, happened = engine.apply(state, recorded.action)
        except IllegalAction as err:
            raise UserError(
                f"action {recorded.seq} is illegal: {err}{_supplied_note(engine, supplied)}",
                where=f"{name}:{recorded.line or recorded.seq + 1}",
            ) from None
        happened_all.extend(happened)
        yield Step(recorded.seq, state, tuple(happened_all), tuple(supplied))


def replay(record: GameRecord, name: str = "<record>", upto: int | None = None) -> Replay:
    """Folds every action through the engine (replay_steps) to where the record ends."""
    engine = find_engine(record.header.game)
    state: Any = None
    events: list[tuple[int, Event]] = []
    implied: list[tuple[int, Action]] = []
    for step in replay_steps(record, name, upto):
        state = step.state
        events.extend((step.seq, event) for event in step.events)
        implied.extend((step.seq, extra) for extra in step.supplied)
    clock = None
    if record.header.clock is not None:
        clock = _replay_clock(record, name)
    return Replay(
        engine=engine, state=state, events=tuple(events), clock=clock, implied=tuple(implied)
    )


_MAX_IMPLIED = 8
"""More than any game leaves out before one action (MemWars: one decline per other side)."""


def _supplied_note(engine: GameEngine[Any], supplied: list[Action]) -> str:
    """Tells, after a refusal, which left-out actions the reader applied before it."""
    if not supplied:
        return ""
    described = ", ".join(json.dumps(engine.action_to_dict(a)) for a in supplied)
    return f" (after {described}, which the record left out and the reader supplied)"


def _replay_clock(record: GameRecord, name: str) -> Any:
    from companion.clock.inputs import apply_input, clock_from_spec
    from companion.clock.model import ClockError

    try:
        clock = clock_from_spec(record.header.clock or {})
    except ClockError as err:
        raise UserError(f"bad clock: {err}", where=f"{name}:1") from None
    for item in record.clock_inputs:
        try:
            clock, _ = apply_input(clock, item.input)
        except ClockError as err:
            raise UserError(f"clock input {item.n} does not replay: {err}", where=name) from None
    return clock


def header_for(
    engine: GameEngine[Any],
    state: Any,
    deck: Mapping[str, Any],
    started: str,
    clock: Mapping[str, Any] | None = None,
) -> RecordHeader:
    return RecordHeader(
        game=engine.name,
        setup=engine.setup_of(state),
        deck=dict(deck),
        started=started,
        clock=dict(clock) if clock is not None else None,
    )
