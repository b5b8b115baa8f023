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
    progress: list[int] = []
    for n in range(KILLS):
        early = n % 5 == 0
        code, lines = run_writer(path, draw.uniform(0.0, took / 8), early=early)
        committed = [line for line in lines if line.startswith("committed ")]
        check(path, committed)
        progress.append(len(committed))
        if code == 0:
            break
    # The kills landed while the event was being written, not only before or after.
    assert sum(1 for n in progress if n > 0) >= KILLS // 5, progress
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
