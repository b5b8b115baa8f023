"""Where games are kept: an append-only SQLite event store.

One file holds every game. An action and the events it caused are written in one
transaction, committed (WAL, synchronous=FULL) before `append` returns, and never changed
afterwards; the only thing that ever changes is a game's status. A whole game can be
deleted (`delete_game`), all of it at once: never a part of one.

Every action carries a hash chained to the one before it and, through the first, to the
game's header; the game's row keeps the head of that chain. `verify_game` walks the chain
and replays it through the engine, and everything that reads a game back (`load_game`,
`replayed`, `export`) refuses one whose chain or replay fails, naming the first bad action.

    with Store.open(path) as store:
        game_id = store.create_game(header)
        store.append(game_id, 1, 0.0, {"type": "roll_for_first"}, [{"type": "rolled", ...}])
        engine, state, seq = load_game(store, game_id)
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Literal, NamedTuple, cast, get_args

from companion.errors import UserError
from companion.games import find_engine
from companion.games.contract import JSON, BadData, BadSetup, GameEngine, IllegalAction
from companion.record import RecordHeader, write_record
from companion.sqlite_writes import immediate

SCHEMA_VERSION = 6
APPLICATION_ID = 0x54544331
"""'TTC1' in the database header, so a stranger's SQLite file is told apart from ours."""

Status = Literal["playing", "finished", "abandoned"]
STATUSES: tuple[str, ...] = get_args(Status)

# Triggers make append-only a property of the file, not just of this module: anything else
# that opens it (sqlite3 shell, a future tool) cannot rewrite history either.
_SCHEMA: tuple[str, ...] = (
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        header TEXT NOT NULL,
        created TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'playing'
            CHECK (status IN ('playing', 'finished', 'abandoned')),
        title TEXT NOT NULL DEFAULT ''
    )""",
    """CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seq INTEGER NOT NULL CHECK (seq >= 1),
        t REAL NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID""",
    """CREATE TABLE events (
        game_id INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        idx INTEGER NOT NULL CHECK (idx >= 0),
        event TEXT NOT NULL,
        PRIMARY KEY (game_id, seq, idx),
        FOREIGN KEY (game_id, seq) REFERENCES actions (game_id, seq)
    ) WITHOUT ROWID""",
    """CREATE TRIGGER games_fixed BEFORE UPDATE OF id, game, header, created, title ON games
    BEGIN SELECT RAISE(ABORT, 'games: only the status may change'); END""",
    """CREATE TRIGGER games_kept BEFORE DELETE ON games
    BEGIN SELECT RAISE(ABORT, 'games are never deleted'); END""",
    """CREATE TRIGGER actions_fixed BEFORE UPDATE ON actions
    BEGIN SELECT RAISE(ABORT, 'actions are append-only'); END""",
    """CREATE TRIGGER actions_kept BEFORE DELETE ON actions
    BEGIN SELECT RAISE(ABORT, 'actions are append-only'); END""",
    """CREATE TRIGGER events_fixed BEFORE UPDATE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""",
    """CREATE TRIGGER events_kept BEFORE DELETE ON events
    BEGIN SELECT RAISE(ABORT, 'events are append-only'); END""",
)


# Schema 2: a game's clock inputs, written as they happen (see companion/clock/inputs.py).
_SCHEMA_2: tuple[str, ...] = (
    """CREATE TABLE clock_inputs (
        game_id INTEGER NOT NULL REFERENCES games (id),
        n INTEGER NOT NULL CHECK (n >= 1),
        t_ns INTEGER NOT NULL,
        input TEXT NOT NULL,
        PRIMARY KEY (game_id, n)
    ) WITHOUT ROWID""",
    """CREATE TRIGGER clock_inputs_fixed BEFORE UPDATE ON clock_inputs
    BEGIN SELECT RAISE(ABORT, 'clock inputs are append-only'); END""",
    """CREATE TRIGGER clock_inputs_kept BEFORE DELETE ON clock_inputs
    BEGIN SELECT RAISE(ABORT, 'clock inputs are append-only'); END""",
)


# Schema 3: takebacks. An action taken back stays where it was written; this table says it
# no longer counts, so the game is the same as if it had never been made.
_SCHEMA_3: tuple[str, ...] = (
    """CREATE TABLE takebacks (
        game_id INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        t REAL NOT NULL,
        PRIMARY KEY (game_id, seq),
        FOREIGN KEY (game_id, seq) REFERENCES actions (game_id, seq)
    ) WITHOUT ROWID""",
    """CREATE TRIGGER takebacks_fixed BEFORE UPDATE ON takebacks
    BEGIN SELECT RAISE(ABORT, 'takebacks are append-only'); END""",
    """CREATE TRIGGER takebacks_kept BEFORE DELETE ON takebacks
    BEGIN SELECT RAISE(ABORT, 'takebacks are append-only'); END""",
)

# Schema 4: deleting a whole game. Its id is written here first, and only then may its rows
# go: the triggers above are replaced by ones that let a row be deleted only when its game
# is listed here, so a single action can still never be taken out of a game, by this module
# or by anything else that opens the file. The list is kept (append-only itself) so that a
# deleted game's id is never given to another game.
_DELETABLE_TABLES: tuple[tuple[str, str, str], ...] = (
    ("games", "id", "games are deleted only whole, with Store.delete_game"),
    ("actions", "game_id", "actions are append-only"),
    ("events", "game_id", "events are append-only"),
    ("clock_inputs", "game_id", "clock inputs are append-only"),
    ("takebacks", "game_id", "takebacks are append-only"),
)
_SCHEMA_4: tuple[str, ...] = (
    """CREATE TABLE deleted_games (
        id INTEGER PRIMARY KEY,
        deleted TEXT NOT NULL
    )""",
    """CREATE TRIGGER deleted_games_fixed BEFORE UPDATE ON deleted_games
    BEGIN SELECT RAISE(ABORT, 'deleted games stay deleted'); END""",
    """CREATE TRIGGER deleted_games_kept BEFORE DELETE ON deleted_games
    BEGIN SELECT RAISE(ABORT, 'deleted games stay deleted'); END""",
    *(
        statement
        for table, key, refusal in _DELETABLE_TABLES
        for statement in (
            f"DROP TRIGGER {table}_kept",
            f"""CREATE TRIGGER {table}_kept BEFORE DELETE ON {table}
            WHEN NOT EXISTS (SELECT 1 FROM deleted_games AS d WHERE d.id = OLD.{key})
            BEGIN SELECT RAISE(ABORT, '{refusal}'); END""",
        )
    ),
)

# Schema 5: the hash chain. `actions.hash` links each action to the one before it (and the
# first to the game's header); `games.head` is the chain's end, with the game's takebacks and
# status, rewritten in the same transaction as every write to the game. The hashes of the
# rows already in the file are computed when it is opened (see _migrate_chain).
_SCHEMA_5: tuple[str, ...] = (
    "ALTER TABLE games ADD COLUMN head TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE actions ADD COLUMN hash TEXT NOT NULL DEFAULT ''",
)
# Schema 6: a game shared with another companion (remote play) starts its chain from the id
# it has where it was created (`chain_id`), whatever id it has here; NULL for a game of this
# store's own, whose chain starts from its own id. Fixed like the other columns the chain
# starts from.
_SCHEMA_6: tuple[str, ...] = (
    "ALTER TABLE games ADD COLUMN chain_id INTEGER CHECK (chain_id >= 1)",
    "DROP TRIGGER games_fixed",
    """CREATE TRIGGER games_fixed BEFORE UPDATE OF id, game, header, created, title, chain_id
    ON games BEGIN SELECT RAISE(ABORT, 'games: only the status may change'); END""",
)
_FIXED_COLUMNS = "COALESCE(chain_id, id), game, header, created, title"
"""The columns a game's chain starts from (_genesis), in its order."""

