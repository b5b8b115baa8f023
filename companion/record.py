"""The game record: the project's PGN, as JSON Lines.

Line 1 is the header; every further line is one action with its time:

    {"record": "tabletop-companion/game-record", "version": 1, "game": "memwars",
     "started": "2026-11-22T10:00:00Z", "deck": {"id": ..., "hash": ...}, "setup": {...}}
    {"seq": 1, "t": 0.0, "action": {"type": "roll_for_first"}}

Readers take streams, not paths; a bad line is a UserError naming the line and field.
"""

from __future__ import annotations

import json
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

RECORD_MAGIC = "tabletop-companion/game-record"
RECORD_VERSION = 1


@dataclass(frozen=True)
class RecordHeader:
    game: str
    setup: JSON
    deck: JSON = field(default_factory=dict)
    started: str = ""

    def to_dict(self) -> JSON:
        return {
            "record": RECORD_MAGIC,
            "version": RECORD_VERSION,
            "game": self.game,
            "started": self.started,
            "deck": self.deck,
            "setup": self.setup,
        }

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
        return RecordHeader(game=data["game"], setup=data["setup"], deck=deck, started=started)


@dataclass(frozen=True)
class RecordedAction:
    seq: int
    t: float
    """Seconds since the game started, from the companion's monotonic clock."""
    action: Action


@dataclass(frozen=True)
class GameRecord:
    header: RecordHeader
    actions: tuple[RecordedAction, ...]


def action_line(engine: GameEngine[Any], seq: int, t: float, action: Action) -> JSON:
    return {"seq": seq, "t": round(t, 6), "action": engine.action_to_dict(action)}


def write_record(out: IO[str], header: RecordHeader, actions: Iterable[tuple[float, JSON]]) -> None:
    """Writes a record; `actions` are (time, action dict) pairs in order."""
    out.write(json.dumps(header.to_dict(), separators=(",", ":")) + "\n")
    for seq, (t, action) in enumerate(actions, start=1):
        out.write(
            json.dumps({"seq": seq, "t": round(t, 6), "action": action}, separators=(",", ":"))
            + "\n"
        )


def _lines(stream: IO[str], name: str) -> Iterator[tuple[int, Any]]:
    for number, text in enumerate(stream, start=1):
        if not text.strip():
            continue
        try:
            yield number, json.loads(text)
        except json.JSONDecodeError as err:
            raise UserError(
                f"not valid JSON: {err.msg} (column {err.colno})", where=f"{name}:{number}"
            ) from None


def read_record(stream: IO[str], name: str = "<record>") -> GameRecord:
    """Parses a record and checks every action's shape (not yet its legality)."""
    lines = _lines(stream, name)
    first = next(lines, None)
    if first is None:
        raise UserError("the record is empty", where=name)
    header = RecordHeader.from_dict(first[1], where=f"{name}:{first[0]}")
    engine = find_engine(header.game)
    actions: list[RecordedAction] = []
    for number, data in lines:
        where = f"{name}:{number}"
        if not isinstance(data, dict):
            raise UserError("an action line must be a JSON object", where=where)
        seq, t = data.get("seq"), data.get("t")
        if not isinstance(seq, int) or seq != len(actions) + 1:
            raise UserError(f"'seq' must be {len(actions) + 1}, got {seq!r}", where=where)
        if isinstance(t, bool) or not isinstance(t, int | float):
            raise UserError(f"'t' must be a number of seconds, got {t!r}", where=where)
        if set(data) - {"seq", "t", "action"}:
            raise UserError(
                f"unknown key {sorted(set(data) - {'seq', 't', 'action'})[0]!r}", where=where
            )
        try:
            action = engine.action_from_dict(data.get("action"))  # type: ignore[arg-type]
        except BadData as err:
            raise UserError(str(err), where=where) from None
        actions.append(RecordedAction(seq=seq, t=float(t), action=action))
    return GameRecord(header=header, actions=tuple(actions))


@dataclass(frozen=True)
class Replay:
    engine: GameEngine[Any]
    state: Any
    events: tuple[tuple[int, Event], ...]


def replay(record: GameRecord, name: str = "<record>", upto: int | None = None) -> Replay:
    """Folds every action through the engine; an illegal one is a UserError naming its line
    (the header is line 1, so action seq N is on line N + 1 when no blank lines intervene)."""
    engine = find_engine(record.header.game)
    try:
        state = engine.new_game(record.header.setup)
    except BadSetup as err:
        raise UserError(f"bad setup: {err}", where=f"{name}:1") from None
    events: list[tuple[int, Event]] = []
    for recorded in record.actions[:upto]:
        try:
            state, happened = engine.apply(state, recorded.action)
        except IllegalAction as err:
            raise UserError(
                f"action {recorded.seq} is illegal: {err}", where=f"{name}:{recorded.seq + 1}"
            ) from None
        events.extend((recorded.seq, event) for event in happened)
    return Replay(engine=engine, state=state, events=tuple(events))


def header_for(
    engine: GameEngine[Any], state: Any, deck: Mapping[str, Any], started: str
) -> RecordHeader:
    return RecordHeader(
        game=engine.name, setup=engine.setup_of(state), deck=dict(deck), started=started
    )
