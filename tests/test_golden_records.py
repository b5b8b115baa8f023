"""Golden game records replay to hand-checked scores (tests/golden/expected.json says why)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

GOLDEN = Path(__file__).parent / "golden"
EXPECTED: dict[str, Any] = json.loads((GOLDEN / "expected.json").read_text())


def test_every_record_has_expectations() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.jsonl")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay_gives_hand_checked_scores(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GOLDEN / f"{name}.jsonl"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    expected = EXPECTED[name]
    assert result["phase"] == "over"
    assert [s["total"] for s in result["scores"]["sides"]] == expected["totals"]
    assert result["scores"]["board"]["total"] == expected["board"]
    assert result["outcome"]["winners"] == expected["winners"]
    if "review" in expected:
        assert result["summary"]["review"] == expected["review"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay_prints_a_score_table(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GOLDEN / f"{name}.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "actions" in out


def test_the_golden_set_covers_every_mode_and_outcome() -> None:
    modes = set()
    kinds = set()
    for path in GOLDEN.glob("*.jsonl"):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        modes.add(lines[0]["setup"]["mode"])
        for line in lines[1:]:
            action = line["action"]
            kinds.add(action["type"])
            if action["type"] == "judge":
                kinds.add(f"judge:{action['claimant_correct']}:{action['challenger_correct']}")
    assert modes == {"basic", "standard", "hybrid", "study", "review"}
    for outcome in (
        "judge:True:True",
        "judge:True:False",
        "judge:False:True",
        "judge:False:False",
        "give_up",
        "forsake",
        "decline_challenge",
        "place_counter",
    ):
        assert outcome in kinds
