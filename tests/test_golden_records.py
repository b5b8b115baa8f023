"""Golden game records replay to hand-checked scores (tests/golden/expected.json says why)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

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
    # What the options change besides the score, where a record's expectations say.
    events = [e["event"] for e in result["events"]]
    if "reason" in expected:
        assert result["outcome"]["reason"] == expected["reason"]
    if "depth" in expected:
        assert result["state"]["depth"] == expected["depth"]
    if "depths" in expected:
        maintained = [e for e in events if e["type"] == "challenge_maintained"]
        depths = [[e["claimant_depth"], e["challenger_depth"]] for e in maintained]
        assert depths == expected["depths"]
    if "first_player" in expected:
        started = [e for e in events if e["type"] == "play_started"]
        assert [e["first"] for e in started] == [expected["first_player"]]
    if "quadrants_won" in expected:
        won = [s["quadrants_won"] for s in result["scores"]["sides"]]
        assert won == expected["quadrants_won"]
    if "lightning_rounds" in expected:
        assert result["state"]["lightning_rounds"] == expected["lightning_rounds"]
    if "flagged" in expected:
        assert [c["flagged"] for c in result["clock"]] == expected["flagged"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_line_matches_the_schema(name: str) -> None:
    schema = json.loads((Path(__file__).parents[1] / "companion/record.schema.json").read_text())
    validator = Draft202012Validator(schema)
    for number, text in enumerate((GOLDEN / f"{name}.jsonl").read_text().splitlines(), start=1):
        errors = [e.message for e in validator.iter_errors(json.loads(text))]
        assert not errors, f"{name}.jsonl:{number}: {errors}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_replay_prints_a_score_table(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GOLDEN / f"{name}.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "actions" in out


def test_the_golden_set_covers_every_mode_and_outcome() -> None:
    modes = set()
    kinds = set()
    for path in GOLDEN.glob("*.jsonl"):
        header, actions = _record(path.stem)
        modes.add(header["setup"]["mode"])
        for action in actions:
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


def _record(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A golden record's header and its actions (clock lines left out)."""
    lines = [json.loads(line) for line in (GOLDEN / f"{name}.jsonl").read_text().splitlines()]
    return lines[0], [line["action"] for line in lines[1:] if "action" in line]


Check = Callable[[dict[str, Any], list[dict[str, Any]]], bool]


def _timed(rule: str) -> Check:
    """A timed game under `rule` (mw.timer), one control per side, in which time ran out."""

    def check(header: dict[str, Any], actions: list[dict[str, Any]]) -> bool:
        setup = header["setup"]
        return (
            setup["timer"] is True
            and setup["house_rules"].get("mw.timer", "PER_MOVE") == rule
            and len(header["clock"]["controls"]) == len(setup["sides"])
            and len(set(header["clock"]["controls"])) > 1
            and any(a["type"] == "time_expired" for a in actions)
        )

    return check


# Each option of a MemWars setup, the golden records that play it, and what makes a record
# play it. A record that stops playing its option fails here, so the coverage cannot rot.
OPTIONS: dict[str, tuple[tuple[str, ...], Check]] = {
    "depth rolled on the D8 (MW-S8)": (
        ("setup-path-counters-multipliers",),
        lambda h, a: h["setup"]["depth"] == "roll" and any(x["type"] == "roll_depth" for x in a),
    ),
    "a side's handicap depth, one deeper, on a 5-level deck (MW-G3)": (
        ("handicap-depth-five-levels",),
        lambda h, a: (
            h["setup"]["max_depth"] == 5
            and h["setup"]["depth"] in (4, 5)
            and any(s["depth"] == h["setup"]["depth"] + 1 for s in h["setup"]["sides"])
        ),
    ),
    "quadrants in play that are not the first N": (
        (
            "review-place-and-facts",
            "study-backward",
            "south-west-quadrant-second-side-first",
        ),
        lambda h, a: h["setup"]["quadrants"] != list(range(1, len(h["setup"]["quadrants"]) + 1)),
    ),
    "centre places x2, centre quincunx x1": (
        ("basic-lightning-standard-topology",),
        lambda h, a: h["setup"]["multipliers"] == {"centre_place": 2, "centre_quincunx": 1},
    ),
    "centre places x1, centre quincunx x3": (
        ("centre-quincunx-triple",),
        lambda h, a: h["setup"]["multipliers"] == {"centre_place": 1, "centre_quincunx": 3},
    ),
    "centre places x2 and centre quincunx x3 together": (
        ("setup-path-counters-multipliers",),
        lambda h, a: h["setup"]["multipliers"] == {"centre_place": 2, "centre_quincunx": 3},
    ),
    "Basic lightning rounds until the pile is empty": (
        ("basic-lightning-standard-topology",),
        lambda h, a: h["setup"]["mode"] == "basic" and h["setup"]["lightning_rounds"] is None,
    ),
    "Basic with a set number of lightning rounds": (
        ("basic-three-lightning-rounds",),
        lambda h, a: h["setup"]["mode"] == "basic" and (h["setup"]["lightning_rounds"] or 0) > 0,
    ),
    "Basic with no lightning rounds": (
        ("basic-no-lightning-rounds",),
        lambda h, a: h["setup"]["mode"] == "basic" and h["setup"]["lightning_rounds"] == 0,
    ),
    "a team of players as one side (MW-S12)": (
        ("team-plays-one-side",),
        lambda h, a: any(len(s["members"]) > 1 for s in h["setup"]["sides"]),
    ),
    "time runs out under mw.timer = PER_MOVE": (("timer-per-move",), _timed("PER_MOVE")),
    "time runs out under mw.timer = FLAG_LOSES": (("timer-flag-loses",), _timed("FLAG_LOSES")),
    "the first player agreed as side 1": (
        ("south-west-quadrant-second-side-first",),
        lambda h, a: (
            h["setup"]["first_player"] == 1 and not any(x["type"] == "roll_for_first" for x in a)
        ),
    ),
    "a quincunx pattern bonus": (
        ("patterns-two-quadrants",),
        lambda h, a: h["setup"]["patterns"]["quincunx"] > 0,
    ),
}


@pytest.mark.parametrize("option", sorted(OPTIONS))
def test_the_golden_set_plays_every_option(option: str) -> None:
    names, plays = OPTIONS[option]
    assert names
    for name in names:
        assert name in EXPECTED, f"{name}: no such golden record"
        header, actions = _record(name)
        assert plays(header, actions), f"{name} does not play {option}"
