"""A store that knows when it is damaged: single bytes flipped in the database file and in
the WAL of a store still being written, files cut short, a challenge's judgement edited with
SQL, and a store in a read-only directory.

Every damaged copy must read either exactly as committed, or be refused: the game naming its
first bad action (with everything before it as committed), or the whole file refused by
SQLite. Nothing may read back silently different. The offsets are fixed (a seeded choice),
so the file runs the same cases every time.
"""

from __future__ import annotations

import io
import json
import random
import shutil
import sqlite3
import stat
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import store as store_module
from companion.cli import main
from companion.games.memwars import actions as A
from companion.session import Referee
from companion.store import GameDamaged, Store, StoreError, load_game, verify_game
from tests.memwars.helpers import setup as memwars_setup
from tests.support.toy_game import scripted_game

SETUP = {"pile": 12, "seed": 3}
JUDGED = 5
"""The seq of the memwars game's judgement (the challenger right)."""

MEMWARS_SCRIPT = [
    A.Claim(0, 5),
    A.Challenge(1),
    A.Contest(0),
    A.Maintain(1),
    A.Judge(claimant_correct=False, challenger_correct=True),
    A.Claim(1, 6),
    A.Claim(1, 7),
    A.Claim(0, 8),
    A.DeclineChallenge(1),
]


def write_games(path: Path) -> Store:
    """Three games, left open (the WAL not checkpointed): a finished toy game, a MemWars game
    with a challenge judged, and a toy game three actions in."""
    store = Store.open(path)
    # No automatic checkpoint: everything written stays in the -wal until the store closes.
    store._connection().execute("PRAGMA wal_autocheckpoint = 0")
    toy = Referee.start(store, "toy", SETUP, {"id": "none"}, title="finished")
    for data in scripted_game(SETUP):
        toy.submit(toy.engine.action_from_dict(data))
    memwars = Referee.start(store, "memwars", memwars_setup(), {"id": "none"}, title="judged")
    for action in MEMWARS_SCRIPT:
        memwars.submit(action)
    halfway = Referee.start(store, "toy", SETUP, {}, title="halfway")
    for data in scripted_game(SETUP)[:3]:
        halfway.submit(halfway.engine.action_from_dict(data))
    return store


Truth = dict[int, tuple[str, list[tuple[int, float, Any]], str, Any]]


def truth_of(path: Path) -> Truth:
    """What each game reads as: its export, its actions, title and status, its summary."""
    with Store.open(path, readonly=True) as store:
        truth: Truth = {}
        for game_id in store.game_ids():
            out = io.StringIO()
            store.export(game_id, out)
            engine, state, _ = load_game(store, game_id)
            row = store.game(game_id)
            truth[game_id] = (
                out.getvalue(),
                store.actions(game_id),
                f"{row.title}|{row.status}",
                engine.summary(state),
            )
        return truth


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """`open`: the database and -wal copied while the writer is still open; `closed`: the
    database after the store was closed (checkpointed, no -wal)."""
    base = tmp_path_factory.mktemp("snapshots")
    live = base / "live" / "games.sqlite3"
    store = write_games(live)
    try:
        opened = base / "open"
        opened.mkdir()
        for suffix in ("", "-wal"):
            shutil.copyfile(f"{live}{suffix}", opened / f"games.sqlite3{suffix}")
    finally:
        store.close()
    closed = base / "closed"
    closed.mkdir()
    shutil.copyfile(live, closed / "games.sqlite3")
    assert not Path(f"{live}-wal").exists()
    truth = truth_of(closed / "games.sqlite3")
    assert len(truth) == 3 and truth == truth_of(_copy(opened, base / "check"))
    yield {"open": opened, "closed": closed, "truth": truth}


def _copy(source: Path, target: Path) -> Path:
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    return target / "games.sqlite3"


