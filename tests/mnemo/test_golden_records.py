"""MnemoGame golden records (tests/golden/mnemo/) replay to hand-checked results:
`expected.json` gives each one's totals and winners and, in `why`, how they follow from the
rules. Together the records roll every Number Codex entry and score by every scoring rule."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "mnemo"
EXPECTED: dict[str, Any] = json.loads((GOLDEN / "expected.json").read_text())


def _replay(name: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["replay", str(GOLDEN / f"{name}.jsonl"), "--json"]) == 0
    result: dict[str, Any] = json.loads(capsys.readouterr().out)
    return result


def test_every_record_has_expectations() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.jsonl")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay_gives_hand_checked_results(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    result = _replay(name, capsys)
    expected = EXPECTED[name]
    assert result["game"] == "mnemo"
    assert result["phase"] == "over"
    assert [s["total"] for s in result["scores"]["sides"]] == expected["totals"]
    assert result["outcome"]["winners"] == expected["winners"]
    events = [e["event"] for e in result["events"]]
    faces = [e["face"] for e in events if e["type"] == "rolled"]
    assert faces == expected["faces"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay_prints_the_result_in_words(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GOLDEN / f"{name}.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "actions" in out and "Winner:" in out


def test_the_golden_set_rolls_every_codex_entry_and_scores_every_rule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    faces: set[int] = set()
    rules: set[str] = set()
    for name in EXPECTED:
        events = [e["event"] for e in _replay(name, capsys)["events"]]
        faces |= {e["face"] for e in events if e["type"] == "rolled"}
        rules |= {e["rule"] for e in events if e["type"] == "scored"}
    assert faces == set(range(12))
    assert {f"MN-SC{n}" for n in range(1, 8)} <= rules
    assert {f"MN-NC{n}" for n in (0, 1, 2, 3, 5, 6, 7, 8, 9)} <= rules
