"""An event's own SQLite file: its divisions, players, rounds, pairings and results.

Durable and resumable like the games store (companion/store.py): WAL, synchronous=FULL,
every change one explicit transaction committed before the call returns (or, in a
`batch()`, before the batch's block ends: the hub records a batch of results with one
write to disk), the schema checked
on open, and a file that is not an event (another SQLite database, a damaged file) refused
in one line. Rounds, pairings, results, withdrawals and corrections are append-only,
enforced by triggers; a division's settings may change only until its first round is
paired. A file of an older schema gains what this one adds when it is opened.

    with EventStore.create(path, name="Spring open") as store: ...
    with EventStore.open(path) as store:
        event = store.event()                       # everything, as companion.tournament.model
        store.add_round(planned)                    # a round's pairings, in one transaction
        store.add_result(pairing_id, outcome, ...)  # refused if the pairing has one already
        store.correct(pairing_id, outcome, why="...")   # the recorded result stays
        store.withdraw("Bo"), store.reinstate("Bo")     # not paired from the next round on
        with store.batch("cannot record the results"):  # one transaction for many changes
            store.add_result(...)                   # a refusal undoes this change only
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from types import TracebackType
from typing import Any, cast

from companion.errors import UserError
from companion.games import plugin_names
from companion.publish.wire import check_board_id, check_topic_level
from companion.sqlite_writes import immediate
from companion.store import utc_now
from companion.tournament.model import (
    SYSTEMS,
    Correction,
    Division,
    Event,
    Outcome,
    Pairing,
    Result,
    Source,
    System,
    same_name,
)
from companion.tournament.rounds import PlannedRound, planned_rounds

SCHEMA_VERSION = 2
APPLICATION_ID = 0x54544531
"""'TTE1' in the database header: an event file, told apart from a games store ('TTC1')."""
DEFAULT_HUB = "tournament"


def _append_only(*tables: str) -> tuple[str, ...]:
    return tuple(
        f"""CREATE TRIGGER {table}_{what} BEFORE {verb} ON {table}
        BEGIN SELECT RAISE(ABORT, '{table} are never changed'); END"""
        for table in tables
        for what, verb in (("fixed", "UPDATE"), ("kept", "DELETE"))
    )


_SCHEMA: tuple[str, ...] = (
    """CREATE TABLE event (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        name TEXT NOT NULL,
        hub TEXT NOT NULL,
        boards TEXT NOT NULL,
        created TEXT NOT NULL
    )""",
    """CREATE TABLE divisions (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        game TEXT,
        setup TEXT,
        system TEXT NOT NULL DEFAULT 'swiss' CHECK (system IN ('swiss', 'round-robin')),
        rounds INTEGER CHECK (rounds IS NULL OR rounds >= 1),
        sides INTEGER NOT NULL DEFAULT 2 CHECK (sides BETWEEN 2 AND 8)
    )""",
    """CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        division_id INTEGER NOT NULL REFERENCES divisions (id),
        added TEXT NOT NULL
    )""",
    """CREATE TABLE rounds (
        division_id INTEGER NOT NULL REFERENCES divisions (id),
        number INTEGER NOT NULL CHECK (number >= 1),
        paired TEXT NOT NULL,
        PRIMARY KEY (division_id, number)
    ) WITHOUT ROWID""",
    """CREATE TABLE pairings (
        id INTEGER PRIMARY KEY,
        division_id INTEGER NOT NULL,
        round INTEGER NOT NULL,
        board TEXT,
        FOREIGN KEY (division_id, round) REFERENCES rounds (division_id, number)
    )""",
    """CREATE TABLE seats (
        pairing_id INTEGER NOT NULL REFERENCES pairings (id),
        seat INTEGER NOT NULL CHECK (seat >= 0),
        player_id INTEGER NOT NULL REFERENCES players (id),
        PRIMARY KEY (pairing_id, seat)
    ) WITHOUT ROWID""",
    """CREATE TABLE results (
        id INTEGER PRIMARY KEY,
        pairing_id INTEGER NOT NULL UNIQUE REFERENCES pairings (id),
        scores TEXT,
        winners TEXT NOT NULL,
        hash TEXT UNIQUE,
        game_id INTEGER,
        source TEXT NOT NULL CHECK (source IN ('table', 'hand')),
        recorded TEXT NOT NULL
    )""",
    # History is append-only in the file itself, whatever opens it.
    *_append_only("players", "rounds", "pairings", "seats", "results"),
    """CREATE TRIGGER divisions_settled BEFORE UPDATE ON divisions
    WHEN EXISTS (SELECT 1 FROM rounds WHERE division_id = OLD.id)
    BEGIN SELECT RAISE(ABORT, 'a division that has started keeps its settings'); END""",
    """CREATE TRIGGER divisions_kept BEFORE DELETE ON divisions
    BEGIN SELECT RAISE(ABORT, 'divisions are never deleted'); END""",
)
"""Schema 1: the event, its divisions, players, rounds, pairings and results."""

_SCHEMA_2: tuple[str, ...] = (
    # A player withdrawn is not paired from `from_round` on; a reinstatement undoes the
    # withdrawal from its own `from_round` (a round not yet paired then).
    """CREATE TABLE withdrawals (
        id INTEGER PRIMARY KEY,
        player_id INTEGER NOT NULL REFERENCES players (id),
        from_round INTEGER NOT NULL CHECK (from_round >= 1),
        recorded TEXT NOT NULL
    )""",
    """CREATE TABLE reinstatements (
        withdrawal_id INTEGER PRIMARY KEY REFERENCES withdrawals (id),
        from_round INTEGER NOT NULL CHECK (from_round >= 1),
        recorded TEXT NOT NULL
    )""",
    # A result changed at the desk: the result's row stays as recorded, the last
    # correction is in force.
    """CREATE TABLE corrections (
        id INTEGER PRIMARY KEY,
        result_id INTEGER NOT NULL REFERENCES results (id),
        scores TEXT,
        winners TEXT NOT NULL,
        why TEXT NOT NULL CHECK (length(trim(why)) > 0),
        recorded TEXT NOT NULL
    )""",
    *_append_only("withdrawals", "reinstatements", "corrections"),
)
"""Schema 2: withdrawals, reinstatements and corrections. A schema 1 file gains them when
it is opened."""

_TABLES = ("event", "divisions", "players", "rounds", "pairings", "seats", "results")
_TABLES_2 = ("withdrawals", "reinstatements", "corrections")


class EventStoreError(UserError):
    """The event file cannot do what was asked: missing, not an event, busy, refused."""


class EventStore:
    """An open event file. One thread uses it."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn: sqlite3.Connection | None = conn
        self.path = path
        self._batch = False

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def create(
        cls, path: Path | str, *, name: str, hub: str = DEFAULT_HUB, boards: Sequence[str] = ()
    ) -> EventStore:
        """A new event file, its schema and its event in one transaction: a `new` killed
        half-way leaves no file, or an empty one that the next `new` takes. Refused if the
        file holds anything already."""
        path = Path(path)
        if not name.strip():
            raise EventStoreError("an event needs a name (--name)")
        check_board_id(hub)
        for board in boards:
            check_board_id(board)
        if len(set(boards)) != len(boards):
            raise EventStoreError("a board is listed twice in --boards")
        row = (name.strip(), hub, json.dumps(list(boards)), utc_now())
        return cls(_connect(path, create=row), path)

    @classmethod
    def open(cls, path: Path | str) -> EventStore:
        """An existing event file."""
        path = Path(path)
        if not path.is_file():
            raise EventStoreError(
                "no event here (companion tournament new FILE --name NAME makes one)",
                where=str(path),
            )
        store = cls(_connect(path, create=None), path)
        try:
            store._rows("SELECT name, hub, boards FROM event WHERE id = 1")[0]
        except IndexError:
            store.close()
            raise EventStoreError("an event file without its event", where=str(path)) from None
        except BaseException:
            store.close()
            raise
        return store

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> EventStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------

    def set_division(
        self,
        name: str,
        *,
        game: str | None = None,
        setup: str | None = None,
        system: System | None = None,
        rounds: int | None = None,
        sides: int | None = None,
    ) -> None:
        """Creates a division, or changes the settings given (until its first round)."""
        check_topic_level(name, "division name")
        if game is not None and game not in plugin_names():
            raise EventStoreError(f"unknown game {game!r} (known: {', '.join(plugin_names())})")
        if system is not None and system not in SYSTEMS:
            raise EventStoreError(f"--system is one of {', '.join(SYSTEMS)}, not {system!r}")
        if rounds is not None and rounds < 1:
            raise EventStoreError(f"--rounds must be at least 1, not {rounds}")
        if sides is not None and not 2 <= sides <= 8:
            raise EventStoreError(f"--sides must be 2 to 8, not {sides}")
        with self._transaction(f"cannot set division {name}") as conn:
            row = conn.execute(
                "SELECT id, system, sides FROM divisions WHERE name = ?", (name,)
            ).fetchone()
            if row is None:
                conn.execute("INSERT INTO divisions (name) VALUES (?)", (name,))
                row = conn.execute(
                    "SELECT id, system, sides FROM divisions WHERE name = ?", (name,)
                ).fetchone()
            division_id, was_system, was_sides = row
            if (system or was_system) == "round-robin" and (sides or was_sides) != 2:
                raise EventStoreError("a round robin is for 2-side games; use --system swiss")
            changes = {
                "game": game,
                "setup": setup,
                "system": system,
                "rounds": rounds,
                "sides": sides,
            }
            for column, value in changes.items():
                if value is not None:
                    conn.execute(
                        f"UPDATE divisions SET {column} = ? WHERE id = ?", (value, division_id)
                    )

    def add_player(self, name: str, division: str) -> None:
        """Adds a player to a division (made if new). Names are unique in the event, whatever
        their case: results are matched to pairings by name."""
        name = name.strip()
        if not name:
            raise EventStoreError("a player needs a name")
        check_topic_level(division, "division name")
        with self._transaction(f"cannot add {name}") as conn:
            if conn.execute("SELECT 1 FROM players WHERE name = ?", (name,)).fetchone():
                raise EventStoreError(f"there is already a player called {name}")
            row = conn.execute(
                "SELECT id, system, (SELECT COUNT(*) FROM rounds WHERE division_id = d.id) "
                "FROM divisions AS d WHERE name = ?",
                (division,),
            ).fetchone()
            if row is None:
                conn.execute("INSERT INTO divisions (name) VALUES (?)", (division,))
                row = conn.execute(
                    "SELECT id, system, 0 FROM divisions WHERE name = ?", (division,)
                ).fetchone()
            division_id, system, started = row
            if system == "round-robin" and started:
                raise EventStoreError(
                    f"{division} is a round robin that has started: nobody can join it now"
                )
            conn.execute(
                "INSERT INTO players (name, division_id, added) VALUES (?, ?, ?)",
                (name, division_id, utc_now()),
            )

    def add_round(self, planned: PlannedRound) -> list[int]:
        """Records a round and its pairings in one transaction; the pairings' ids. Refused
        if the round is not the division's next (another `pair` got there first)."""
        with self._transaction(f"cannot record round {planned.round}") as conn:
            division_id = self._division_id(conn, planned.division)
            (last,) = conn.execute(
                "SELECT COALESCE(MAX(number), 0) FROM rounds WHERE division_id = ?",
                (division_id,),
            ).fetchone()
            if planned.round != last + 1:
                raise EventStoreError(
                    f"round {planned.round} of {planned.division} cannot follow round {last}"
                )
            conn.execute(
                "INSERT INTO rounds (division_id, number, paired) VALUES (?, ?, ?)",
                (division_id, planned.round, utc_now()),
            )
            ids: list[int] = []
            for board, seats in planned.tables:
                cursor = conn.execute(
                    "INSERT INTO pairings (division_id, round, board) VALUES (?, ?, ?)",
                    (division_id, planned.round, board),
                )
                pairing_id = int(cast(int, cursor.lastrowid))
                for seat, player in enumerate(seats):
                    conn.execute(
                        "INSERT INTO seats (pairing_id, seat, player_id) "
                        "SELECT ?, ?, id FROM players WHERE name = ?",
                        (pairing_id, seat, player),
                    )
                ids.append(pairing_id)
        return ids

    def add_result(
        self,
        pairing_id: int,
        outcome: Outcome,
        *,
        source: Source,
        record_hash: str | None = None,
        game_id: int | None = None,
    ) -> Result:
        """Records a pairing's result, and returns it as `event()` would read it; refused if
        the pairing has one, if it is a bye, or if the record hash is already another
        game's."""
        scores = None if outcome.scores is None else tuple(float(s) for s in outcome.scores)
        recorded = utc_now()
        with self._transaction(f"cannot record the result of pairing {pairing_id}") as conn:
            row = conn.execute(
                "SELECT board, (SELECT COUNT(*) FROM seats WHERE pairing_id = p.id) "
                "FROM pairings AS p WHERE id = ?",
                (pairing_id,),
            ).fetchone()
            if row is None or row[0] is None:
                raise EventStoreError(f"no game {pairing_id} to record a result for")
            if conn.execute("SELECT 1 FROM results WHERE pairing_id = ?", (pairing_id,)).fetchone():
                raise EventStoreError(f"the game on {row[0]} already has a result")
            sides = row[1]
            if outcome.scores is not None and len(outcome.scores) != sides:
                raise EventStoreError(
                    f"the game on {row[0]} has {sides} sides, not that many scores"
                )
            if any(not 0 <= w < sides for w in outcome.winners):
                raise EventStoreError(f"the game on {row[0]} has no side {outcome.winners}")
            if (
                record_hash is not None
                and conn.execute("SELECT 1 FROM results WHERE hash = ?", (record_hash,)).fetchone()
            ):
                raise EventStoreError("that game's result is already recorded")
            cursor = conn.execute(
                "INSERT INTO results (pairing_id, scores, winners, hash, game_id, source, "
                "recorded) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    pairing_id,
                    None if outcome.scores is None else json.dumps(list(outcome.scores)),
                    json.dumps(list(outcome.winners)),
                    record_hash,
                    game_id,
                    source,
                    recorded,
                ),
            )
            order = int(cast(int, cursor.lastrowid))
        return Result(
            Outcome(scores, tuple(outcome.winners)), record_hash, game_id, source, recorded, order
        )

    def withdraw(
        self, name: str, *, division: str | None = None, from_round: int | None = None
    ) -> tuple[str, str, int]:
        """Withdraws a player from round `from_round` on (default: the division's next
        round not yet paired): they are not paired from then on, and what they played
        stands. The player's name, division and that round; refused for a player unknown
        or already withdrawn, or a round already paired."""
        with self._transaction(f"cannot withdraw {name.strip()}") as conn:
            event = self.event()
            player, found = self._player(event, name, division)
            already = found.withdrawn_from(player)
            if already is not None:
                raise EventStoreError(f"{player} has already withdrawn (from round {already})")
            following = event.current_round(found.name) + 1
            start = following if from_round is None else from_round
            if start < following:
                raise EventStoreError(
                    f"round {start} of {found.name} is already paired: withdraw {player} "
                    f"from round {following} or later"
                )
            limit = planned_rounds(event, found.name)
            if limit is not None and start > limit:
                if from_round is None:
                    raise EventStoreError(
                        f"all {limit} rounds of {found.name} are paired: {player} has no "
                        "round left to withdraw from"
                    )
                raise EventStoreError(f"{found.name} plays {limit} rounds, not {start}")
            conn.execute(
                "INSERT INTO withdrawals (player_id, from_round, recorded) "
                "SELECT id, ?, ? FROM players WHERE name = ?",
                (start, utc_now(), player),
            )
        return player, found.name, start

    def reinstate(self, name: str, *, division: str | None = None) -> tuple[str, str, int]:
        """Undoes a player's withdrawal for the rounds not yet paired: the player's name,
        division and the first round they are paired in again. Refused for a player
        unknown or not withdrawn."""
        with self._transaction(f"cannot reinstate {name.strip()}") as conn:
            event = self.event()
            player, found = self._player(event, name, division)
            withdrawn = found.withdrawn_from(player)
            if withdrawn is None:
                raise EventStoreError(f"{player} has not withdrawn")
            start = max(withdrawn, event.current_round(found.name) + 1)
            (withdrawal,) = conn.execute(
                "SELECT MAX(w.id) FROM withdrawals AS w JOIN players AS p ON p.id = w.player_id "
                "WHERE p.name = ?",
                (player,),
            ).fetchone()
            conn.execute(
                "INSERT INTO reinstatements (withdrawal_id, from_round, recorded) VALUES (?, ?, ?)",
                (withdrawal, start, utc_now()),
            )
        return player, found.name, start

    def correct(self, pairing_id: int, outcome: Outcome, *, why: str) -> Result:
        """Corrects a recorded result: the result as recorded stays, and `outcome` is in
        force from now on (until another correction). The result as `event()` reads it
        then; refused if the game has no result, if it is already that outcome, or
        without a reason."""
        why = why.strip()
        if not why:
            raise EventStoreError("say why the result is corrected (--why TEXT)")
        scores = None if outcome.scores is None else tuple(float(s) for s in outcome.scores)
        winners = tuple(sorted(set(outcome.winners)))
        with self._transaction(f"cannot correct the result of pairing {pairing_id}") as conn:
            pairing = next((p for p in self.event().pairings if p.id == pairing_id), None)
            if pairing is None or pairing.is_bye:
                raise EventStoreError(f"no game {pairing_id} to correct the result of")
            where = f"the game of {pairing.board}, round {pairing.round} of {pairing.division}"
            if pairing.result is None:
                raise EventStoreError(f"{where} has no result to correct")
            sides = len(pairing.seats)
            if scores is not None and len(scores) != sides:
                raise EventStoreError(f"{where} has {sides} sides, not that many scores")
            if any(not 0 <= w < sides for w in winners):
                raise EventStoreError(f"{where} has no side {list(winners)}")
            now = pairing.result.outcome
            if now.scores == scores and tuple(sorted(set(now.winners))) == winners:
                raise EventStoreError(f"{where} already has that result")
            conn.execute(
                "INSERT INTO corrections (result_id, scores, winners, why, recorded) "
                "VALUES (?, ?, ?, ?, ?)",
                (
                    pairing.result.order,
                    None if scores is None else json.dumps(list(scores)),
                    json.dumps(list(winners)),
                    why,
                    utc_now(),
                ),
            )
            result = self.event_pairing(pairing_id).result
        assert result is not None
        return result

    def _player(self, event: Event, name: str, division: str | None) -> tuple[str, Division]:
        """The player called `name` (whatever the case) and their division; refused if
        there is none, or if `division` is not theirs."""
        for found in event.divisions:
            for player in found.players:
                if same_name(player, name):
                    if division is not None and not same_name(found.name, division):
                        raise EventStoreError(f"{player} plays in {found.name}, not {division}")
                    return player, found
        raise EventStoreError(f"no player called {name.strip()}")

    @contextmanager
    def batch(self, what: str) -> Iterator[None]:
        """Every change made in the block, in one transaction committed when the block
        ends (one write to disk for all of them): nothing of it is in the file before, and
        all of it after. Each change is still checked on its own, and one refused undoes
        only itself. An exception leaving the block undoes them all; a commit that fails
        raises EventStoreError(`what`: why). Reads in the block see the file as it is,
        locked against other commands' writes until the block ends. A batch inside a batch
        is part of it."""
        if self._batch:
            yield
            return
        conn = self._connection()
        try:
            with immediate(conn):
                self._batch = True
                yield
        except sqlite3.Error as err:
            raise EventStoreError(f"{what}: {err}", where=str(self.path)) from err
        finally:
            self._batch = False

    # -- reading ---------------------------------------------------------------------------

    def event(self) -> Event:
        """Everything in the file, as one immutable value."""
        name, hub, boards = self._rows("SELECT name, hub, boards FROM event WHERE id = 1")[0]
        players: dict[int, list[str]] = {}
        for division_id, player in self._rows("SELECT division_id, name FROM players ORDER BY id"):
            players.setdefault(division_id, []).append(player)
        withdrawn: dict[int, list[tuple[str, int]]] = {}
        for division_id, player, start in self._rows(
            "SELECT p.division_id, p.name, w.from_round FROM withdrawals AS w "
            "JOIN players AS p ON p.id = w.player_id "
            "WHERE NOT EXISTS (SELECT 1 FROM reinstatements WHERE withdrawal_id = w.id) "
            "ORDER BY w.id"
        ):
            withdrawn.setdefault(division_id, []).append((player, start))
        divisions = {
            row[0]: Division(
                name=row[1],
                game=row[2],
                setup=row[3],
                system=row[4],
                rounds=row[5],
                sides=row[6],
                players=tuple(players.get(row[0], ())),
                withdrawn=tuple(withdrawn.get(row[0], ())),
            )
            for row in self._rows(
                "SELECT id, name, game, setup, system, rounds, sides FROM divisions ORDER BY id"
            )
        }
        seats: dict[int, list[str]] = {}
        for pairing_id, player in self._rows(
            "SELECT s.pairing_id, p.name FROM seats AS s JOIN players AS p ON p.id = s.player_id "
            "ORDER BY s.pairing_id, s.seat"
        ):
            seats.setdefault(pairing_id, []).append(player)
        corrections: dict[int, list[Correction]] = {}
        for result_id, scores, winners, why, recorded in self._rows(
            "SELECT result_id, scores, winners, why, recorded FROM corrections ORDER BY id"
        ):
            corrections.setdefault(result_id, []).append(
                Correction(_outcome(scores, winners), why, recorded)
            )
        results: dict[int, Result] = {}
        for row in self._rows(
            "SELECT pairing_id, scores, winners, hash, game_id, source, recorded, id "
            "FROM results ORDER BY id"
        ):
            results[row[0]] = Result(
                _outcome(row[1], row[2]),
                row[3],
                row[4],
                row[5],
                row[6],
                row[7],
                tuple(corrections.get(row[7], ())),
            )
        pairings = tuple(
            Pairing(
                id=pairing_id,
                division=divisions[division_id].name,
                round=round_number,
                board=board,
                seats=tuple(seats.get(pairing_id, ())),
                result=results.get(pairing_id),
            )
            for pairing_id, division_id, round_number, board in self._rows(
                "SELECT id, division_id, round, board FROM pairings ORDER BY id"
            )
        )
        return Event(name, hub, tuple(json.loads(boards)), tuple(divisions.values()), pairings)

    def event_pairing(self, pairing_id: int) -> Pairing:
        """One pairing, with its result, as `event()` reads it."""
        return next(p for p in self.event().pairings if p.id == pairing_id)

    def data_version(self) -> int:
        """Changes whenever another connection commits: the hub rereads the event then."""
        return int(self._rows("PRAGMA data_version")[0][0])

    # -- plumbing --------------------------------------------------------------------------

    def _division_id(self, conn: sqlite3.Connection, name: str) -> int:
        row = conn.execute("SELECT id FROM divisions WHERE name = ?", (name,)).fetchone()
        if row is None:
            raise EventStoreError(f"no division {name!r}")
        return int(row[0])

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise EventStoreError("the event file is closed", where=str(self.path))
        return self._conn

    @contextmanager
    def _transaction(self, what: str) -> Iterator[sqlite3.Connection]:
        """One change: its own transaction, or in a batch a savepoint of the batch's."""
        conn = self._connection()
        if self._batch:
            if not conn.in_transaction:  # SQLite undid the batch on an error (a full disk)
                raise EventStoreError(f"{what}: the batch was undone", where=str(self.path))
            begin, commit, undo = "SAVEPOINT change", "RELEASE change", "ROLLBACK TO change"
        else:
            # IMMEDIATE: the write lock before the checks, so that two commands (the hub
            # and a `result` typed at the desk) cannot both pass them and both write.
            begin, commit, undo = "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK"
        try:
            conn.execute(begin)
            yield conn
            conn.execute(commit)
        except BaseException as err:
            if conn.in_transaction:
                with suppress(sqlite3.Error):
                    conn.execute(undo)
                    if self._batch:
                        conn.execute(commit)  # the savepoint undone, the batch goes on
            if isinstance(err, EventStoreError) and err.where is None:
                raise EventStoreError(err.message, where=str(self.path)) from None
            if isinstance(err, sqlite3.Error):
                raise EventStoreError(f"{what}: {err}", where=str(self.path)) from err
            raise

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        conn = self._connection()
        try:
            return cast(list[tuple[Any, ...]], conn.execute(sql, params).fetchall())
        except sqlite3.Error as err:
            raise EventStoreError(f"cannot read: {err}", where=str(self.path)) from err
        except (UnicodeDecodeError, ValueError) as err:
            raise EventStoreError(f"cannot read: damaged ({err})", where=str(self.path)) from err