def outcome(path: Path, truth: Truth, *, wal: bool = False) -> str:
    """How a damaged copy reads. Fails the test if it reads silently different.

    `wal`: the damage is in the -wal, where SQLite checks each frame's checksum and ignores
    the frame that fails and every frame after it. The store then reads as it was at an
    earlier commit: every game a prefix, at a commit, of what was written. The chain cannot
    tell that from a game that was never played further (see docs/store.md); such a case is
    counted as "an earlier commit", and must be exactly such a prefix."""
    try:
        store = Store.open(path, readonly=True)
    except StoreError:
        return "file refused"
    with store:
        try:
            ids = store.game_ids()
        except StoreError:
            return "file refused"
        assert set(ids) <= set(truth), f"games that were never written: {ids}"
        if wal and len(ids) < len(truth):
            # Games are created in order: an earlier commit lacks only the last ones.
            assert ids == sorted(truth)[: len(ids)], ids
        results = []
        for game_id, (export, actions, row, summary) in truth.items():
            if game_id not in ids:
                results.append("an earlier commit" if wal else "game missing")
                continue
            try:
                check = verify_game(store, game_id)
            except StoreError:
                results.append("game unreadable")
                continue
            if check.damage is not None:
                bad = check.damage.seq
                # Refused at its first bad action: everything before it is as committed.
                assert check.actions == [a for a in actions if a[0] < bad], check.damage
                results.append("refused at an action" if bad else "refused at the header")
                continue
            try:
                out = io.StringIO()
                store.export(game_id, out)
                engine, state, _ = load_game(store, game_id)
                got = store.game(game_id)
            except StoreError:
                results.append("game unreadable")
                continue
            if wal and (out.getvalue() != export or f"{got.title}|{got.status}" != row):
                earlier = store.actions(game_id)
                assert earlier == actions[: len(earlier)], f"game {game_id} is no prefix"
                assert export.startswith(out.getvalue()), f"game {game_id} is no prefix"
                results.append("an earlier commit")
                continue
            assert out.getvalue() == export, f"game {game_id} exports differently"
            assert f"{got.title}|{got.status}" == row, f"game {game_id}: {got}"
            assert engine.summary(state) == summary, f"game {game_id} replays differently"
            results.append("as committed")
    # The worst of the games names the case.
    order = [
        "file refused",
        "game missing",
        "game unreadable",
        "refused at the header",
        "refused at an action",
        "an earlier commit",
        "as committed",
    ]
    return min(results, key=order.index)


