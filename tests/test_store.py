from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.errors import UserError
from companion.games import find_engine
from companion.record import RecordHeader, read_record, replay
from companion.session import Referee
from companion.store import (
    SCHEMA_VERSION,
    SeqConflict,
    Store,
    StoreError,
    UnknownGame,
    load_game,
)
from tests.support.toy_game import scripted_game

SETUP = {"pile": 12, "seed": 3}
HEADER = RecordHeader(game="toy", setup=SETUP, deck={"id": "none"}, started="2026-11-22T10:00:00Z")


def play(store: Store, actions: list[dict[str, Any]], game_id: int | None = None) -> int:
    """Appends `actions` with their real events; returns the game id."""
    engine = find_engine("toy")
    game_id = game_id or store.create_game(HEADER)
    state = engine.new_game(SETUP)
    for seq, data in enumerate(actions, start=1):
        state, events = engine.apply(state, engine.action_from_dict(data))
        store.append(game_id, seq, seq * 1.5, data, [engine.event_to_dict(e) for e in events])
    return game_id


def events_of(actions: list[dict[str, Any]]) -> list[tuple[int, int, str]]:
    """(seq, idx, event JSON) of the toy game's events for `actions`, as a store keeps them."""
    engine = find_engine("toy")
    state = engine.new_game(SETUP)
    rows = []
    for seq, data in enumerate(actions, start=1):
        state, events = engine.apply(state, engine.action_from_dict(data))
        rows += [(seq, idx, json.dumps(engine.event_to_dict(e))) for idx, e in enumerate(events)]
    return rows


