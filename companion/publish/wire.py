"""The wire format of the live stream: every topic name and every payload shape, in one place.

    topics = Topics("tabletop", "table-1")
    topics.state                                  # 'tabletop/table-1/state'
    message = topics.message("state", state_payload(...))
    message.qos, message.retain                   # 1, True
    validate("state", json.loads(message.payload))

Six topics per board, under `<prefix>/<board_id>/`:

| topic    | QoS | retained | payload                                        |
|----------|-----|----------|------------------------------------------------|
| `state`  | 1   | yes      | the spectator's picture of the game (JSON)     |
| `event`  | 1   | no       | one event of a committed action (JSON)         |
| `clock`  | 0   | no       | a reading of the game clock (JSON)             |
| `alert`  | 1   | no       | something for the table to notice (JSON)       |
| `result` | 1   | yes      | a finished game's result and record hash (JSON) |
| `status` | 1   | yes      | `online` / `offline`, plain text; the Last Will |

A tournament hub (companion/tournament) publishes under `<prefix>/<hub_id>/`:
`standings/<division>`, `pairings/<division>`, `table/<board_id>` and `hub/status`, all
retained (`HubTopics`).

Remote play (companion/remote: one game played by two companions) has topics of its own,
under a prefix of their own (`REMOTE_PREFIX`, never the stream's: its moves may carry a
hidden value and must not reach spectators): `RemoteTopics`.

Every JSON payload has `"schema": SCHEMA_VERSION`, the `board` id and `t`, the game's time in
seconds. Their JSON Schemas (draft 2020-12) are in `schemas/<kind>.schema.json`; docs/mqtt.md
has examples. What may go in them is the spectator's view and public events only: see
docs/mqtt.md, "Hidden information". Home Assistant's discovery configs are Home Assistant's
own format; `discovery_topic` names them and companion/publish/homeassistant.py builds them.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any, Final, Literal

from jsonschema import Draft202012Validator

from companion.clock.display import ClockDisplay
from companion.errors import UserError

SCHEMA_VERSION: Final = 1
DEFAULT_PREFIX: Final = "tabletop"
DISCOVERY_PREFIX: Final = "homeassistant"

ONLINE: Final = "online"
OFFLINE: Final = "offline"

Kind = Literal[
    "state",
    "event",
    "clock",
    "alert",
    "result",
    "status",
    "discovery",
    "standings",
    "pairings",
    "assignment",
    "invite",
    "at",
    "move",
    "want",
]
BoardKind = Literal["state", "event", "clock", "alert", "result", "status"]
JSON_KINDS: Final = ("state", "event", "clock", "alert", "result")
"""The kinds of a board's topics whose payload is JSON with a schema file; `status` is plain
text."""
HUB_KINDS: Final = ("standings", "pairings", "assignment")
"""The kinds a tournament hub publishes, each JSON with a schema file."""

Level = Literal["info", "warning", "error"]
LEVELS: Final = ("info", "warning", "error")

QOS: Final[Mapping[Kind, int]] = {
    "state": 1,
    "event": 1,
    "clock": 0,
    "alert": 1,
    "result": 1,
    "status": 1,
    "discovery": 1,
    "standings": 1,
    "pairings": 1,
    "assignment": 1,
    "invite": 1,
    "at": 1,
    "move": 1,
    "want": 1,
}
RETAIN: Final[Mapping[Kind, bool]] = {
    "state": True,
    "event": False,
    "clock": False,
    "alert": False,
    # Retained so that a hub that starts (or reconnects) after a game ended still hears it.
    "result": True,
    "status": True,
    "discovery": True,
    # Retained so that a wall or a table that reloads has the whole picture at once.
    "standings": True,
    "pairings": True,
    "assignment": True,
    # Remote play: the invitation and where each companion is are retained, so that a
    # companion that (re)connects learns them at once; a move is asked for again when missed.
    "invite": True,
    "at": True,
    "move": False,
    "want": False,
}

# Alerts for cards scanned at the table. A verdict's own message names the card, and which
# card was scanned can give away a place that is still hidden (MemWars' house rule
# basic.mustLocatePlace), so the stream says only what kind of mistake it was.
SCAN_NOT_EXPECTED: Final = "a card that is not the one expected was scanned"
SCAN_NOT_NOW: Final = "a card was scanned while no card is expected"
SCAN_OTHER_DECK: Final = "a card of another deck was scanned"
SCAN_UNKNOWN: Final = "an unknown card was scanned"

_LEVEL_RE = re.compile(r"^[^/+#\x00]+$")


class WireError(UserError):
    """A prefix or board id that cannot be a topic level, or a malformed payload."""


@dataclass(frozen=True, slots=True)
class Message:
    """One MQTT message, ready for the publisher."""

    kind: Kind
    topic: str
    payload: bytes
    qos: int
    retain: bool


@dataclass(frozen=True, slots=True)
class Topics:
    """The topics of one board. `prefix` may have several levels (`clubs/paris`)."""

    prefix: str
    board: str

    def __post_init__(self) -> None:
        check_board_id(self.board)
        check_prefix(self.prefix)

    @property
    def base(self) -> str:
        return f"{self.prefix}/{self.board}"

    @property
    def state(self) -> str:
        return f"{self.base}/state"

    @property
    def event(self) -> str:
        return f"{self.base}/event"

    @property
    def clock(self) -> str:
        return f"{self.base}/clock"

    @property
    def alert(self) -> str:
        return f"{self.base}/alert"

    @property
    def result(self) -> str:
        return f"{self.base}/result"

    @property
    def status(self) -> str:
        return f"{self.base}/status"

    @property
    def everything(self) -> str:
        """The subscription that hears this board: `<prefix>/<board>/#`."""
        return f"{self.base}/#"

    def topic(self, kind: BoardKind) -> str:
        return f"{self.base}/{kind}"

    def message(self, kind: BoardKind, payload: Mapping[str, Any] | str) -> Message:
        """The message for `payload` on this board's `kind` topic, with its QoS and retain."""
        if kind == "status":
            if payload not in (ONLINE, OFFLINE):
                raise WireError(f"a status is {ONLINE!r} or {OFFLINE!r}, not {payload!r}")
            data = str(payload).encode()
        else:
            if isinstance(payload, str):
                raise WireError(f"a {kind} payload is a JSON object")
            data = encode(payload)
        return Message(kind, self.topic(kind), data, QOS[kind], RETAIN[kind])