def flip(path: Path, offset: int, mask: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= mask
    path.write_bytes(bytes(data))


TALLY: Counter[str] = Counter()


@pytest.mark.parametrize("which", ["closed:", "open:", "open:-wal"])
def test_single_bytes_flipped(snapshots: dict[str, Any], tmp_path: Path, which: str) -> None:
    kind, suffix = which.split(":")
    size = (snapshots[kind] / f"games.sqlite3{suffix}").stat().st_size
    rng = random.Random(f"flip {which}")
    offsets = sorted(rng.sample(range(size), 150))
    seen: Counter[str] = Counter()
    for offset in offsets:
        path = _copy(snapshots[kind], tmp_path / "case")
        flip(Path(f"{path}{suffix}"), offset, rng.randrange(1, 256))
        seen[outcome(path, snapshots["truth"], wal=bool(suffix))] += 1
    TALLY.update({f"{which} {k}": v for k, v in seen.items()})
    print(which, dict(seen))
    assert sum(seen.values()) == len(offsets)


@pytest.mark.parametrize("which", ["closed:", "open:", "open:-wal"])
def test_files_cut_short(snapshots: dict[str, Any], tmp_path: Path, which: str) -> None:
    kind, suffix = which.split(":")
    size = (snapshots[kind] / f"games.sqlite3{suffix}").stat().st_size
    rng = random.Random(f"cut {which}")
    # Page and WAL-frame boundaries and points in between, down to an empty file.
    lengths = sorted({0, 100, *range(0, size, 4096), *range(32, size, 4096 + 24)})
    lengths += sorted(rng.sample(range(size), 20))
    seen: Counter[str] = Counter()
    for length in lengths:
        path = _copy(snapshots[kind], tmp_path / "case")
        with open(f"{path}{suffix}", "r+b") as file:
            file.truncate(length)
        seen[outcome(path, snapshots["truth"], wal=bool(suffix))] += 1
    print(which, dict(seen))
    assert sum(seen.values()) == len(lengths)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_flip_in_the_wal_reads_as_committed_or_is_refused(
    snapshots: dict[str, Any], tmp_path: Path, data: st.DataObject
) -> None:
    wal = snapshots["open"] / "games.sqlite3-wal"
    offset = data.draw(st.integers(0, wal.stat().st_size - 1), label="offset")
    mask = data.draw(st.integers(1, 255), label="mask")
    path = _copy(snapshots["open"], tmp_path / "hypothesis")
    flip(Path(f"{path}-wal"), offset, mask)
    outcome(path, snapshots["truth"], wal=True)


def _rewrite(path: Path, game_id: int, seq: int, action: dict[str, Any], *, rechain: bool) -> None:
    """Edits a stored action with SQL, past the append-only trigger; with `rechain`, as
    someone who knows the chain would: every later hash and the head recomputed."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    conn.execute("DROP TRIGGER actions_fixed")
    conn.execute(
        "UPDATE actions SET action = ? WHERE game_id = ? AND seq = ?",
        (json.dumps(action), game_id, seq),
    )
    conn.execute(store_module._ACTIONS_FIXED)
    if rechain:
        store_module._migrate_chain(conn)  # recomputes every hash and head
    conn.execute("COMMIT")
    conn.close()


@pytest.mark.parametrize("rechain", [False, True], ids=["hash-kept", "rechained"])
def test_an_edited_judgement_is_refused(
    snapshots: dict[str, Any], tmp_path: Path, rechain: bool
) -> None:
    path = _copy(snapshots["closed"], tmp_path / "case")
    with Store.open(path, readonly=True) as store:
        (judge,) = [a for seq, _, a in store.actions(2) if seq == JUDGED]
        assert judge["type"] == "judge"
        # The other verdict: the claimant keeps the place, so the score would differ.
        edited = {**judge, "claimant_correct": True, "challenger_correct": False}
    _rewrite(path, 2, JUDGED, edited, rechain=rechain)
    with Store.open(path, readonly=True) as store:
        check = verify_game(store, 2)
        assert check.damage is not None and check.damage.seq == JUDGED
        why = "replays to other events" if rechain else "breaks the chain"
        assert why in check.damage.why
        assert [a for _, _, a in check.actions] == [
            a for seq, _, a in store.actions(2) if seq < JUDGED
        ]
        with pytest.raises(GameDamaged, match=f"game 2 is damaged: action {JUDGED} "):
            load_game(store, 2)
        assert verify_game(store, 1).ok and verify_game(store, 3).ok
    with Store.open(path) as store, pytest.raises(GameDamaged, match=f"action {JUDGED}"):
        Referee.resume(store, 2)  # what the app's Resume calls


def test_commands_on_a_damaged_game(
    snapshots: dict[str, Any],
    data_dir: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = _copy(snapshots["closed"], data_dir)
    with Store.open(path, readonly=True) as store:
        judge = dict(store.actions(2)[JUDGED - 1][2])
    _rewrite(path, 2, JUDGED, {**judge, "claimant_correct": True}, rechain=False)
    assert main(["games", "verify"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"game 1: ok ({len(scripted_game(SETUP))} actions)"
    assert lines[1].startswith(f"game 2: DAMAGED at action {JUDGED}: breaks the chain")
    assert lines[2] == "game 3: ok (3 actions)"
    assert main(["games", "verify", "1"]) == 0
    assert main(["games", "verify", "9"]) == 2
    capsys.readouterr()
    for argv in (["games", "show", "2"], ["games", "export", "2"]):
        assert main(argv) == 2
        captured = capsys.readouterr()
        (line,) = captured.err.splitlines()
        assert f"game 2 is damaged: action {JUDGED} breaks the chain" in line
        assert captured.out == ""
    out = tmp_path / "prefix.jsonl"
    assert main(["games", "export", "2", "--force", "--out", str(out)]) == 0
    (warning,) = capsys.readouterr().err.splitlines()
    assert warning.startswith("warning: ") and f"only the {JUDGED - 1} actions before it" in warning
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == JUDGED  # the header and the actions before the bad one
    assert main(["games", "list"]) == 0  # listing does not replay


def test_takebacks_and_status_are_under_the_head(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with Store.open(path) as store:
        referee = Referee.start(store, "toy", SETUP, {})
        for data in scripted_game(SETUP)[:4]:
            referee.submit(referee.engine.action_from_dict(data))
        referee.take_back()
        assert verify_game(store, 1).ok and len(verify_game(store, 1).actions) == 3
    # A takeback lost is noticed only at the head, after the last action (the chain cannot
    # tell which action it took back); a changed status makes the takebacks uncertain.
    for sql, seq, intact in (
        ("DELETE FROM takebacks", 5, [1, 2, 3, 4]),
        ("UPDATE games SET status = 'abandoned'", 4, [1, 2, 3]),
        ("DELETE FROM events WHERE seq = 3", 3, [1, 2]),
    ):
        damaged = tmp_path / "damaged.sqlite3"
        shutil.copyfile(path, damaged)
        conn = sqlite3.connect(damaged, isolation_level=None)
        for table in ("takebacks", "events"):
            conn.execute(f"DROP TRIGGER {table}_kept")
        conn.execute(sql)
        conn.close()
        with Store.open(damaged, readonly=True) as store:
            check = verify_game(store, 1)
            assert check.damage is not None and check.damage.seq == seq, sql
            assert [s for s, _, _ in check.actions] == intact, sql


def test_a_schema_4_store_gains_its_chain(snapshots: dict[str, Any], tmp_path: Path) -> None:
    """An older store: the chain is computed for the rows it holds, and they read as before."""
    path = _copy(snapshots["closed"], tmp_path / "case")
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER actions_fixed")
    conn.execute("UPDATE actions SET hash = ''")
    conn.execute("UPDATE games SET head = ''")
    conn.execute("PRAGMA user_version = 4")
    conn.close()
    # (The columns stay, so only the migration's computing is exercised here; the columns'
    # creation is test_store.py's schema 3 test.)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("DROP TRIGGER games_fixed")  # schema 6's names chain_id
    for column in (
        "actions DROP COLUMN hash",
        "games DROP COLUMN head",
        "games DROP COLUMN chain_id",
    ):
        conn.execute(f"ALTER TABLE {column}")
    conn.execute(store_module._ACTIONS_FIXED)
    (games_fixed,) = (s for s in store_module._SCHEMA if "TRIGGER games_fixed" in s)
    conn.execute(games_fixed)
    conn.close()
    with pytest.raises(StoreError, match="schema 4"):
        Store.open(path, readonly=True)  # a read-only open cannot upgrade it
    Store.open(path).close()
    assert truth_of(path) == snapshots["truth"]


# -- a read-only store ------------------------------------------------------------------
#
# These tests run as root, and root is not stopped by file permissions: as root SQLite
# writes a 0o444 file in a 0o555 directory without complaint (and makes its -wal and -shm
# there). So besides the chmod'ed store (which must read, and be left byte for byte as it
# was), the read-only path is checked directly: a store opened read-only refuses writes,
# and the fallback for a directory where the -shm cannot be made is run on an immutable
# copy by making the plain read-only open fail as it fails for anyone but root.


@pytest.fixture()
def readonly_store(snapshots: dict[str, Any], data_dir: Path) -> Iterator[Path]:
    path = _copy(snapshots["closed"], data_dir)
    path.chmod(0o444)
    data_dir.chmod(0o555)
    try:
        yield path
    finally:
        data_dir.chmod(0o755)
        path.chmod(0o644)


def test_reading_commands_on_a_read_only_store(
    readonly_store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = readonly_store.read_bytes()
    assert stat.S_IMODE(readonly_store.parent.stat().st_mode) == 0o555
    out = tmp_path / "game-2.jsonl"
    for argv in (
        ["games", "list"],
        ["games", "list", "--json"],
        ["games", "show", "2"],
        ["games", "export", "2", "--out", str(out)],
        ["games", "verify"],
    ):
        assert main(argv) == 0, argv
    assert "game 2: ok (9 actions)" in capsys.readouterr().out
    assert readonly_store.read_bytes() == before
    assert len(out.read_text(encoding="utf-8").splitlines()) == 1 + len(MEMWARS_SCRIPT)


def test_a_store_opened_read_only_writes_nothing(readonly_store: Path) -> None:
    with Store.open(readonly_store, readonly=True) as store:
        with pytest.raises(StoreError, match="readonly"):
            store.set_status(3, "abandoned")
        with pytest.raises(StoreError, match="readonly"):
            store.create_game(store.header(1))
        assert [g.status for g in store.games()] == ["finished", "playing", "playing"]


def test_the_immutable_fallback(
    snapshots: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _copy(snapshots["closed"], tmp_path / "case")
    for suffix in ("-wal", "-shm"):  # left by earlier readers, as SQLite's readers do
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    real = sqlite3.connect
    opened: list[str] = []

    def connect(database: str, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        opened.append(database)
        if "immutable=1" not in database:
            # What a reader who is not root meets in a read-only directory with no -shm.
            raise sqlite3.OperationalError("unable to open database file")
        connection: sqlite3.Connection = real(database, *args, **kwargs)
        return connection

    monkeypatch.setattr(sqlite3, "connect", connect)
    with Store.open(path, readonly=True) as store:
        assert verify_game(store, 2).ok
    assert [name.rpartition("?")[2] for name in opened] == ["mode=ro", "mode=ro&immutable=1"]
    assert not Path(f"{path}-wal").exists() and not Path(f"{path}-shm").exists()
    # With a -wal beside it the file is not read as immutable: its last commits may be there.
    Path(f"{path}-wal").write_bytes(b"\0" * 32)
    with pytest.raises(StoreError, match="unable to open"):
        Store.open(path, readonly=True)
