"""`companion tournament` from the command line: what it prints, what it writes, and bad
input in one line with exit code 2."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from companion.publish.wire import validate
from companion.table.setups import GameSetup, save_setup
from companion.tournament.event_store import EventStore
from tests.tournament.commands import refused, run


@pytest.fixture()
def event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path = str(tmp_path / "event.sqlite3")
    run(capsys, "new", path, "--name", "Spring open")
    for name in ("Ann", "Bo", "Cy", "Di", "Ed"):
        run(capsys, "add-player", path, name, "--division", "Open")
    save_setup(GameSetup("memwars", {"mode": "basic"}), "Club rapid")
    out = run(capsys, "division", path, "Open", "--setup", "Club rapid", "--rounds", "3")
    assert out.strip() == "Open: memwars, Club rapid setup, swiss, 3 rounds, 2 players per game"
    return path


def test_an_event_by_hand(event: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "pair", event)
    assert out.splitlines() == [
        "Open, round 1:",
        "  table-1: Round 1: Ann vs Cy, MemWars, Club rapid setup",
        "  table-2: Round 1: Bo vs Di, MemWars, Club rapid setup",
        "  bye: Ed",
    ]
    refused(capsys, "round 1 of Open still waits for 2 result(s): table-1, table-2", "pair", event)
    out = run(capsys, "result", event, "table-1", "30", "20")
    assert out.strip() == "table-1, round 1 of Open: Ann vs Cy; won by Ann"
    refused(
        capsys, "no game on table-1 is waiting for a result", "result", event, "table-1", "1", "2"
    )
    refused(capsys, "give 2 scores", "result", event, "table-2", "1")
    refused(capsys, "Zed is not playing Bo vs Di", "result", event, "table-2", "--winner", "Zed")
    run(capsys, "result", event, "table-2", "--draw")
    out = run(capsys, "standings", event)
    lines = out.splitlines()
    assert lines[0] == "Open: MemWars, round 1 of 3"
    assert [line.split()[1] for line in lines[2:]] == ["Ann", "Ed", "Bo", "Di", "Cy"]
    payload = json.loads(run(capsys, "standings", event, "--json", "--division", "Open"))
    validate("standings", payload)
    assert payload["setup"] == "Club rapid" and payload["standings"][0]["points"] == 1

    run(capsys, "pair", event)
    out = run(
        capsys, "export", event, "--csv", str(tmp_path / "e.csv"), "--pdf", str(tmp_path / "e.pdf")
    )
    assert (tmp_path / "e.pdf").read_bytes().startswith(b"%PDF")
    standings, results = (tmp_path / "e.csv").read_text().split("\n\n")
    rows = list(csv.DictReader(results.splitlines()))
    assert [(r["round"], r["board"], r["players"], r["source"]) for r in rows] == [
        ("1", "table-1", "Ann vs Cy", "hand"),
        ("1", "table-2", "Bo vs Di", "hand"),
        ("1", "", "Ed", "bye"),
        ("2", "table-1", "Ann vs Bo", "waiting"),
        ("2", "table-2", "Di vs Ed", "waiting"),
        ("2", "", "Cy", "bye"),
    ]
    leader, *_ = csv.DictReader(standings.splitlines())
    assert leader["name"] == "Ann"


def test_pods_of_three(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "pods.sqlite3")
    run(capsys, "new", path, "--name", "Pods", "--boards", "north,south")
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"):
        run(capsys, "add-player", path, name, "--division", "Trios")
    run(capsys, "division", path, "Trios", "--game", "memwars", "--sides", "3")
    out = run(capsys, "pair", path)
    assert out.splitlines() == [
        "Trios, round 1:",
        "  north: Round 1: Ann vs Bo vs Cy, MemWars",
        "  south: Round 1: Di vs Ed vs Flo, MemWars",
        "  bye: Gus",
    ]
    run(capsys, "result", path, "north", "5", "9", "7")
    with EventStore.open(path) as store:
        (first, *_) = store.event().pairings
    assert first.result is not None and first.result.outcome.winners == (1,)


def test_bad_input_is_one_line(
    event: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused(capsys, "already exists", "new", event, "--name", "Again")
    refused(capsys, "already a player called ann", "add-player", event, "ann", "--division", "Open")
    refused(capsys, "unknown game 'chess'", "division", event, "Open", "--game", "chess")
    refused(
        capsys,
        "no setup file or named setup 'Blitz'",
        "division",
        event,
        "Open",
        "--setup",
        "Blitz",
    )
    refused(
        capsys,
        "division name 'a/b' cannot be an MQTT topic level",
        "add-player",
        event,
        "Zed",
        "--division",
        "a/b",
    )
    refused(
        capsys,
        "a round robin is for 2-side games",
        "division",
        event,
        "Open",
        "--system",
        "round-robin",
        "--sides",
        "3",
    )
    refused(capsys, "no division 'Juniors'", "standings", event, "--division", "Juniors")
    refused(capsys, "say what to write", "export", event)
    refused(capsys, "the hub needs the broker the tables publish to", "run", event)
    refused(capsys, "cannot write", "export", event, "--csv", str(tmp_path / "no" / "e.csv"))
    run(capsys, "division", event, "Later")
    refused(capsys, "division Later has no game yet", "pair", event, "--division", "Later")
    run(capsys, "pair", event)
    refused(capsys, "keeps its settings", "division", event, "Open", "--rounds", "5")