@dataclass(frozen=True, slots=True)
class HubTopics:
    """The topics of a tournament hub, under `<prefix>/<hub>/`; `hub` is one topic level,
    like a board id, and so is each division's name."""

    prefix: str
    hub: str

    def __post_init__(self) -> None:
        check_board_id(self.hub)
        check_prefix(self.prefix)

    @property
    def base(self) -> str:
        return f"{self.prefix}/{self.hub}"

    @property
    def results(self) -> str:
        """The subscription that hears every board's result: `<prefix>/+/result`."""
        return f"{self.prefix}/+/result"

    @property
    def status(self) -> str:
        """The hub's `online`/`offline`: one level deeper than a board's status, so that
        a wall listening to `<prefix>/+/status` does not take the hub for a board."""
        return f"{self.base}/hub/status"

    def standings(self, division: str) -> str:
        check_topic_level(division, "division name")
        return f"{self.base}/standings/{division}"

    def pairings(self, division: str) -> str:
        check_topic_level(division, "division name")
        return f"{self.base}/pairings/{division}"

    def assignment(self, board: str) -> str:
        check_board_id(board)
        return f"{self.base}/table/{board}"

    def topic(self, kind: Literal["standings", "pairings", "assignment"], name: str) -> str:
        """The topic of a `kind` message: `name` is the division (standings, pairings) or
        the board (assignment)."""
        if kind == "assignment":
            return self.assignment(name)
        return self.standings(name) if kind == "standings" else self.pairings(name)

    def message(
        self,
        kind: Literal["standings", "pairings", "assignment"],
        name: str,
        payload: Mapping[str, Any],
    ) -> Message:
        """The retained message for `payload`: `name` is the division (standings, pairings)
        or the board (assignment)."""
        return Message(kind, self.topic(kind, name), encode(payload), QOS[kind], RETAIN[kind])


REMOTE_PREFIX: Final = "tabletop-remote"
"""Where remote play's topics go unless configured: not under the stream's prefix, which
displays read and a hall's bridge sends out (docs/mosquitto/hall-bridge.conf)."""