def test_a_new_store_is_created_with_its_directory(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "games.sqlite3"
    with Store.open(path) as store:
        assert store.games() == []
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def test_connection_is_durable_and_checks_foreign_keys(game_store: Store) -> None:
    conn = game_store._connection()
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_round_trip(tmp_path: Path) -> None:
    actions = scripted_game(SETUP)
    path = tmp_path / "games.sqlite3"
    with Store.open(path) as store:
        game_id = play(store, actions)
    with Store.open(path) as store:  # a second open reads what the first committed
        assert store.header(game_id) == HEADER
        assert [(seq, action) for seq, _, action in store.actions(game_id)] == list(
            enumerate(actions, start=1)
        )
        assert [t for _, t, _ in store.actions(game_id)] == [
            1.5 * n for n in range(1, len(actions) + 1)
        ]
        (row,) = store.games()
        assert (row.id, row.game, row.status, row.actions) == (
            game_id,
            "toy",
            "playing",
            len(actions),
        )
        assert row.last_t == 1.5 * len(actions)
        assert row.created.endswith("Z")
        engine, state, seq = load_game(store, game_id)
        assert seq == len(actions)
        assert engine.is_over(state)


def test_events_are_stored_with_their_action(game_store: Store) -> None:
    actions = scripted_game(SETUP)
    game_id = play(game_store, actions)
    engine = find_engine("toy")
    state = engine.new_game(SETUP)
    expected = []
    for seq, data in enumerate(actions, start=1):
        state, events = engine.apply(state, engine.action_from_dict(data))
        expected += [(seq, idx, engine.event_to_dict(e)) for idx, e in enumerate(events)]
    assert game_store.events(game_id) == expected


def test_games_are_kept_apart(game_store: Store) -> None:
    actions = scripted_game(SETUP)
    first = play(game_store, actions[:3])
    second = play(game_store, actions[:5])
    assert [row.actions for row in game_store.games()] == [3, 5]
    assert [a for _, _, a in game_store.actions(first)] == actions[:3]
    assert load_game(game_store, second).seq == 5


@pytest.mark.parametrize("seq", [0, 1, 3, 10, -1])
def test_a_gap_or_a_double_is_refused(game_store: Store, seq: int) -> None:
    actions = scripted_game(SETUP)
    game_id = play(game_store, actions[:1])
    with pytest.raises(SeqConflict, match="must be seq 2") as caught:
        game_store.append(game_id, seq, 9.0, actions[1], [])
    assert (caught.value.expected, caught.value.got) == (2, seq)
    assert len(game_store.actions(game_id)) == 1


def test_a_replayed_append_is_refused(game_store: Store) -> None:
    actions = scripted_game(SETUP)
    game_id = play(game_store, actions[:2])
    with pytest.raises(SeqConflict):
        game_store.append(game_id, 2, 3.0, actions[1], [{"type": "took"}])
    assert len(game_store.actions(game_id)) == 2
    assert [seq for seq, _, _ in game_store.events(game_id)] == [1, 2]


def test_time_cannot_go_backwards(game_store: Store) -> None:
    game_id = game_store.create_game(HEADER)
    game_store.append(game_id, 1, 5.0, {"type": "take", "side": 0, "count": 1}, [])
    for bad in (4.9, float("nan")):
        with pytest.raises(StoreError, match="before action 1"):
            game_store.append(game_id, 2, bad, {"type": "take", "side": 1, "count": 1}, [])
    game_store.append(game_id, 2, 5.0, {"type": "take", "side": 1, "count": 1}, [])


def test_unknown_games(game_store: Store) -> None:
    for call in (
        lambda: game_store.actions(7),
        lambda: game_store.header(7),
        lambda: game_store.game(7),
        lambda: game_store.set_status(7, "finished"),
        lambda: game_store.append(7, 1, 0.0, {}, []),
        lambda: game_store.delete_game(7),
        lambda: load_game(game_store, 7),
    ):
        with pytest.raises(UnknownGame, match="no game 7"):
            call()


def test_status_changes_and_closed_games_take_no_actions(game_store: Store) -> None:
    game_id = play(game_store, scripted_game(SETUP)[:1])
    game_store.set_status(game_id, "abandoned")
    assert game_store.game(game_id).status == "abandoned"
    with pytest.raises(StoreError, match="is abandoned"):
        game_store.append(game_id, 2, 3.0, {"type": "take", "side": 1, "count": 1}, [])
    with pytest.raises(ValueError, match="status must be one of"):
        game_store.set_status(game_id, "won")  # type: ignore[arg-type]


def test_history_cannot_be_rewritten_even_by_sql(game_store: Store) -> None:
    game_id = play(game_store, scripted_game(SETUP)[:2])
    conn = game_store._connection()
    for sql in (
        "UPDATE actions SET action = '{}'",
        "DELETE FROM actions",
        "UPDATE events SET event = '{}'",
        "DELETE FROM events",
        "UPDATE games SET header = '{}'",
        "DELETE FROM games",
    ):
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(sql)
    assert len(game_store.actions(game_id)) == 2


def contents(store: Store, game_id: int) -> tuple[Any, ...]:
    """Everything the store says of a game."""
    return (
        store.game(game_id),
        store.header(game_id),
        store.actions(game_id),
        store.events(game_id),
        store.clock_inputs(game_id),
        store.taken_back(game_id),
    )


def rows_of(store: Store, game_id: int) -> dict[str, int]:
    """How many rows each table holds for a game, taken-back actions included."""
    conn = store._connection()
    tables = {"games": "id", "actions": "game_id", "events": "game_id"}
    tables |= {"clock_inputs": "game_id", "takebacks": "game_id"}
    return {
        table: conn.execute(f"SELECT COUNT(*) FROM {table} WHERE {key} = ?", (game_id,)).fetchone()[
            0
        ]
        for table, key in tables.items()
    }


def test_deleting_a_game_removes_all_of_it_and_nothing_else(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with Store.open(path) as store:
        before = play(store, scripted_game(SETUP))
        doomed = play(store, scripted_game(SETUP)[:4])
        store.append_clock(doomed, 1, 5, {"type": "press"})
        store.take_back(doomed, 4, 7.0)
        after = play(store, scripted_game(SETUP)[:2])
        store.append_clock(after, 1, 3, {"type": "press"})
        kept = {game_id: contents(store, game_id) for game_id in (before, after)}
        assert all(rows_of(store, doomed).values())

        row = store.delete_game(doomed)

        assert (row.id, row.game, row.status, row.actions) == (doomed, "toy", "playing", 3)
        assert [g.id for g in store.games()] == [before, after]
        assert set(rows_of(store, doomed).values()) == {0}
        assert {game_id: contents(store, game_id) for game_id in kept} == kept
    # The file opens again as it is, whole, and the games left go on as before.
    with Store.open(path) as store:
        conn = store._connection()
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert {game_id: contents(store, game_id) for game_id in kept} == kept
        store.append(after, 3, 9.0, scripted_game(SETUP)[2], [])
        assert load_game(store, before).seq == len(scripted_game(SETUP))
        with pytest.raises(UnknownGame, match=f"no game {doomed}"):
            store.delete_game(doomed)


def test_a_deleted_games_id_is_never_given_again(game_store: Store) -> None:
    first = game_store.create_game(HEADER)
    last = game_store.create_game(HEADER)
    game_store.delete_game(last)
    assert game_store.create_game(HEADER) == last + 1
    game_store.delete_game(first)
    assert [g.id for g in game_store.games()] == [last + 1]


def test_only_whole_games_can_be_deleted_even_by_sql(game_store: Store) -> None:
    doomed = play(game_store, scripted_game(SETUP)[:2])
    kept = play(game_store, scripted_game(SETUP)[:2])
    game_store.delete_game(doomed)
    conn = game_store._connection()
    for sql in (
        "DELETE FROM actions",
        "DELETE FROM events",
        f"DELETE FROM games WHERE id = {kept}",
        "DELETE FROM deleted_games",
        "UPDATE deleted_games SET id = 99",
    ):
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(sql)
    assert len(game_store.actions(kept)) == 2


def test_a_schema_3_file_gains_deleting_when_opened(tmp_path: Path) -> None:
    from companion import store as module

    path = tmp_path / "games.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in (*module._SCHEMA, *module._SCHEMA_2, *module._SCHEMA_3):
        conn.execute(statement)
    conn.execute(f"PRAGMA application_id = {module.APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 3")
    header = json.dumps(HEADER.to_dict())
    for title in ("first", "second"):
        conn.execute(
            "INSERT INTO games (game, header, created, title) VALUES ('toy', ?, '', ?)",
            (header, title),
        )
    actions = scripted_game(SETUP)[:3]
    conn.executemany(
        "INSERT INTO actions (game_id, seq, t, action) VALUES (?, ?, ?, ?)",
        [
            (game_id, seq, 1.0, json.dumps(data))
            for game_id in (1, 2)
            for seq, data in enumerate(actions, start=1)
        ],
    )
    conn.executemany(
        "INSERT INTO events (game_id, seq, idx, event) VALUES (?, ?, ?, ?)",
        [(game_id, seq, idx, text) for game_id in (1, 2) for seq, idx, text in events_of(actions)],
    )
    conn.close()
    with Store.open(path) as store:
        store.delete_game(1)
        assert [(g.id, g.title, g.actions) for g in store.games()] == [(2, "second", 3)]
        assert load_game(store, 2).seq == 3
        assert store.create_game(HEADER) == 3
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("DELETE FROM actions")
    conn.close()


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    text = "this is not a database, just some text that is long enough\n" * 20
    path.write_text(text)
    with pytest.raises(UserError, match="not a games store") as caught:
        Store.open(path)
    assert caught.value.where == str(path)
    assert path.read_text() == text  # left untouched


def test_someone_elses_database(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(UserError, match="not a games store"):
        Store.open(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # not switched to WAL
    conn.close()


def test_a_newer_schema(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    with pytest.raises(UserError, match="newer companion"):
        Store.open(path)


def test_a_directory_in_the_way(tmp_path: Path) -> None:
    (tmp_path / "games.sqlite3").mkdir()
    with pytest.raises(UserError, match="cannot open"):
        Store.open(tmp_path / "games.sqlite3")


def test_a_closed_store_says_so(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "games.sqlite3")
    store.close()
    store.close()  # closing twice is harmless
    with pytest.raises(StoreError, match="closed"):
        store.games()


def test_export_is_a_game_record_that_replays(game_store: Store) -> None:
    actions = scripted_game(SETUP)
    game_id = play(game_store, actions)
    out = io.StringIO()
    game_store.export(game_id, out)
    lines = out.getvalue().splitlines()
    assert len(lines) == len(actions) + 1
    record = read_record(io.StringIO(out.getvalue()))
    assert record.header == HEADER
    assert [r.t for r in record.actions] == [1.5 * n for n in range(1, len(actions) + 1)]
    _, state, _ = load_game(game_store, game_id)
    assert replay(record).state == state


def test_load_game_reports_an_action_that_no_longer_replays(game_store: Store) -> None:
    game_id = game_store.create_game(HEADER)
    game_store.append(game_id, 1, 0.0, {"type": "take", "side": 1, "count": 1}, [])
    with pytest.raises(StoreError, match="action 1 no longer replays: TOY-TURN"):
        load_game(game_store, game_id)


# -- companion games list|show|export ---------------------------------------------------


def played_store(data_dir: Path) -> Path:
    path = data_dir / "games.sqlite3"
    with Store.open(path) as store:
        finished = Referee.start(store, "toy", SETUP, {"id": "none"}, title="finished one")
        for data in scripted_game(SETUP):
            finished.submit(finished.engine.action_from_dict(data))
        halfway = Referee.start(store, "toy", SETUP, {})
        for data in scripted_game(SETUP)[:3]:
            halfway.submit(halfway.engine.action_from_dict(data))
    return path


def test_games_list_without_a_store(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "list"]) == 0
    assert "no games yet" in capsys.readouterr().out
    assert not (data_dir / "games.sqlite3").exists()  # listing created nothing


def test_games_list(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played_store(data_dir)
    assert main(["games", "list"]) == 0
    head, first, second = capsys.readouterr().out.splitlines()
    assert head.split() == ["ID", "GAME", "STATUS", "CREATED", "ACTIONS", "TITLE"]
    assert first.split()[:3] == ["1", "toy", "finished"]
    assert first.split()[4:] == [str(len(scripted_game(SETUP))), "finished", "one"]
    assert second.split()[:3] == ["2", "toy", "playing"]
    assert second.split()[4] == "3"


def test_games_show(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played_store(data_dir)
    assert main(["games", "show", "2"]) == 0
    out = capsys.readouterr().out
    assert "game:      2 (Toy Nim, toy)" in out
    assert "status:    playing" in out
    assert 'setup:     {"pile": 12, "seed": 3}' in out
    assert "actions:   3 (last at" in out
    assert "expected:  side 1: take or hide (Side 1 moves.)" in out
    assert '"over": false' in out
    assert main(["games", "show", "1"]) == 0
    out = capsys.readouterr().out
    assert "expected:  nothing: the game is over" in out
    assert '"over": true' in out


def test_games_export(data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = played_store(data_dir)
    expected = io.StringIO()
    with Store.open(path) as store:
        store.export(1, expected)
    assert main(["games", "export", "1"]) == 0
    assert capsys.readouterr().out == expected.getvalue()
    out = tmp_path / "game-1.jsonl"
    assert main(["games", "export", "1", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == expected.getvalue()
    assert replay(read_record(out.open(encoding="utf-8"))).engine.name == "toy"


@pytest.mark.parametrize(
    "argv",
    [["games", "show", "9"], ["games", "export", "9"], ["games", "export", "9", "--out", "x"]],
)
def test_games_unknown_id(
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
) -> None:
    monkeypatch.chdir(data_dir.parent)
    assert main(argv) == 2  # with no store at all
    played_store(data_dir)
    assert main(argv) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all("no game 9" in line for line in err)
    assert not Path("x").exists()


def test_games_bad_arguments(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "show", "one"]) == 2
    assert main(["games"]) == 2


def test_games_store_from_the_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    elsewhere = played_store(tmp_path / "elsewhere")
    config = tmp_path / "config.toml"
    config.write_text(f'[store]\npath = "{elsewhere.as_posix()}"\n', encoding="utf-8")
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "unused"))
    assert main(["--config", str(config), "games", "list"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_games_on_a_file_that_is_not_a_store(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir.mkdir()
    (data_dir / "games.sqlite3").write_text("not a database at all, really not\n" * 10)
    assert main(["games", "list"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "not a games store" in line
