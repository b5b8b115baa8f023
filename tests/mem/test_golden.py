"""MeM golden records replay to hand-checked results (tests/golden/mem/expected.json)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "mem"
EXPECTED: dict[str, Any] = json.loads((GOLDEN / "expected.json").read_text())


def test_every_record_has_expectations() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.jsonl")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay_gives_hand_checked_results(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GOLDEN / f"{name}.jsonl"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    expected = EXPECTED[name]
    assert result["game"] == "mem"
    assert result["phase"] == "over"
    summary = result["summary"]
    assert summary["variant"] == expected["variant"]
    assert [s["total"] for s in result["scores"]["sides"]] == expected["totals"]
    assert result["outcome"] == {"winners": expected["winners"], "reason": expected["reason"]}
    assert result["scores"]["board_stones"] == expected["board_stones"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay_prints_the_result_in_words(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GOLDEN / f"{name}.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "actions" in out
    assert ("Winner:" in out) or ("Solitaire" in out)


def test_the_golden_set_covers_the_three_games_and_the_block_protocol() -> None:
    variants, kinds = set(), set()
    for path in GOLDEN.glob("*.jsonl"):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        variants.add(lines[0]["setup"]["game"])
        kinds |= {line["action"]["type"] for line in lines[1:]}
    assert variants == {"solitaire", "mini", "mem"}
    assert {"move", "capture", "block", "ask", "end_turn"} <= kinds
    outcomes = {(e["variant"], bool(e["winners"])) for e in EXPECTED.values()}
    assert {("solitaire", True), ("solitaire", False)} <= outcomes
    # A game with a clock, lost on time (MEM-A16).
    assert "time_expired" in kinds
    assert "time" in {e["reason"] for e in EXPECTED.values()}