Role = Literal["host", "guest"]
ROLES: Final[tuple[Role, ...]] = ("host", "guest")
"""The companion that created a shared game (and keeps its clock) is the host; the one that
joined it, the guest."""

RemoteKind = Literal["status", "at", "move", "want", "clock"]
REMOTE_KINDS: Final[tuple[RemoteKind, ...]] = ("status", "at", "move", "want", "clock")


def other_role(role: Role) -> Role:
    return "guest" if role == "host" else "host"


@dataclass(frozen=True, slots=True)
class RemoteTopics:
    """The topics of one game shared by two companions (remote play), under
    `<prefix>/<match>/`: `invite` (the host's), then each companion's own under
    `<prefix>/<match>/<role>/`: `status` (`online`/`offline`, its Last Will), `at` (where
    it is), `move` (its moves), `want` (the moves it asks the other for) and, the host's
    alone, `clock` (the game clock's readings). `match` is one topic level."""

    prefix: str
    match: str

    def __post_init__(self) -> None:
        check_prefix(self.prefix)
        check_topic_level(self.match, "match name")
        first = self.prefix.split("/", 1)[0]
        if first in (DEFAULT_PREFIX, DISCOVERY_PREFIX):
            raise WireError(
                f"remote play's prefix {self.prefix!r} must not be under {first!r}: displays "
                "read those topics and a hall's bridge sends them out, and a move may carry "
                "a hidden value"
            )

    @property
    def base(self) -> str:
        return f"{self.prefix}/{self.match}"

    @property
    def invite(self) -> str:
        return f"{self.base}/invite"

    def topic(self, role: Role, kind: RemoteKind) -> str:
        return f"{self.base}/{role}/{kind}"

    def of(self, role: Role) -> str:
        """The subscription that hears one companion: `<prefix>/<match>/<role>/#`."""
        return f"{self.base}/{role}/#"

    def parse(self, topic: str) -> tuple[Role, RemoteKind] | None:
        """(role, kind) of one of this game's companion topics; None for any other topic."""
        rest = topic.removeprefix(f"{self.base}/")
        if rest == topic:
            return None
        role, _, kind = rest.partition("/")
        for known_role in ROLES:
            for known_kind in REMOTE_KINDS:
                if role == known_role and kind == known_kind:
                    return known_role, known_kind
        return None

    def message(self, role: Role, kind: RemoteKind, payload: Mapping[str, Any]) -> Message:
        """A JSON message of one companion's (not `status`, which the publisher sends)."""
        if kind == "status":
            raise WireError("a companion's status is sent by its publisher, as plain text")
        return Message(kind, self.topic(role, kind), encode(payload), QOS[kind], RETAIN[kind])

    def invitation(self, payload: Mapping[str, Any]) -> Message:
        return Message("invite", self.invite, encode(payload), QOS["invite"], RETAIN["invite"])


def check_topic_level(value: str, what: str) -> None:
    """`value` can be one topic level: not empty, no `/`, `+` or `#`."""
    if not value or "/" in value or not _LEVEL_RE.match(value):
        raise WireError(f"{what} {value!r} cannot be an MQTT topic level (no '/', '+', '#')")


def check_board_id(board: str) -> None:
    """A board id is one topic level: not empty, no `/`, `+` or `#`."""
    if not board or "/" in board or not _LEVEL_RE.match(board):
        raise WireError(
            f"board id {board!r} cannot be an MQTT topic level (no '/', '+', '#', not empty)"
        )


def check_prefix(prefix: str) -> None:
    """A prefix is one or more topic levels without wildcards, e.g. `tabletop`."""
    levels = prefix.split("/")
    if not prefix or not all(level and _LEVEL_RE.match(level) for level in levels):
        raise WireError(
            f"topic prefix {prefix!r} must be topic levels separated by '/', "
            "without '+', '#' or empty levels"
        )


def discovery_topic(node: str, object_id: str, prefix: str = DISCOVERY_PREFIX) -> str:
    """Home Assistant's discovery topic for a sensor: `homeassistant/sensor/<node>/<obj>/config`."""
    return f"{prefix}/sensor/{node}/{object_id}/config"


