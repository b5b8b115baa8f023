"""The event file: killed anywhere while it is written it loses and doubles nothing, and a
file that is not an event (damaged, foreign, a games store) is refused in one line; a
file of the previous schema is brought up to date when opened, one of a newer refused."""

from __future__ import annotations

import csv
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from companion.cli import main
from companion.store import Store
from companion.tournament.event_store import EventStore, EventStoreError
from companion.tournament.export import csv_text
from companion.tournament.model import Outcome
from companion.tournament.rounds import next_round

WRITER = Path(__file__).parent / "event_writer.py"
KILLS = 25
SEED = 20261127

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def run_writer(path: Path, kill: float | None, early: bool = False) -> tuple[int, list[str]]:
    """Runs the writer; with `kill`, SIGKILLs it that many seconds after it says the file
    is open (or, `early`, after it starts: while Python starts and the file opens)."""
    proc = subprocess.Popen(
        [sys.executable, str(WRITER), str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
    )
    assert proc.stdout is not None
    head = b""
    if kill is not None:
        if not early:
            head = proc.stdout.readline()
        time.sleep(kill)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode in (0, -signal.SIGKILL), err.decode()[-2000:]
    # Only whole lines count: a line cut off by the kill proves nothing.
    lines = (head + out).decode().split("\n")[:-1]
    return proc.returncode, lines


def check(path: Path, committed: list[str]) -> None:
    """Whatever a kill left is whole: every round seats every player once; what was said
    to be committed is there."""
    if not committed and not path.exists():
        return
    try:
        store = EventStore.open(path)
    except EventStoreError as err:
        # Killed before the event's one first transaction: nothing was said committed.
        assert not committed and ("empty file" in str(err) or "no event" in str(err)), err
        return
    with store:
        event = store.event()
    division = event.division("Open") if event.divisions else None
    players = division.players if division else ()
    for number in range(1, event.current_round("Open") + 1 if division else 1):
        seated = Counter(p for pairing in event.pairings_of("Open", number) for p in pairing.seats)
        assert division is not None
        assert seated == Counter(division.playing(number)), f"round {number} is not whole"
    ids = {p.id for p in event.pairings if p.result is not None}
    corrected = {p.id for p in event.pairings if p.result is not None and p.result.corrections}
    for line in committed:
        _, kind, value = line.split()
        if kind == "player":
            assert f"Player {int(value):02d}" in players
        elif kind == "round":
            assert event.current_round("Open") >= int(value)
        elif kind == "correction":
            assert int(value) in corrected
        elif kind == "withdrawal":
            assert division is not None and division.withdrawn == (("Player 07", int(value)),)
        else:
            assert int(value) in ids


def test_an_event_killed_anywhere_while_written_loses_and_doubles_nothing(tmp_path: Path) -> None:
    whole = tmp_path / "whole.sqlite3"
    proc_start = time.monotonic()
    code, lines = run_writer(whole, None)
    took = time.monotonic() - proc_start
    assert code == 0 and lines[-1] == "done"

    path = tmp_path / "killed.sqlite3"
    draw = random.Random(SEED)
    cut: list[int] = []
    """How much each writer that was killed had committed."""
    for n in range(KILLS):
        early = n % 5 == 0
        code, lines = run_writer(path, draw.uniform(0.0, took / 8), early=early)
        committed = [line for line in lines if line.startswith("committed ")]
        check(path, committed)
        if code == 0:
            break
        cut.append(len(committed))
    # Kills landed while the event was being written, not only before it began: however
    # busy the machine, and so however much each writer got done before its kill.
    assert sum(1 for n in cut if n > 0) >= 2, cut
    code, lines = run_writer(path, None)
    assert code == 0 and lines[-1] == "done"
    with EventStore.open(path) as killed, EventStore.open(whole) as kept:
        # The same event, result for result (times aside; results by hand have no hash).
        def comparable(text: str) -> list[dict[str, str]]:
            standings, results = text.split("\n\n")
            rows = [*csv.DictReader(standings.splitlines()), *csv.DictReader(results.splitlines())]
            return [
                {k: v for k, v in row.items() if k not in ("recorded", "corrected")} for row in rows
            ]

        assert comparable(csv_text(killed.event())) == comparable(csv_text(kept.event()))


def one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_files_that_are_not_events_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = tmp_path / "notes.sqlite3"
    text.write_text("Ann, Bo, Cy\n" * 200)
    one_line(capsys, ["tournament", "standings", str(text)], "not an event file")
    foreign = tmp_path / "other.sqlite3"
    sqlite3.connect(foreign).execute("CREATE TABLE x (a)").connection.commit()
    one_line(capsys, ["tournament", "standings", str(foreign)], "not an event file")
    games = tmp_path / "games.sqlite3"
    Store.open(games).close()
    one_line(capsys, ["tournament", "pair", str(games)], "not an event file")
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    one_line(capsys, ["tournament", "standings", str(empty)], "an empty file, not an event")
    one_line(capsys, ["tournament", "standings", str(tmp_path / "none")], "no event here")


def test_a_damaged_event_file_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "event.sqlite3"
    with EventStore.create(path, name="Spring open") as store:
        for name in ("Ann", "Bo", "Cy", "Di"):
            store.add_player(name, "Open")
        store.set_division("Open", game="memwars")
        store.add_round(next_round(store.event(), "Open"))
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    # Past the header: the pages of the tables, torn as a bad disk would tear them.
    for offset in range(4096, len(data), 1024):
        data[offset : offset + 64] = bytes(64)
    path.write_bytes(bytes(data))
    one_line(capsys, ["tournament", "standings", str(path)], str(path))
    with pytest.raises(EventStoreError):
        EventStore.open(path).event()
    cut = tmp_path / "cut.sqlite3"
    cut.write_bytes(bytes(data[:3000]))
    one_line(capsys, ["tournament", "standings", str(cut)], "cut.sqlite3")


def test_history_cannot_be_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "event.sqlite3"
    with EventStore.create(path, name="Spring open") as store:
        for name in ("Ann", "Bo"):
            store.add_player(name, "Open")
        store.set_division("Open", game="memwars")
        (pairing,) = store.add_round(next_round(store.event(), "Open"))
        store.add_result(pairing, Outcome((3.0, 1.0), (0,)), source="hand")
        with pytest.raises(EventStoreError, match="already has a result"):
            store.add_result(pairing, Outcome((1.0, 3.0), (1,)), source="hand")
        with pytest.raises(EventStoreError, match="keeps its settings"):
            store.set_division("Open", game="mem")
        with pytest.raises(EventStoreError, match="already a player called ann"):
            store.add_player("ann", "Open")
    conn = sqlite3.connect(path)
    for sql in ("UPDATE results SET winners = '[1]'", "DELETE FROM pairings"):
        with pytest.raises(sqlite3.IntegrityError, match="never changed"):
            conn.execute(sql)
    conn.close()
    with pytest.raises(EventStoreError, match="already exists"):
        EventStore.create(path, name="Again")


def test_a_batch_is_one_transaction_whose_refused_changes_undo_only_themselves(
    tmp_path: Path,
) -> None:
    path = tmp_path / "event.sqlite3"
    with EventStore.create(path, name="Spring open") as store:
        for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"):
            store.add_player(name, "Open")
        store.set_division("Open", game="memwars")
        first, second, third = store.add_round(next_round(store.event(), "Open"))
    with EventStore.open(path) as store, EventStore.open(path) as desk:

        def recorded() -> list[int]:
            return [p.id for p in desk.event().pairings if p.result is not None]

        with store.batch("cannot record"):
            kept = store.add_result(first, Outcome((3, 1), (0,)), source="table", record_hash="a")
            with pytest.raises(EventStoreError, match="already has a result"):
                store.add_result(first, Outcome((1.0, 3.0), (1,)), source="hand")
            with pytest.raises(EventStoreError, match="already recorded"):
                store.add_result(second, Outcome((1.0, 3.0), (1,)), source="table", record_hash="a")
            store.add_result(second, Outcome((2.0, 2.0), ()), source="hand")
            assert recorded() == []  # nothing in the file before the block ends
            # Reads in the block see its changes.
            assert [p.id for p in store.event().pairings if p.result] == [first, second]
        assert recorded() == [first, second]
        # The result returned is the result read from the file.
        assert desk.event().pairings[0].result == kept
        assert kept.outcome == Outcome((3.0, 1.0), (0,))

        # An exception leaving the block undoes every change in it.
        with pytest.raises(KeyError), store.batch("cannot record"):
            store.add_result(third, Outcome((3.0, 1.0), (0,)), source="hand")
            raise KeyError("stop")
        assert recorded() == [first, second]
        # The store goes on as before.
        store.add_result(third, Outcome((3.0, 1.0), (0,)), source="hand")
        assert recorded() == [first, second, third]


SCHEMA_1 = (
    """CREATE TABLE event (
        id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL, hub TEXT NOT NULL,
        boards TEXT NOT NULL, created TEXT NOT NULL)""",
    """CREATE TABLE divisions (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE, game TEXT,
        setup TEXT,
        system TEXT NOT NULL DEFAULT 'swiss' CHECK (system IN ('swiss', 'round-robin')),
        rounds INTEGER CHECK (rounds IS NULL OR rounds >= 1),
        sides INTEGER NOT NULL DEFAULT 2 CHECK (sides BETWEEN 2 AND 8))""",
    """CREATE TABLE players (
        id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        division_id INTEGER NOT NULL REFERENCES divisions (id), added TEXT NOT NULL)""",
    """CREATE TABLE rounds (
        division_id INTEGER NOT NULL REFERENCES divisions (id),
        number INTEGER NOT NULL CHECK (number >= 1), paired TEXT NOT NULL,
        PRIMARY KEY (division_id, number)) WITHOUT ROWID""",
    """CREATE TABLE pairings (
        id INTEGER PRIMARY KEY, division_id INTEGER NOT NULL, round INTEGER NOT NULL,
        board TEXT, FOREIGN KEY (division_id, round) REFERENCES rounds (division_id, number))""",
    """CREATE TABLE seats (
        pairing_id INTEGER NOT NULL REFERENCES pairings (id),
        seat INTEGER NOT NULL CHECK (seat >= 0),
        player_id INTEGER NOT NULL REFERENCES players (id),
        PRIMARY KEY (pairing_id, seat)) WITHOUT ROWID""",
    """CREATE TABLE results (
        id INTEGER PRIMARY KEY, pairing_id INTEGER NOT NULL UNIQUE REFERENCES pairings (id),
        scores TEXT, winners TEXT NOT NULL, hash TEXT UNIQUE, game_id INTEGER,
        source TEXT NOT NULL CHECK (source IN ('table', 'hand')), recorded TEXT NOT NULL)""",
    *(
        f"""CREATE TRIGGER {table}_{what} BEFORE {verb} ON {table}
        BEGIN SELECT RAISE(ABORT, '{table} are never changed'); END"""
        for table in ("players", "rounds", "pairings", "seats", "results")
        for what, verb in (("fixed", "UPDATE"), ("kept", "DELETE"))
    ),
    """CREATE TRIGGER divisions_settled BEFORE UPDATE ON divisions
    WHEN EXISTS (SELECT 1 FROM rounds WHERE division_id = OLD.id)
    BEGIN SELECT RAISE(ABORT, 'a division that has started keeps its settings'); END""",
    """CREATE TRIGGER divisions_kept BEFORE DELETE ON divisions
    BEGIN SELECT RAISE(ABORT, 'divisions are never deleted'); END""",
)
"""The event file's schema 1, as the first companion with tournaments wrote it."""

HASH = "9f2c6d0e4b8a71f35c2e9d1a0b7c4e6f8a3d5b2c1e0f9a8b7c6d5e4f3a2b1c0d"


def schema_1_event(path: Path) -> None:
    """An event file of schema 1: four players, round 1 paired, a table's result in."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("BEGIN")
    for statement in SCHEMA_1:
        conn.execute(statement)
    at = "2026-03-14T16:00:00Z"
    conn.execute("INSERT INTO event VALUES (1, 'Old open', 'tournament', '[]', ?)", (at,))
    conn.execute("INSERT INTO divisions (id, name, game) VALUES (1, 'Open', 'memwars')")
    for n, name in enumerate(("Ann", "Bo", "Cy", "Di"), start=1):
        conn.execute("INSERT INTO players VALUES (?, ?, 1, ?)", (n, name, at))
    conn.execute("INSERT INTO rounds VALUES (1, 1, ?)", (at,))
    conn.execute("INSERT INTO pairings VALUES (1, 1, 1, 'table-1'), (2, 1, 1, 'table-2')")
    conn.execute("INSERT INTO seats VALUES (1, 0, 1), (1, 1, 3), (2, 0, 2), (2, 1, 4)")
    conn.execute(
        "INSERT INTO results VALUES (1, 1, '[30.0, 20.0]', '[0]', ?, 7, 'table', ?)", (HASH, at)
    )
    conn.execute("PRAGMA application_id = 1414808881")  # 'TTE1'
    conn.execute("PRAGMA user_version = 1")
    conn.execute("COMMIT")
    conn.close()


def test_a_schema_1_file_is_brought_up_to_date_when_opened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.sqlite3"
    schema_1_event(path)
    with EventStore.open(path) as store:
        event = store.event()
        assert event.name == "Old open" and event.division("Open").withdrawn == ()
        result = event.pairings[0].result
        assert result is not None and result.record_hash == HASH and result.corrections == ()
        # Withdrawals and corrections work on it at once.
        store.withdraw("Bo", from_round=3)
        store.correct(1, Outcome((20.0, 30.0), (1,)), why="scores swapped")
        store.add_result(2, Outcome((1.0, 2.0), (1,)), source="hand")
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone() == (2,)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"withdrawals", "reinstatements", "corrections"} <= tables
    with pytest.raises(sqlite3.IntegrityError, match="withdrawals are never changed"):
        conn.execute("DELETE FROM withdrawals")
    conn.close()
    # Opened again: nothing to do, nothing lost.
    with EventStore.open(path) as store:
        event = store.event()
    assert event.division("Open").withdrawn == (("Bo", 3),)
    first = event.pairings[0].result
    assert first is not None and first.outcome.winners == (1,)
    assert first.as_recorded == Outcome((30.0, 20.0), (0,))
    assert "Cy" in main_out(capsys, ["tournament", "standings", str(path)]).splitlines()[2]


def test_a_schema_1_file_the_same_as_the_first_companion_wrote(tmp_path: Path) -> None:
    """SCHEMA_1 is schema 1 as EventStore wrote it (tables, triggers, their SQL): brought
    up to date, a schema 1 file and a file made new hold the same schema."""
    old, new = tmp_path / "old.sqlite3", tmp_path / "new.sqlite3"
    schema_1_event(old)
    EventStore.open(old).close()
    EventStore.create(new, name="New open").close()

    def schema(path: Path) -> list[tuple[str, str, str]]:
        conn = sqlite3.connect(path)
        rows = conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
        conn.close()
        return [(kind, name, " ".join((sql or "").split())) for kind, name, sql in rows]

    def words(rows: list[tuple[str, str, str]]) -> list[tuple[str, str, list[str]]]:
        spaced = [
            (k, n, s.replace("(", " ( ").replace(")", " ) ").replace(",", " , "))
            for k, n, s in rows
        ]
        return [(k, n, s.split()) for k, n, s in spaced]

    assert words(schema(old)) == words(schema(new))


def test_a_file_of_a_newer_schema_is_refused_in_one_line_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "event.sqlite3"
    EventStore.create(path, name="Spring open").close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("PRAGMA user_version = 3")
    conn.close()
    before = path.read_bytes()
    one_line(
        capsys,
        ["tournament", "withdraw", str(path), "Ann"],
        "written by a newer companion (event schema 3; this one reads up to 2)",
    )
    assert path.read_bytes() == before


def main_out(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0, capsys.readouterr().err
    return capsys.readouterr().out
