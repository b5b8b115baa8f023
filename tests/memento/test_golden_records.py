"""memento ludis golden records (tests/golden/memento/) replay to hand-checked results:
`expected.json` gives each one's figures and, in `why`, how they follow from the rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "memento"
EXPECTED: dict[str, Any] = json.loads((GOLDEN / "expected.json").read_text())


def test_every_record_has_expectations() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.jsonl")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay_gives_hand_checked_results(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GOLDEN / f"{name}.jsonl"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    expected = EXPECTED[name]
    assert result["game"] == "memento"
    summary = result["summary"]
    assert summary["phase"] == expected["phase"]
    assert summary["pool"] == expected["pool"]
    sides = [[s["figures"], s["stones"], s["markers"]] for s in summary["sides"]]
    assert sides == expected["sides"]
    if expected["winners"] is None:
        assert summary["outcome"] is None
    else:
        assert summary["outcome"] == {"winners": expected["winners"], "reason": expected["reason"]}


def test_the_golden_set_covers_every_kind_of_action_but_a_pass() -> None:
    kinds = set()
    for path in GOLDEN.glob("*.jsonl"):
        lines = [json.loads(line) for line in path.read_text().splitlines()]
        kinds |= {line["action"]["type"] for line in lines[1:]}
    assert {"place", "bring_in", "move", "turn", "split"} <= kinds
