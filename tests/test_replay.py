"""`companion replay` and the record reader: the JSON a record writer checks a game with,
and what a hand-written record may leave out."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from companion.cli import main
from companion.errors import UserError
from companion.games import find_engine
from companion.record import read_record, replay
from tests.memwars.test_properties import GAMES, SETTINGS, random_game

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


# ------------------------------------------------------------ hand-written records

HEADER = {
    "record": "tabletop-companion/game-record",
    "version": 1,
    "game": "memwars",
    "started": "2026-11-22T10:00:00Z",
    "deck": {},
    "setup": {
        "sides": [{"name": "Ada"}, {"name": "Bo"}],
        "seed": 1,
        "quadrants": [1],
        "first_player": 0,
        "north": "top",
    },
}

WINDOW_KINDS = ("challenge", "decline_challenge", "time_expired")


def _record(
    actions: list[dict[str, Any]], header: dict[str, Any] = HEADER, seq: bool = True
) -> str:
    lines = [json.dumps(header)]
    for i, action in enumerate(actions, start=1):
        line: dict[str, Any] = {"seq": i} if seq else {}
        lines.append(json.dumps({**line, "t": float(i), "action": action}))
    return "\n".join(lines) + "\n"


def _claim(side: int, place: int) -> dict[str, Any]:
    return {"type": "claim", "side": side, "place": place}


def _decline(side: int) -> dict[str, Any]:
    return {"type": "decline_challenge", "side": side}


def _without_declines(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every decline that a hand-written record may leave out: one followed by a line that
    is not a challenge, a decline or a time-out."""
    kept = []
    for i, action in enumerate(actions):
        following = actions[i + 1]["type"] if i + 1 < len(actions) else None
        if action["type"] == "decline_challenge" and following not in (None, *WINDOW_KINDS):
            continue
        kept.append(action)
    return kept


def _same_game(explicit: str, written: str) -> None:
    a = replay(read_record(io.StringIO(explicit)))
    b = replay(read_record(io.StringIO(written)))
    assert b.state == a.state
    assert [e for _, e in b.events] == [e for _, e in a.events]


def test_unchallenged_claims_need_no_written_decline() -> None:
    explicit = [_claim(0, 1), _decline(1), _claim(1, 2), _decline(0), _claim(0, 3)]
    written = [_claim(0, 1), _claim(1, 2), _claim(0, 3)]
    _same_game(_record(explicit), _record(written))
    result = replay(read_record(io.StringIO(_record(written))))
    assert [(seq, ENGINE.action_to_dict(a)) for seq, a in result.implied] == [
        (2, _decline(1)),
        (3, _decline(0)),
    ]
    # The last claim's window stays open: nothing follows it to close it.
    assert result.state.pending is not None and result.state.pending.offered_to == 1


def test_a_decline_is_implied_only_before_a_line_that_closes_the_window() -> None:
    written = [_claim(0, 1), {"type": "challenge", "side": 1}, {"type": "give_up", "side": 0}]
    result = replay(read_record(io.StringIO(_record(written))))
    assert result.implied == ()
    assert result.state.places[1].holder == 1


def test_a_barred_opponent_needs_no_decline_and_may_not_be_given_one() -> None:
    # Ada's maintained claim on 5 is right: Bo loses a turn, so Ada's claim on 6 is not
    # offered to Bo at all.
    start = [
        _claim(0, 5),
        {"type": "challenge", "side": 1},
        {"type": "contest", "side": 0},
        {"type": "maintain", "side": 1},
        {"type": "judge", "claimant_correct": True, "challenger_correct": False},
        _claim(0, 6),
    ]
    result = replay(read_record(io.StringIO(_record([*start, _claim(1, 7)]))))
    assert result.implied == () and result.state.places[7].holder == 1
    with pytest.raises(UserError, match=r":8: action 7 is illegal: MW-CH2"):
        replay(read_record(io.StringIO(_record([*start, _decline(1)]))), "game.jsonl")


def test_round_robin_declines_are_implied_for_every_side_still_offered() -> None:
    header = json.loads(json.dumps(HEADER))
    header["setup"]["sides"].append({"name": "Cy"})
    header["setup"]["house_rules"] = {"mw.challenge.offer": "ROUND_ROBIN"}
    explicit = [_claim(0, 1), _decline(1), _decline(2), _claim(1, 2)]
    for written in ([_claim(0, 1), _claim(1, 2)], [_claim(0, 1), _decline(1), _claim(1, 2)]):
        _same_game(_record(explicit, header), _record(written, header))


def test_seq_may_be_left_out_and_is_checked_where_it_is_given() -> None:
    explicit = _record([_claim(0, 1), _decline(1), _claim(1, 2)])
    _same_game(explicit, _record([_claim(0, 1), _claim(1, 2)], seq=False))
    lines = explicit.splitlines()
    mixed = [lines[0], json.loads(lines[1]), json.loads(lines[2]), json.loads(lines[3])]
    del mixed[1]["seq"]
    text = "\n".join([lines[0], *(json.dumps(line) for line in mixed[1:])])
    _same_game(explicit, text)
    mixed[2]["seq"] = 3
    bad = "\n".join([lines[0], *(json.dumps(line) for line in mixed[1:])])
    with pytest.raises(UserError, match=r"game.jsonl:3: 'seq' must be 2, got 3"):
        read_record(io.StringIO(bad), "game.jsonl")


def test_an_illegal_line_is_named_by_its_line_even_without_seq() -> None:
    text = _record([_claim(0, 1), _claim(0, 2)], seq=False).replace("\n", "\n\n", 1)
    with pytest.raises(UserError) as err:
        replay(read_record(io.StringIO(text), "game.jsonl"), "game.jsonl")
    assert "game.jsonl:4: action 2 is illegal: MW-SM1" in str(err.value)
    assert "decline_challenge" in str(err.value)  # the reader says what it supplied


@SETTINGS
@given(GAMES)
def test_a_record_with_implied_declines_replays_to_the_same_game(setup: dict[str, Any]) -> None:
    history = random_game(setup)
    actions = [ENGINE.action_to_dict(a) for _, a in history[1:]]
    header = {**HEADER, "setup": setup}
    written = _without_declines(actions)
    _same_game(_record(actions, header), _record(written, header, seq=False))
    result = replay(read_record(io.StringIO(_record(written, header))))
    assert len(result.implied) == len(actions) - len(written)
    assert result.state == history[-1][0]


def test_replay_json_says_what_the_reader_supplied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "short.jsonl"
    path.write_text(_record([_claim(0, 1), _claim(1, 2)], seq=False))
    out = _replay_json(path, capsys)
    assert out["implied"] == [{"seq": 2, "action": _decline(1)}]
    assert {"seq": 2, "event": {"type": "challenge_declined", "side": 1}} in out["events"]
    assert out["actions"] == 2
    assert _replay_json(GOLDEN / "standard-challenge-outcomes.jsonl", capsys)["implied"] == []
