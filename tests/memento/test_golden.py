"""memento ludis golden records replay to their recorded results.

A record (tests/memento/golden/*.jsonl) is the setup, one action a line in the engine's
action codec, and the summary of the final state. Regenerate (after a deliberate rule
change, checking the difference) with `python -m tests.memento.test_golden`.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.games.contract import Action
from companion.games.memento.opponent import Opponent
from companion.games.memento.players import random_action

from .helpers import ENGINE

GOLDEN = Path(__file__).resolve().parent / "golden"
RECORDS: dict[str, tuple[dict[str, Any], int]] = {
    # name: (setup, actions at most); the first player is the opponent, the rest random.
    "two-players-default": ({"sides": [{"name": "Ada"}, {"name": "Bo"}], "seed": 7}, 200),
    "three-players-shared-flip": (
        {
            "sides": [{"name": "Ada"}, {"name": "Bo"}, {"name": "Cy"}],
            "seed": 11,
            "house_rules": {
                "ml.geometry": "SHARED",
                "ml.turn.kind": "FLIP",
                "ml.wrapCost": "FREE",
                "ml.double.cornerStop": "BEFORE_BEND",
            },
        },
        60,
    ),
}


def _record(setup: dict[str, Any], limit: int) -> list[dict[str, Any]]:
    state = ENGINE.new_game(setup)
    rng = random.Random(setup["seed"])
    opponent = Opponent(seed=setup["seed"])
    lines: list[dict[str, Any]] = [{"setup": ENGINE.setup_of(state)}]
    for _ in range(limit):
        if ENGINE.is_over(state):
            break
        action: Action = opponent.choose(state) if state.turn == 0 else random_action(state, rng)
        lines.append({"action": ENGINE.action_to_dict(action)})
        state, _ = ENGINE.apply(state, action)
    lines.append({"summary": ENGINE.summary(state)})
    return lines


def write_golden() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (setup, limit) in RECORDS.items():
        text = "".join(json.dumps(line) + "\n" for line in _record(setup, limit))
        (GOLDEN / f"{name}.jsonl").write_text(text)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_a_record_replays_to_its_summary(name: str) -> None:
    lines = [json.loads(t) for t in (GOLDEN / f"{name}.jsonl").read_text().splitlines()]
    state = ENGINE.new_game(lines[0]["setup"])
    for line in lines[1:-1]:
        state, _ = ENGINE.apply(state, ENGINE.action_from_dict(line["action"]))
    assert ENGINE.summary(state) == lines[-1]["summary"]


def test_the_records_cover_a_finished_game_and_the_alternatives() -> None:
    summaries = [
        json.loads((GOLDEN / f"{name}.jsonl").read_text().splitlines()[-1])["summary"]
        for name in sorted(RECORDS)
    ]
    assert any(s["phase"] == "over" for s in summaries)


if __name__ == "__main__":
    write_golden()