_ACTIONS_FIXED = """CREATE TRIGGER actions_fixed BEFORE UPDATE ON actions
    BEGIN SELECT RAISE(ABORT, 'actions are append-only'); END"""

_CHAIN_ROOT = "tabletop-companion games chain 1"

_LIVE = (
    "NOT EXISTS (SELECT 1 FROM takebacks AS k WHERE k.game_id = {0}.game_id AND k.seq = {0}.seq)"
)
"""The condition that an action (or its events) was not taken back."""


class StoreError(UserError):
    """The store cannot do what was asked: unreadable, busy, closed, or a refused write."""


class UnknownGame(StoreError):
    def __init__(self, game_id: int, where: str | None = None) -> None:
        self.game_id = game_id
        super().__init__(f"no game {game_id} in the store", where=where)


class SeqConflict(StoreError):
    """An append whose seq is not exactly the last one plus one.

    This is what keeps a client that retries, or a second referee on the same game, from
    doubling or skipping an action: the store, not the caller, decides what comes next.
    """

    def __init__(self, game_id: int, expected: int, got: int, where: str | None = None) -> None:
        self.game_id = game_id
        self.expected = expected
        self.got = got
        super().__init__(
            f"game {game_id}: the next action must be seq {expected}, got {got} "
            "(already recorded, or another referee is playing this game)",
            where=where,
        )


class GameDamaged(StoreError):
    """A game whose stored chain, or whose replay through its engine, fails: `seq` is the
    first bad action (0: the game's header itself)."""

    def __init__(self, game_id: int, seq: int, why: str, where: str | None = None) -> None:
        self.game_id = game_id
        self.seq = seq
        self.why = why
        what = "its header" if seq == 0 else f"action {seq}"
        super().__init__(f"game {game_id} is damaged: {what} {why}", where=where)


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    status: str
    created: str
    """UTC, ISO 8601 with a Z, when the game was created in this store."""
    title: str
    actions: int
    last_t: float
    """Seconds into the game of the last action; 0.0 before the first."""


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _dumps(data: Any) -> str:
    # allow_nan=False: a NaN would make the exported record invalid JSON.
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _link(previous: str, data: Any) -> str:
    """One link of the chain: sha256 over the previous hash and the canonical JSON of `data`."""
    canonical = json.dumps(
        data, separators=(",", ":"), sort_keys=True, ensure_ascii=False, allow_nan=False
    )
    return hashlib.sha256(f"{previous}\n{canonical}".encode()).hexdigest()


