"""`companion games delete` and `companion games list --json`."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.record import RecordHeader
from companion.session import Referee
from companion.store import Store
from tests.support.toy_game import scripted_game

SETUP = {"pile": 12, "seed": 3}
NAMED = RecordHeader(
    game="mem",
    setup={"game": "mini", "sides": [{"name": "Ann"}, {"name": "Bo"}], "seed": 7},
    started="2026-11-22T10:00:00Z",
)


class Terminal(io.StringIO):
    """Standard input that is a terminal: what a person would type there."""

    def isatty(self) -> bool:
        return True


def played_store(data_dir: Path) -> Path:
    """Game 1 finished, game 2 three actions in (untitled), game 3 named sides, no actions."""
    path = data_dir / "games.sqlite3"
    with Store.open(path) as store:
        finished = Referee.start(store, "toy", SETUP, {"id": "none"}, title="friday night")
        for data in scripted_game(SETUP):
            finished.submit(finished.engine.action_from_dict(data))
        halfway = Referee.start(store, "toy", SETUP, {})
        for data in scripted_game(SETUP)[:3]:
            halfway.submit(halfway.engine.action_from_dict(data))
        store.create_game(NAMED, title="Ann vs Bo, Mini-MEM, deal 7")
    return path


def ids(path: Path) -> list[int]:
    with Store.open(path) as store:
        return [game.id for game in store.games()]


def test_list_json_is_one_document_with_every_game(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played_store(data_dir)
    assert main(["games", "list", "--json"]) == 0
    finished, halfway, named = json.loads(capsys.readouterr().out)
    assert finished["id"] == 1 and finished["game"] == "toy" and finished["status"] == "finished"
    assert finished["title"] == "friday night"
    assert finished["actions"] == len(scripted_game(SETUP)) and finished["last_t"] >= 0.0
    assert finished["created"].endswith("Z") and finished["started"].endswith("Z")
    assert finished["players"] == []  # the toy game names no sides
    assert (halfway["id"], halfway["status"], halfway["actions"]) == (2, "playing", 3)
    assert named == {
        "id": 3,
        "game": "mem",
        "title": "Ann vs Bo, Mini-MEM, deal 7",
        "status": "playing",
        "created": named["created"],
        "started": "2026-11-22T10:00:00Z",
        "last_t": 0.0,
        "actions": 0,
        "players": ["Ann", "Bo"],
    }


def test_list_json_without_a_store_is_an_empty_list(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["games", "list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert not (data_dir / "games.sqlite3").exists()


def test_delete_with_yes(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = played_store(data_dir)
    assert main(["games", "delete", "2", "--yes"]) == 0
    assert capsys.readouterr().out == "deleted game 2 (toy, 3 actions)\n"
    assert ids(path) == [1, 3]
    assert main(["games", "show", "1"]) == 0  # the others still replay


@pytest.mark.parametrize("answer", ["y\n", "YES\n", " yes \n"])
def test_delete_asks_first_and_deletes_on_yes(
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    answer: str,
) -> None:
    path = played_store(data_dir)
    monkeypatch.setattr(sys, "stdin", Terminal(answer))
    assert main(["games", "delete", "1"]) == 0
    out = capsys.readouterr().out
    count = len(scripted_game(SETUP))
    assert out.startswith(f"Delete game 1 (friday night, {count} actions)? [y/N] ")
    assert out.endswith(f"deleted game 1 (friday night, {count} actions)\n")
    assert ids(path) == [2, 3]


@pytest.mark.parametrize("answer", ["\n", "n\n", "nope\n", ""])
def test_delete_keeps_the_game_on_anything_but_yes(
    data_dir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    answer: str,
) -> None:
    path = played_store(data_dir)
    monkeypatch.setattr(sys, "stdin", Terminal(answer))
    assert main(["games", "delete", "3"]) == 0
    assert capsys.readouterr().out.endswith(
        "kept game 3 (Ann vs Bo, Mini-MEM, deal 7, 0 actions)\n"
    )
    assert ids(path) == [1, 2, 3]


def test_delete_without_a_terminal_needs_yes(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = played_store(data_dir)
    monkeypatch.setattr(sys, "stdin", io.StringIO("y\n"))  # piped in, not typed
    assert main(["games", "delete", "2"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "not deleting game 2 (toy, 3 actions) without --yes" in line
    assert ids(path) == [1, 2, 3]


def test_delete_an_unknown_game(
    data_dir: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["games", "delete", "9", "--yes"]) == 2  # with no store at all
    assert not (data_dir / "games.sqlite3").exists()
    path = played_store(data_dir)
    monkeypatch.setattr(sys, "stdin", Terminal("y\n"))
    assert main(["games", "delete", "9"]) == 2
    assert main(["games", "delete", "2", "--yes"]) == 0
    assert main(["games", "delete", "2", "--yes"]) == 2  # already gone
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and all("no game" in line for line in err)
    assert ids(path) == [1, 3]


def test_a_title_with_escape_codes_is_shown_not_run(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store.open(data_dir / "games.sqlite3") as store:
        store.create_game(NAMED, title="\x1b[2Jwiped\rover")
    assert main(["games", "list"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\r" not in out and "\\x1b[2Jwiped\\rover" in out