def _outcome(scores: str | None, winners: str) -> Outcome:
    """An outcome as the file keeps it: scores and winners as JSON."""
    kept = None if scores is None else tuple(float(s) for s in json.loads(scores))
    return Outcome(kept, tuple(json.loads(winners)))


_EventRow = tuple[str, str, str, str]
"""name, hub, boards (JSON), created."""


def _connect(path: Path, *, create: _EventRow | None) -> sqlite3.Connection:
    """A connection to an event file: an existing one, or with `create`, a new one holding
    that event."""
    where = str(path)
    try:
        if create is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: transactions begin and end exactly where the code says.
        conn = sqlite3.connect(path, isolation_level=None, timeout=10.0)
    except (OSError, sqlite3.Error) as err:
        raise EventStoreError(f"cannot open: {err}", where=where) from None
    try:
        _prepare(conn, where, create=create)
    except BaseException:
        conn.close()
        raise
    return conn


def _prepare(conn: sqlite3.Connection, where: str, *, create: _EventRow | None) -> None:
    """Checks the file is an event (or, to create one, empty), then sets it up."""
    try:
        # The first read parses the file header: a stranger's file fails here, before any
        # PRAGMA that writes, so it is left untouched.
        version, app_id, tables = _identity(conn)
        empty = version == app_id == tables == 0
        if create is not None and not empty:
            raise EventStoreError("already exists; an event file is made once", where=where)
        if create is None and empty:
            raise EventStoreError(
                "an empty file, not an event (companion tournament new FILE --name NAME makes one)",
                where=where,
            )
        if create is None:
            _check_identity(version, app_id, where)
        conn.execute("PRAGMA journal_mode = WAL").fetchone()
        # FULL: a result is on disk before the hub says it was recorded.
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        if create is not None:
            with immediate(conn):
                if _identity(conn) != (0, 0, 0):  # another `new` got there first
                    raise EventStoreError("already exists; an event file is made once", where=where)
                for statement in (*_SCHEMA, *_SCHEMA_2):
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO event (id, name, hub, boards, created) VALUES (1, ?, ?, ?, ?)",
                    create,
                )
                conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        else:
            # Every table the schema makes must be there: a file cut short or edited
            # elsewhere is refused now rather than half-read later.
            names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
            missing = set(_TABLES if version < 2 else (*_TABLES, *_TABLES_2)) - names
            if missing:
                raise EventStoreError(
                    f"a damaged event file (no table {', '.join(sorted(missing))})", where=where
                )
            problems = [r[0] for r in conn.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise EventStoreError(f"a damaged event file ({problems[0]})", where=where)
            if version < SCHEMA_VERSION:
                _migrate(conn, where)
    except sqlite3.DatabaseError as err:
        if "not a database" in str(err) or "malformed" in str(err):
            raise EventStoreError(
                "not an event file (damaged, or not an SQLite database)", where=where
            ) from None
        raise EventStoreError(f"cannot open: {err}", where=where) from None
    except UnicodeDecodeError as err:
        raise EventStoreError(f"cannot open: damaged text ({err})", where=where) from None


def _migrate(conn: sqlite3.Connection, where: str) -> None:
    """An event file of an older schema brought to this one, in place, in one transaction:
    killed half-way, the file is as it was, and the next open does it again."""
    with immediate(conn):
        # Checked again under the write lock: another command may have done it meanwhile.
        version, app_id, _ = _identity(conn)
        _check_identity(version, app_id, where)
        if version < 2:
            for statement in _SCHEMA_2:
                conn.execute(statement)
        if version < SCHEMA_VERSION:
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _identity(conn: sqlite3.Connection) -> tuple[int, int, int]:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    app_id = conn.execute("PRAGMA application_id").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    return int(version), int(app_id), int(tables)


def _check_identity(version: int, app_id: int, where: str) -> None:
    if app_id != APPLICATION_ID:
        raise EventStoreError("an SQLite database, but not an event file", where=where)
    if version > SCHEMA_VERSION:
        raise EventStoreError(
            f"written by a newer companion (event schema {version}; this one reads up to "
            f"{SCHEMA_VERSION})",
            where=where,
        )