def chain_link(previous: str, seq: int, t: float, action: Mapping[str, Any]) -> str:
    """The hash action `seq` gets, at `t`, after the link `previous` (Store.chain_hash): what
    a companion checks an action from another one against before recording it."""
    return _action_link(previous, seq, float(t), dict(action))


def _genesis(game_id: int, game: str, header: str, created: str, title: str) -> str:
    """Where a game's chain starts: its fixed columns, the header (the setup) verbatim."""
    fixed = {"id": game_id, "game": game, "header": header, "created": created, "title": title}
    return _link(_CHAIN_ROOT, fixed)


def _action_link(previous: str, seq: int, t: float, action: JSON) -> str:
    return _link(previous, {"seq": seq, "t": t, "action": action})


def _head(last: str, status: str, takebacks: Sequence[tuple[int, float]]) -> str:
    """The end of a game's chain: its last action's hash, its status and its takebacks."""
    return _link(last, {"status": status, "takebacks": [[seq, t] for seq, t in takebacks]})


def _write_head(conn: sqlite3.Connection, game_id: int) -> None:
    """Inside a write: sets the game's head from what the transaction now holds."""
    row = conn.execute(
        f"SELECT {_FIXED_COLUMNS}, status FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    last = conn.execute(
        "SELECT hash FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,)
    ).fetchone()
    takebacks = conn.execute(
        "SELECT seq, t FROM takebacks WHERE game_id = ? ORDER BY seq", (game_id,)
    ).fetchall()
    start = last[0] if last else _genesis(*row[:5])
    conn.execute(
        "UPDATE games SET head = ? WHERE id = ?", (_head(start, row[5], takebacks), game_id)
    )


