"""`companion replay` and the record reader: the JSON a record writer checks a game with,
and what a hand-written record may leave out."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.games import find_engine
from companion.record import read_record, replay

GOLDEN = Path(__file__).parent / "golden"
ENGINE = find_engine("memwars")


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.toml"))


def _replay_json(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert isinstance(out, dict)
    return out


def _partial(tmp_path: Path, name: str, actions: int) -> Path:
    lines = (GOLDEN / f"{name}.jsonl").read_text().splitlines()
    path = tmp_path / f"{name}-{actions}.jsonl"
    path.write_text("\n".join(lines[: actions + 1]) + "\n")
    return path


def _folded(path: Path) -> tuple[Any, list[dict[str, Any]]]:
    """The last state and every event with its seq, folded by hand through the engine."""
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    state, opening = ENGINE.start(lines[0]["setup"])
    events = [{"seq": 0, "event": ENGINE.event_to_dict(e)} for e in opening]
    for line in lines[1:]:
        state, happened = ENGINE.apply(state, ENGINE.action_from_dict(line["action"]))
        events += [{"seq": line["seq"], "event": ENGINE.event_to_dict(e)} for e in happened]
    return state, events


def test_replay_json_carries_the_public_state_of_the_last_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A maintained challenge Ada won: Bo has lost a turn and Ada is on turn again.
    path = _partial(tmp_path, "standard-challenge-outcomes", 12)
    out = _replay_json(path, capsys)
    state, _ = _folded(path)
    public = out["state"]
    assert public == ENGINE.view(state, "spectator")
    assert public["turn"] == state.turn
    assert public["pool"] == state.pool
    for side, shown in zip(state.sides, public["sides"], strict=True):
        assert shown["supply"] == side.supply
        assert shown["challenge_pieces"] == side.challenge_pieces
        assert shown["lost_turns"] == side.lost_turns
    assert public["expected"]["actions"]


def test_replay_json_hides_what_the_spectator_may_not_see(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every counter is down, face down, and only place 1's has been taken.
    path = _partial(tmp_path, "setup-path-counters-multipliers", 12)
    out = _replay_json(path, capsys)
    text = json.dumps(out)
    counters = [c for p in out["state"]["places"] for c in p["counters"]]
    assert len(counters) == 6
    assert all((c["value"] is None) != c["face_up"] for c in counters)
    assert out["state"]["deck"] is None
    assert '"value": 5' not in text and "place_counter" not in text


@pytest.mark.parametrize(
    "name", ["standard-challenge-outcomes", "basic-lightning-standard-topology"]
)
def test_replay_json_lists_every_event_from_the_very_first(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = GOLDEN / f"{name}.jsonl"
    out = _replay_json(path, capsys)
    _, events = _folded(path)
    assert out["events"] == events
    assert [e["event"]["type"] for e in out["events"][:2]] == ["play_started", "turn_started"]
    assert out["events"][0]["seq"] == 0
    assert out["events"][-1]["event"]["type"] == "game_ended"


def test_the_replay_event_list_starts_with_the_events_of_the_new_game() -> None:
    text = (GOLDEN / "standard-challenge-outcomes.jsonl").read_text()
    result = replay(read_record(io.StringIO(text)))
    assert [(seq, event.kind) for seq, event in result.events[:2]] == [
        (0, "play_started"),
        (0, "turn_started"),
    ]