# ------------------------------------------------------------------------------ payloads
def encode(payload: Mapping[str, Any]) -> bytes:
    """Compact UTF-8 JSON. Non-ASCII text stays as it is (names, narration)."""
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def clock_reading(display: ClockDisplay, at: float) -> dict[str, Any]:
    """CLOCK: a game clock's reading at `at` (game seconds).

    While a player's time runs, a display counts down first their `delay_ms` (a simple
    delay), then `remaining_ms`, from `at`.
    """
    return {
        "at": round(at, 3),
        "running": display.running,
        "paused": display.paused,
        "players": [
            {
                "remaining_ms": player.remaining_ns // 1_000_000,
                "text": player.text,
                "running": player.running,
                "flagged": player.flagged,
                "warning": player.warning,
                "moves": player.moves,
                "detail": player.detail,
                "delay_ms": player.delay_ns // 1_000_000,
            }
            for player in display.players
        ],
    }


def _header(board: str, t: float) -> dict[str, Any]:
    return {"schema": SCHEMA_VERSION, "board": board, "t": round(t, 3)}


def last_event(event: Mapping[str, Any], text: str) -> dict[str, Any]:
    return {"event": dict(event), "text": text}


def state_payload(
    *,
    board: str,
    t: float,
    game: str,
    game_id: int,
    title: str,
    seq: int,
    names: list[str],
    view: Mapping[str, Any],
    clock: Mapping[str, Any] | None,
    last: Mapping[str, Any] | None,
    drawing: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The retained state. `view` must be the engine's *spectator* view, and `drawing` the
    board drawn from it (companion/games/drawing.py), for games the pages have no drawing of
    their own for."""
    if view.get("viewer", "spectator") != "spectator":
        raise WireError(f"the stream shows the spectator view, not {view.get('viewer')!r}'s")
    return {
        **_header(board, t),
        "game": game,
        "game_id": game_id,
        "title": title,
        "seq": seq,
        "names": list(names),
        "view": view,
        "clock": None if clock is None else dict(clock),
        "last_event": None if last is None else dict(last),
        "drawing": None if drawing is None else dict(drawing),
    }


def event_payload(
    *, board: str, t: float, seq: int, event: Mapping[str, Any], text: str
) -> dict[str, Any]:
    """One event of the action committed as `seq` (engine.event_to_dict: public by design)."""
    return {**_header(board, t), "seq": seq, "event": dict(event), "text": text}


def clock_payload(*, board: str, reading: Mapping[str, Any]) -> dict[str, Any]:
    """A clock message: the reading, stamped with its own time."""
    return {**_header(board, float(reading["at"])), **reading}


def alert_payload(
    *, board: str, t: float, level: Level, text: str, rule: str | None = None
) -> dict[str, Any]:
    if level not in LEVELS:
        raise WireError(f"an alert's level is one of {', '.join(LEVELS)}, not {level!r}")
    return {**_header(board, t), "level": level, "text": text, "rule": rule}


def result_payload(
    *,
    board: str,
    t: float,
    game: str,
    game_id: int,
    title: str,
    names: list[str],
    scores: list[float] | None,
    winners: list[int],
    reason: str,
    record_hash: str,
    ended: str,
) -> dict[str, Any]:
    """The retained result of a finished game: its final scores (None for a game that
    scores nothing), the winners (side indexes; the board is -2), and `record_hash`, the end
    of the game's hash chain in the table's store (docs/store.md), which vouches for the
    record the table can export."""
    return {
        **_header(board, t),
        "game": game,
        "game_id": game_id,
        "title": title,
        "names": list(names),
        "scores": None if scores is None else list(scores),
        "winners": list(winners),
        "reason": reason,
        "hash": record_hash,
        "ended": ended,
    }


# --------------------------------------------------------------------- remote play payloads
def invite_payload(
    *,
    game_id: int,
    created: str,
    title: str,
    header: Mapping[str, Any],
    host_sides: list[int],
    guest_sides: list[int],
) -> dict[str, Any]:
    """INVITE (retained, the host's): what the guest starts its copy of the game from, so
    that both chains start from the same link (the header verbatim, the id, the creation
    time and the title), and which sides each companion plays."""
    return {
        "schema": SCHEMA_VERSION,
        "game_id": game_id,
        "created": created,
        "title": title,
        "header": dict(header),
        "host_sides": list(host_sides),
        "guest_sides": list(guest_sides),
    }


def at_payload(*, game_id: int, seq: int, chain: str, head: str) -> dict[str, Any]:
    """AT (retained): where a companion is: its last action's seq, the chain's link after
    it (store.chain_hash) and the game's head."""
    return {"schema": SCHEMA_VERSION, "game_id": game_id, "seq": seq, "hash": chain, "head": head}


def move_payload(
    *, game_id: int, seq: int, t: float, action: Mapping[str, Any], chain: str
) -> dict[str, Any]:
    """MOVE: action `seq` as recorded (engine.action_to_dict: it may carry a hidden value),
    its time `t` (unrounded: it is part of the chain) and the chain's link after it."""
    return {
        "schema": SCHEMA_VERSION,
        "game_id": game_id,
        "seq": seq,
        "t": t,
        "action": dict(action),
        "hash": chain,
    }


def want_payload(*, game_id: int, first: int) -> dict[str, Any]:
    """WANT: the moves a companion is missing, from seq `first` on."""
    return {"schema": SCHEMA_VERSION, "game_id": game_id, "from": first}


def remote_clock_payload(
    *, game_id: int, reading: Mapping[str, Any], flag: tuple[int, int] | None = None
) -> dict[str, Any]:
    """CLOCK (the host's): a reading of the game clock (`clock_reading`), and `flag`, when
    the time of a side the guest plays ran out after action `seq`: (seq, side). The guest
    plays that side's `time_expired` if it is still at `seq`."""
    payload: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "game_id": game_id,
        "reading": dict(reading),
    }
    if flag is not None:
        payload["flag"] = {"seq": flag[0], "side": flag[1]}
    return payload


_NUMBER = (int, float)
_REMOTE_FIELDS: Final[Mapping[str, Mapping[str, tuple[type, ...]]]] = {
    "invite": {
        "game_id": (int,),
        "created": (str,),
        "title": (str,),
        "header": (dict,),
        "host_sides": (list,),
        "guest_sides": (list,),
    },
    "at": {"game_id": (int,), "seq": (int,), "hash": (str,), "head": (str,)},
    "move": {"game_id": (int,), "seq": (int,), "t": _NUMBER, "action": (dict,), "hash": (str,)},
    "want": {"game_id": (int,), "from": (int,)},
    "clock": {"game_id": (int,), "reading": (dict,)},
}


def read_remote(kind: str, payload: bytes) -> dict[str, Any]:
    """A remote play payload of `kind` (invite, at, move, want, clock), checked field by
    field; WireError naming the first problem."""
    fields = _REMOTE_FIELDS.get(kind)
    if fields is None:
        raise WireError(f"no remote play payload {kind!r}")
    try:
        data = json.loads(payload)
    except (ValueError, UnicodeDecodeError) as err:
        raise WireError(f"{kind} payload is not JSON: {err}") from None
    if not isinstance(data, dict):
        raise WireError(f"{kind} payload is not a JSON object")
    if data.get("schema") != SCHEMA_VERSION:
        raise WireError(f"{kind} payload has schema {data.get('schema')!r}, not {SCHEMA_VERSION}")
    for name, types in fields.items():
        value = data.get(name)
        if not isinstance(value, types) or isinstance(value, bool):
            raise WireError(f"{kind} payload: {name!r} is missing or not a {types[0].__name__}")
    flag = data.get("flag")
    if kind == "clock" and flag is not None and not _is_flag(flag):
        raise WireError("clock payload: 'flag' is not {seq, side} as numbers")
    return data


def _is_flag(flag: Any) -> bool:
    return isinstance(flag, dict) and all(
        isinstance(flag.get(name), int) and not isinstance(flag.get(name), bool)
        for name in ("seq", "side")
    )


# ------------------------------------------------------------------------------- schemas
@functools.cache
def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of a kind's payload (a board's JSON kinds, and the hub's)."""
    if kind not in (*JSON_KINDS, *HUB_KINDS):
        known = ", ".join((*JSON_KINDS, *HUB_KINDS))
        raise WireError(f"no schema for {kind!r} (known: {known})")
    text = (resources.files("companion.publish") / "schemas" / f"{kind}.schema.json").read_text(
        encoding="utf-8"
    )
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@functools.cache
def _validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(schema(kind))


def validate(kind: str, payload: Any) -> None:
    """Raises WireError naming the first problem when `payload` breaks its kind's schema."""
    error = next(iter(_validator(kind).iter_errors(payload)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(top)"
        raise WireError(f"{kind} payload at {where}: {error.message}")