class Store:
    """An open games file. Not thread-safe: one thread (the referee's) uses it."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn: sqlite3.Connection | None = conn
        self.path = path

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path | str, *, readonly: bool = False) -> Store:
        """Opens (creating it and its directory on first use) the store at `path`.

        `readonly`: opened with SQLite's `mode=ro`, writing nothing (no schema, no WAL
        switch), so a store in a read-only directory, or a read-only file, can be read; the
        file must exist and have this companion's schema.
        """
        path = Path(path)
        if readonly:
            return cls(_open_readonly(path), path)
        where = str(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise StoreError(f"cannot create the directory: {err.strerror}", where=where) from None
        try:
            # isolation_level=None: transactions are begun and ended explicitly below, so a
            # commit happens exactly where the code says and nowhere else.
            conn = sqlite3.connect(path, isolation_level=None, timeout=10.0)
        except sqlite3.Error as err:
            raise StoreError(f"cannot open: {err}", where=where) from None
        try:
            _prepare(conn, where)
        except BaseException:
            conn.close()
            raise
        return cls(conn, path)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------

    def create_game(
        self,
        header: RecordHeader,
        *,
        title: str = "",
        chain_id: int | None = None,
        created: str | None = None,
    ) -> int:
        """Records a new game; returns its id.

        `chain_id` and `created` are for a game shared with another companion (remote play):
        it keeps the creation time it has where it was created, and its chain starts from
        the id it has there, so that both chains start from the same link; here it gets an
        id of this store's own."""
        text = _dumps(header.to_dict())
        if chain_id is not None and chain_id < 1:
            raise StoreError(f"{chain_id} is not a game id", where=str(self.path))
        with self._transaction("cannot create a game") as conn:
            # The id is counted past every game ever created, deleted ones too: SQLite alone
            # would give the last game's id again once that game is deleted, and an old
            # export, log line or live stream naming it would then name another game.
            (game_id,) = conn.execute(
                "SELECT COALESCE(MAX(id), 0) + 1 FROM "
                "(SELECT id FROM games UNION ALL SELECT id FROM deleted_games)"
            ).fetchone()
            conn.execute(
                "INSERT INTO games (id, game, header, created, status, title, chain_id) "
                "VALUES (?, ?, ?, ?, 'playing', ?, ?)",
                (game_id, header.game, text, created or utc_now(), title, chain_id),
            )
            _write_head(conn, game_id)
        return int(game_id)

    def append(
        self,
        game_id: int,
        seq: int,
        t: float,
        action: Mapping[str, Any],
        events: Sequence[Mapping[str, Any]],
    ) -> None:
        """Records action `seq` of a game and its events; committed when this returns.

        Refuses (SeqConflict) any seq but the last plus one, a time before the last action's,
        and games that are not being played.
        """
        action_text = _dumps(dict(action))
        event_texts = [_dumps(dict(event)) for event in events]
        with self._transaction(f"cannot record action {seq} of game {game_id}") as conn:
            self._require_playing(conn, game_id, "no more actions can be recorded")
            last_seq, last_t, last_hash = conn.execute(
                "SELECT seq, t, hash FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone() or (0, 0.0, None)
            if seq != last_seq + 1:
                raise SeqConflict(game_id, last_seq + 1, seq, where=str(self.path))
            if not t >= last_t:  # also refuses NaN
                raise StoreError(
                    f"game {game_id}: action {seq} at t={t} is before action {last_seq} "
                    f"at t={last_t}",
                    where=str(self.path),
                )
            if last_hash is None:
                fixed = conn.execute(
                    f"SELECT {_FIXED_COLUMNS} FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                last_hash = _genesis(*fixed)
            chained = _action_link(last_hash, seq, float(t), json.loads(action_text))
            conn.execute(
                "INSERT INTO actions (game_id, seq, t, action, hash) VALUES (?, ?, ?, ?, ?)",
                (game_id, seq, float(t), action_text, chained),
            )
            conn.executemany(
                "INSERT INTO events (game_id, seq, idx, event) VALUES (?, ?, ?, ?)",
                [(game_id, seq, idx, text) for idx, text in enumerate(event_texts)],
            )
            _write_head(conn, game_id)

    def append_clock(self, game_id: int, n: int, t_ns: int, data: Mapping[str, Any]) -> None:
        """Records clock input `n` of a game; committed when this returns.

        Refuses any n but the last plus one, and a time before the last input's.
        """
        text = _dumps(dict(data))
        with self._transaction(f"cannot record clock input {n} of game {game_id}") as conn:
            row = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise UnknownGame(game_id, where=str(self.path))
            last_n, last_t = conn.execute(
                "SELECT n, t_ns FROM clock_inputs WHERE game_id = ? ORDER BY n DESC LIMIT 1",
                (game_id,),
            ).fetchone() or (0, 0)
            if n != last_n + 1:
                raise SeqConflict(game_id, last_n + 1, n, where=str(self.path))
            if t_ns < last_t:
                raise StoreError(
                    f"game {game_id}: clock input {n} at {t_ns} ns is before input {last_n} "
                    f"at {last_t} ns",
                    where=str(self.path),
                )
            conn.execute(
                "INSERT INTO clock_inputs (game_id, n, t_ns, input) VALUES (?, ?, ?, ?)",
                (game_id, n, t_ns, text),
            )

    def _require_playing(self, conn: sqlite3.Connection, game_id: int, refusal: str) -> None:
        """Inside a write: the game exists and is being played, or an error saying `refusal`."""
        row = conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(game_id, where=str(self.path))
        if row[0] != "playing":
            raise StoreError(f"game {game_id} is {row[0]}; {refusal}", where=str(self.path))

    def take_back(self, game_id: int, seq: int, t: float) -> None:
        """Records that action `seq`, the last that counts, is taken back (both sides
        agreed); committed when this returns. The action stays in the file."""
        with self._transaction(f"cannot take back action {seq} of game {game_id}") as conn:
            self._require_playing(conn, game_id, "nothing can be taken back")
            last = conn.execute(
                f"SELECT MAX(seq) FROM actions AS a WHERE game_id = ? AND {_LIVE.format('a')}",
                (game_id,),
            ).fetchone()[0]
            if last != seq:
                raise StoreError(
                    f"game {game_id}: only the last move (action {last}) can be taken back, "
                    f"not action {seq}",
                    where=str(self.path),
                )
            conn.execute(
                "INSERT INTO takebacks (game_id, seq, t) VALUES (?, ?, ?)",
                (game_id, seq, float(t)),
            )
            _write_head(conn, game_id)

    def last_seq(self, game_id: int) -> int:
        """The seq of the last action written, taken back or not: the next one follows it."""
        rows = self._rows("SELECT MAX(seq) FROM actions WHERE game_id = ?", (game_id,))
        return int(rows[0][0] or 0)

    def last_t(self, game_id: int) -> float:
        """The game time of the last thing written, an action or a takeback."""
        rows = self._rows(
            "SELECT MAX(t) FROM (SELECT t FROM actions WHERE game_id = ? "
            "UNION ALL SELECT t FROM takebacks WHERE game_id = ?)",
            (game_id, game_id),
        )
        return float(rows[0][0] or 0.0)

    def taken_back(self, game_id: int) -> list[int]:
        """The seqs of the actions taken back, in order."""
        rows = self._rows("SELECT seq FROM takebacks WHERE game_id = ? ORDER BY seq", (game_id,))
        return [seq for (seq,) in rows]

    def last_clock_ns(self, game_id: int) -> int:
        """The time of a game's last clock input (0 when there is none)."""
        rows = self._rows("SELECT MAX(t_ns) FROM clock_inputs WHERE game_id = ?", (game_id,))
        return int(rows[0][0] or 0)

    def clock_inputs(self, game_id: int) -> list[tuple[int, int, JSON]]:
        """Every recorded clock input of a game, in order: (n, t_ns, input dict)."""
        self.game(game_id)
        rows = self._rows(
            "SELECT n, t_ns, input FROM clock_inputs WHERE game_id = ? ORDER BY n", (game_id,)
        )
        return [(n, t_ns, json.loads(text)) for n, t_ns, text in rows]

    def set_status(self, game_id: int, status: Status) -> None:
        if status not in STATUSES:
            raise ValueError(f"status must be one of {', '.join(STATUSES)}, not {status!r}")
        with self._transaction(f"cannot set the status of game {game_id}") as conn:
            cursor = conn.execute("UPDATE games SET status = ? WHERE id = ?", (status, game_id))
            if cursor.rowcount == 0:
                raise UnknownGame(game_id, where=str(self.path))
            _write_head(conn, game_id)

    def delete_game(self, game_id: int) -> GameRow:
        """Deletes a game and everything recorded of it, in one transaction; returns what
        it was. Other games are not touched, and the id is never given to another game."""
        with self._transaction(f"cannot delete game {game_id}") as conn:
            rows = conn.execute(_GAME_ROWS + " WHERE g.id = ? GROUP BY g.id", (game_id,)).fetchall()
            if not rows:
                raise UnknownGame(game_id, where=str(self.path))
            conn.execute(
                "INSERT INTO deleted_games (id, deleted) VALUES (?, ?)", (game_id, utc_now())
            )
            # Rows that point at others go first: foreign keys are checked on each delete.
            for table in ("takebacks", "events", "actions", "clock_inputs"):
                conn.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            conn.execute("DELETE FROM games WHERE id = ?", (game_id,))
        return GameRow(*rows[0])

    # -- reading ---------------------------------------------------------------------------

    def games(self) -> list[GameRow]:
        return [GameRow(*row) for row in self._rows(_GAME_ROWS + " GROUP BY g.id ORDER BY g.id")]

    def game_ids(self) -> list[int]:
        """Every game's id, in order: read without any other column, so a game whose row is
        damaged is still counted."""
        return [game_id for (game_id,) in self._rows("SELECT id FROM games ORDER BY id")]

    def game(self, game_id: int) -> GameRow:
        rows = self._rows(_GAME_ROWS + " WHERE g.id = ? GROUP BY g.id", (game_id,))
        if not rows:
            raise UnknownGame(game_id, where=str(self.path))
        return GameRow(*rows[0])

    def head(self, game_id: int) -> str:
        """The end of a game's hash chain (its last action, takebacks and status): what a
        finished game's result quotes, so that its record can be vouched for later."""
        rows = self._rows("SELECT head FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise UnknownGame(game_id, where=str(self.path))
        return str(rows[0][0])

    def chain_hash(self, game_id: int, seq: int) -> str:
        """The chain's link after action `seq` (0: the link the chain starts from, made from
        the game's header, id, creation time and title), as written; two companions sharing
        a game compare these. StoreError for a seq not written."""
        if seq == 0:
            rows = self._rows(f"SELECT {_FIXED_COLUMNS} FROM games WHERE id = ?", (game_id,))
            if not rows:
                raise UnknownGame(game_id, where=str(self.path))
            return _genesis(*rows[0])
        rows = self._rows("SELECT hash FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq))
        if not rows:
            self.game(game_id)
            raise StoreError(f"game {game_id} has no action {seq}", where=str(self.path))
        return str(rows[0][0])

    def chain_id(self, game_id: int) -> int:
        """The id the game's chain starts from: its own, or for a game shared by another
        companion the id it has there."""
        rows = self._rows("SELECT COALESCE(chain_id, id) FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise UnknownGame(game_id, where=str(self.path))
        return int(rows[0][0])

    def shared_as(self, chain_id: int) -> list[int]:
        """The games of this store whose chains start from id `chain_id` (its own game of
        that id, and games shared by other companions under it), oldest first."""
        return [
            game_id
            for (game_id,) in self._rows(
                "SELECT id FROM games WHERE COALESCE(chain_id, id) = ? ORDER BY id", (chain_id,)
            )
        ]

    def header(self, game_id: int) -> RecordHeader:
        rows = self._rows("SELECT header FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise UnknownGame(game_id, where=str(self.path))
        return RecordHeader.from_dict(json.loads(rows[0][0]), where=f"{self.path}#{game_id}")

    def actions(self, game_id: int) -> list[tuple[int, float, JSON]]:
        """Every recorded action of a game that counts (not taken back), in order:
        (seq, t, action dict)."""
        self.game(game_id)  # an unknown id is an error, not an empty game
        rows = self._rows(
            f"SELECT seq, t, action FROM actions AS a WHERE game_id = ? AND {_LIVE.format('a')} "
            "ORDER BY seq",
            (game_id,),
        )
        return [(seq, t, json.loads(text)) for seq, t, text in rows]

    def events(self, game_id: int) -> list[tuple[int, int, JSON]]:
        """Every recorded event of a game's actions that count, in order: (seq, index within
        the action, event)."""
        self.game(game_id)
        rows = self._rows(
            f"SELECT seq, idx, event FROM events AS e WHERE game_id = ? AND {_LIVE.format('e')} "
            "ORDER BY seq, idx",
            (game_id,),
        )
        return [(seq, idx, json.loads(text)) for seq, idx, text in rows]

    def export(self, game_id: int, stream: IO[str], *, force: bool = False) -> GameCheck:
        """Writes the game record (JSON Lines) of a game once its chain and replay are
        checked. A damaged game is refused (GameDamaged naming the first bad action) unless
        `force`: then the intact actions before it are written (and the clock inputs up to
        the last of them). Returns the check, for the caller to warn with."""
        check = verify_game(self, game_id)
        if check.damage is not None and (not force or check.header is None):
            raise check.damage
        assert check.header is not None
        clock = [(t_ns, data) for _, t_ns, data in self.clock_inputs(game_id)]
        if check.damage is not None:
            end_ns = check.actions[-1][1] * 1e9 if check.actions else 0.0
            clock = [(t_ns, data) for t_ns, data in clock if t_ns <= end_ns]
        write_record(stream, check.header, [(t, a) for _, t, a in check.actions], clock)
        return check

    # -- plumbing --------------------------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError("the store is closed", where=str(self.path))
        return self._conn

    @contextmanager
    def _transaction(self, what: str) -> Iterator[sqlite3.Connection]:
        conn = self._connection()
        try:
            # The write lock before the checks: two writers cannot both see the same "last
            # seq" and both append after it.
            with immediate(conn):
                yield conn
        except sqlite3.Error as err:
            raise StoreError(f"{what}: {err}", where=str(self.path)) from err

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        conn = self._connection()
        try:
            return cast(list[tuple[Any, ...]], conn.execute(sql, params).fetchall())
        except sqlite3.Error as err:
            raise StoreError(f"cannot read: {err}", where=str(self.path)) from err
        except UnicodeDecodeError as err:
            # A damaged text, or SQLite's message quoting one (a damaged schema).
            raise StoreError(f"cannot read: damaged text ({err})", where=str(self.path)) from err


_GAME_ROWS = (
    "SELECT g.id, g.game, g.status, g.created, g.title, COUNT(a.seq), COALESCE(MAX(a.t), 0.0) "
    f"FROM games AS g LEFT JOIN actions AS a ON a.game_id = g.id AND {_LIVE.format('a')}"
)


def _open_readonly(path: Path) -> sqlite3.Connection:
    """A connection that never writes the store: SQLite's `mode=ro` (and `query_only`).

    In a directory nobody may write to, with no `-wal` beside the file, or an empty one
    (the store was closed cleanly), SQLite cannot make the shared-memory file a WAL reader
    needs; then the file is opened `immutable=1`, which is safe because nothing can be
    writing to it: a writer needs that same `-wal`, and would have written to it.
    """
    where = str(path)
    if not path.is_file():
        raise StoreError("no games store here", where=where)
    uri = path.resolve().as_uri()
    conn: sqlite3.Connection | None = None
    try:
        for query in ("?mode=ro", "?mode=ro&immutable=1"):
            try:
                conn = sqlite3.connect(uri + query, uri=True, isolation_level=None, timeout=10.0)
                identity = _identity(conn)
                break
            except sqlite3.OperationalError as err:
                if conn is not None:
                    conn.close()
                    conn = None
                wal = path.with_name(path.name + "-wal")
                in_wal = wal.exists() and wal.stat().st_size > 0
                if "unable to open" not in str(err) or "immutable" in query or in_wal:
                    raise
        assert conn is not None
        conn.execute("PRAGMA query_only = ON")
        _check_identity(*identity, where)
    except UnicodeDecodeError as err:
        if conn is not None:
            conn.close()
        raise StoreError(f"cannot open: damaged text ({err})", where=where) from None
    except sqlite3.DatabaseError as err:
        if conn is not None:
            conn.close()
        if "not a database" in str(err) or "malformed" in str(err):
            raise StoreError("not a games store (not an SQLite database)", where=where) from None
        raise StoreError(f"cannot open: {err}", where=where) from None
    except BaseException:
        if conn is not None:
            conn.close()
        raise
    version = identity[0]
    if version < SCHEMA_VERSION:
        conn.close()
        raise StoreError(
            f"schema {version} (this companion's is {SCHEMA_VERSION}); it can be read only "
            "once a writing command (`companion app`, `run`) has opened and upgraded it",
            where=where,
        )
    return conn


def _migrate_chain(conn: sqlite3.Connection) -> None:
    """Schema 5 on an older file: the chain of every action already in it, and every head.

    The append-only trigger is set aside for the length of this (one) transaction only."""
    conn.execute("DROP TRIGGER actions_fixed")
    # Before schema 6 no game had a chain id of its own: each starts from its own id.
    games = conn.execute("SELECT id, game, header, created, title FROM games").fetchall()
    for fixed in games:
        previous = _genesis(*fixed)
        rows = conn.execute(
            "SELECT seq, t, action FROM actions WHERE game_id = ? ORDER BY seq", (fixed[0],)
        ).fetchall()
        for seq, t, text in rows:
            previous = _action_link(previous, seq, t, json.loads(text))
            conn.execute(
                "UPDATE actions SET hash = ? WHERE game_id = ? AND seq = ?",
                (previous, fixed[0], seq),
            )
        _write_head(conn, fixed[0])
    conn.execute(_ACTIONS_FIXED)


def _prepare(conn: sqlite3.Connection, where: str) -> None:
    """Checks the file is ours (or empty), sets the connection up, creates the schema."""
    try:
        # The first read parses the file header: this is where a stranger's file fails. It
        # comes before any PRAGMA that writes, so a file that is not ours is left untouched.
        _check_identity(*_identity(conn), where)
        conn.execute("PRAGMA journal_mode = WAL").fetchone()
        # FULL: a commit is on disk (WAL fsynced) before append returns, so what a
        # subscriber heard about survives a power cut, not just a crash.
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        with immediate(conn):
            # Checked again under the write lock: another process may have created it.
            version, app_id, tables = _identity(conn)
            _check_identity(version, app_id, tables, where)
            if version == 0:
                for statement in _SCHEMA:
                    conn.execute(statement)
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            if version < 2:
                # Schema 1 stores gain the clock table; nothing else changes.
                for statement in _SCHEMA_2:
                    conn.execute(statement)
            if version < 3:
                for statement in _SCHEMA_3:
                    conn.execute(statement)
            if version < 4:
                for statement in _SCHEMA_4:
                    conn.execute(statement)
            if version < 5:
                for statement in _SCHEMA_5:
                    conn.execute(statement)
            if version < 6:
                for statement in _SCHEMA_6:
                    conn.execute(statement)
            if version < 5:
                _migrate_chain(conn)  # with schema 6's columns: the head reads them
            if version < SCHEMA_VERSION:
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except sqlite3.DatabaseError as err:
        if "not a database" in str(err) or "malformed" in str(err):
            raise StoreError("not a games store (not an SQLite database)", where=where) from None
        raise StoreError(f"cannot open: {err}", where=where) from None
    except UnicodeDecodeError as err:
        raise StoreError(f"cannot open: damaged text ({err})", where=where) from None


def _identity(conn: sqlite3.Connection) -> tuple[int, int, int]:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    return int(version), int(app_id), int(tables)


def _check_identity(version: int, app_id: int, tables: int, where: str) -> None:
    if version == 0 and app_id == 0 and tables == 0:
        return  # a new (or empty) file: the schema is created next
    if app_id != APPLICATION_ID:
        raise StoreError("an SQLite database, but not a games store", where=where)
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"written by a newer companion (schema {version}; this one reads up to "
            f"{SCHEMA_VERSION}); upgrade the companion to open it",
            where=where,
        )


class LoadedGame(NamedTuple):
    engine: GameEngine[Any]
    state: Any
    seq: int


class _Chain(NamedTuple):
    header: RecordHeader
    actions: list[tuple[int, float, JSON]]
    """The actions that count, as stored, up to the first bad one."""
    events: dict[int, list[tuple[int, Any]]]
    damage: GameDamaged | None
    """The first break in the chain (or its head), if any."""


_UNREADABLE = object()
"""An event whose stored text is not JSON: equal to no event the engine makes."""


def _text(value: Any) -> str:
    if not isinstance(value, bytes):
        raise ValueError(f"stored as {type(value).__name__}, not text")
    return value.decode("utf-8")


def _read_chain(store: Store, game_id: int) -> _Chain:
    """A game's rows as stored, checked link by link against the chain and its head.

    Columns are read as bytes and decoded here, so that a damaged text is a bad action
    named by its seq rather than an error of the whole query."""
    where = f"{store.path}#{game_id}"
    rows = store._rows(
        "SELECT CAST(game AS BLOB), CAST(header AS BLOB), CAST(created AS BLOB), "
        "CAST(title AS BLOB), CAST(status AS BLOB), head, COALESCE(chain_id, id) FROM games "
        "WHERE id = ?",
        (game_id,),
    )
    if not rows:
        raise UnknownGame(game_id, where=str(store.path))

    def damaged(seq: int, why: str) -> GameDamaged:
        return GameDamaged(game_id, seq, why, where=where)

    try:
        game, header_text, created, title, status = (_text(value) for value in rows[0][:5])
        chain_id = rows[0][6]
        if not isinstance(chain_id, int):
            raise ValueError(f"its chain id {chain_id!r} is not a number")
        previous = _genesis(chain_id, game, header_text, created, title)
        header = RecordHeader.from_dict(json.loads(header_text), where=where)
    except (ValueError, UserError) as err:
        raise damaged(0, f"cannot be read: {err}") from None
    if header.game != game:
        raise damaged(0, f"names the game {header.game!r}, its row {game!r}")
    head = rows[0][5]
    takebacks = [
        (seq, t)
        for seq, t in store._rows(
            "SELECT seq, t FROM takebacks WHERE game_id = ? ORDER BY seq", (game_id,)
        )
    ]
    taken = {seq for seq, _ in takebacks}
    actions: list[tuple[int, float, JSON]] = []
    damage: GameDamaged | None = None
    stored = store._rows(
        "SELECT seq, t, CAST(action AS BLOB), hash FROM actions WHERE game_id = ? ORDER BY seq",
        (game_id,),
    )
    for expected, (seq, t, text, written) in enumerate(stored, start=1):
        if seq != expected:
            damage = damaged(expected, "is missing: the chain has a gap there")
            break
        try:
            data = json.loads(_text(text))
            link = _action_link(previous, seq, t, data)
        except (ValueError, TypeError) as err:
            damage = damaged(seq, f"cannot be read: {err}")
            break
        if link != written:
            also = " (or the game's header, title or creation time)" if seq == 1 else ""
            damage = damaged(seq, f"breaks the chain: it{also} changed after it was written")
            break
        previous = link
        if seq not in taken:
            actions.append((seq, float(t), data))
    else:
        if _head(previous, status, takebacks) != head:
            # The head is written with every change to the game: what no longer matches it
            # is the end of the game (actions lost after the last one), a takeback or the
            # status. The actions from the first one taken back are no longer certain.
            seq = min([len(stored) + 1, *taken])
            actions = [action for action in actions if action[0] < seq]
            damage = damaged(
                seq,
                "cannot be vouched for: the game's head does not match its actions, "
                f"takebacks and status (actions lost after action {len(stored)}, or a "
                "takeback or the status changed)",
            )
    events: dict[int, list[tuple[int, Any]]] = {}
    for seq, idx, text in store._rows(
        "SELECT seq, idx, CAST(event AS BLOB) FROM events WHERE game_id = ? ORDER BY seq, idx",
        (game_id,),
    ):
        try:
            event: Any = json.loads(_text(text))
        except ValueError:
            event = _UNREADABLE
        events.setdefault(seq, []).append((idx, event))
    return _Chain(header, actions, events, damage)


class _Step(NamedTuple):
    header: RecordHeader
    engine: GameEngine[Any]
    seq: int
    t: float
    action: JSON | None
    state: Any


def _replay(store: Store, game_id: int) -> Iterator[_Step]:
    """Every step of a game as its chain and engine vouch for it; GameDamaged at the first
    action that breaks the chain, that the engine refuses, or whose replayed events are not
    the ones recorded with it."""
    chain = _read_chain(store, game_id)
    where = f"{store.path}#{game_id}"
    engine = find_engine(chain.header.game)
    try:
        state = engine.new_game(chain.header.setup)
    except BadSetup as err:
        raise GameDamaged(game_id, 0, f"has a bad setup: {err}", where=where) from None
    yield _Step(chain.header, engine, 0, 0.0, None, state)
    for seq, t, data in chain.actions:
        try:
            state, events = engine.apply(state, engine.action_from_dict(data))
        except (BadData, IllegalAction) as err:
            # A changed engine or a damaged file: the referee commits nothing the engine
            # refused.
            raise GameDamaged(game_id, seq, f"no longer replays: {err}", where=where) from None
        made = [(idx, json.loads(_dumps(engine.event_to_dict(e)))) for idx, e in enumerate(events)]
        if made != chain.events.get(seq, []):
            raise GameDamaged(
                game_id, seq, "replays to other events than were recorded with it", where=where
            )
        yield _Step(chain.header, engine, seq, t, data, state)
    if chain.damage is not None:
        raise chain.damage


def replayed(store: Store, game_id: int) -> Iterator[tuple[GameEngine[Any], int, Any]]:
    """(engine, seq, state) for the game's start (seq 0) and after every committed action
    that counts, in order: the one replay loop, for whoever needs the states on the way.
    A damaged game (see `verify_game`) raises GameDamaged after its intact steps."""
    for step in _replay(store, game_id):
        yield step.engine, step.seq, step.state


@dataclass(frozen=True)
class GameCheck:
    """What `verify_game` found: the intact actions that count, and the first damage."""

    game_id: int
    header: RecordHeader | None
    """None when the header itself is damaged."""
    actions: list[tuple[int, float, JSON]]
    damage: GameDamaged | None

    @property
    def ok(self) -> bool:
        return self.damage is None


def verify_game(store: Store, game_id: int) -> GameCheck:
    """Walks a game's chain and replays it through its engine: OK, or the first bad action
    (UnknownGame for an id not in the store; a StoreError when SQLite cannot read it)."""
    header: RecordHeader | None = None
    actions: list[tuple[int, float, JSON]] = []
    try:
        for step in _replay(store, game_id):
            header = step.header
            if step.action is not None:
                actions.append((step.seq, step.t, step.action))
    except GameDamaged as damage:
        return GameCheck(game_id, header, actions, damage)
    return GameCheck(game_id, header, actions, None)


def load_game(store: Store, game_id: int) -> LoadedGame:
    """Rebuilds a game's state by replaying every committed action through its engine."""
    # Only the last (the state now) is kept: a long game's states are not held on to.
    ((engine, seq, state),) = deque(replayed(store, game_id), maxlen=1)
    # Numbering goes on after an action taken back: seqs are never used twice.
    return LoadedGame(engine, state, max(seq, store.last_seq(game_id)))
