"""companion/record.schema.json: a hand-written MemWars record passes it line by line, bad
lines fail it, and the schema lists exactly the actions, setup keys and house rules the code
knows, so that it cannot drift from companion/games/memwars/."""

from __future__ import annotations

import dataclasses
import io
import json
from importlib import resources
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from companion.games import find_engine
from companion.games.memwars.actions import ACTIONS
from companion.games.memwars.rules import HOUSE_RULES
from companion.record import read_record, replay

JSON = dict[str, Any]

SCHEMA: JSON = json.loads(
    resources.files("companion").joinpath("record.schema.json").read_text(encoding="utf-8")
)
VALIDATOR = Draft202012Validator(SCHEMA)

SETUP: JSON = {
    "sides": [{"name": "Ada"}, {"name": "Bo"}],
    "seed": 1,
    "quadrants": [1],
    "first_player": 0,
    "north": "top",
}

# Ada claims place 1 unchallenged; Bo claims place 2, Ada challenges and is proved right.
RECORD = "\n".join(
    json.dumps(line)
    for line in [
        {
            "record": "tabletop-companion/game-record",
            "version": 1,
            "game": "memwars",
            "started": "2026-11-22T10:00:00Z",
            "deck": {
                "id": "mythologies-of-earth",
                "hash": "sha256:" + "0" * 64,
                "title": "Mythologies of Earth",
            },
            "setup": SETUP,
        },
        {"seq": 1, "t": 0.0, "action": {"type": "claim", "side": 0, "place": 1}},
        {"seq": 2, "t": 4.5, "action": {"type": "decline_challenge", "side": 1}},
        {"seq": 3, "t": 9.25, "action": {"type": "claim", "side": 1, "place": 2}},
        {"seq": 4, "t": 12, "action": {"type": "challenge", "side": 0}},
        {"seq": 5, "t": 15.0, "action": {"type": "contest", "side": 1}},
        {"seq": 6, "t": 17.0, "action": {"type": "maintain", "side": 0}},
        {
            "seq": 7,
            "t": 30.0,
            "action": {"type": "judge", "claimant_correct": False, "challenger_correct": True},
        },
    ]
)

ACTION_LINE: JSON = {"seq": 1, "t": 0.0, "action": {"type": "claim", "side": 0, "place": 1}}


def _errors(line: Any) -> list[str]:
    return [error.message for error in VALIDATOR.iter_errors(line)]


def _resolve(node: JSON) -> JSON:
    """Follows a local "$ref" such as "#/$defs/memwars.side"."""
    while "$ref" in node:
        ref = node["$ref"]
        assert isinstance(ref, str) and ref.startswith("#/$defs/"), ref
        node = SCHEMA["$defs"][ref.removeprefix("#/$defs/")]
    return node


def _with(base: JSON, **changes: Any) -> JSON:
    out = json.loads(json.dumps(base))
    assert isinstance(out, dict)
    out.update(changes)
    return out


def test_the_schema_is_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(SCHEMA)


def test_every_line_of_the_hand_written_record_is_valid() -> None:
    for number, text in enumerate(RECORD.splitlines(), start=1):
        assert _errors(json.loads(text)) == [], f"line {number}"


def test_a_hand_written_line_may_leave_seq_out_but_not_t() -> None:
    assert _errors({"t": 0.0, "action": {"type": "claim", "side": 0, "place": 1}}) == []
    assert _errors({"action": {"type": "claim", "side": 0, "place": 1}})


def test_a_shorter_hand_written_record_is_valid_and_the_same_game() -> None:
    # No seq, and no decline for Ada's unchallenged claim: Bo's claim implies it.
    lines = [json.loads(text) for text in RECORD.splitlines()]
    short = [lines[0]] + [
        {"t": line["t"], "action": line["action"]}
        for line in lines[1:]
        if line["action"]["type"] != "decline_challenge"
    ]
    for number, line in enumerate(short, start=1):
        assert _errors(line) == [], f"line {number}"
    text = "\n".join(json.dumps(line) for line in short)
    full = replay(read_record(io.StringIO(RECORD)))
    shorter = replay(read_record(io.StringIO(text)))
    assert shorter.state == full.state
    assert [e for _, e in shorter.events] == [e for _, e in full.events]


def test_the_hand_written_record_is_also_a_legal_game() -> None:
    record = read_record(io.StringIO(RECORD), "inline.jsonl")
    result = replay(record, "inline.jsonl")
    scores = result.engine.summary(result.state)["scores"]
    assert [side["total"] for side in scores["sides"]] == [5, 0]
    assert scores["sides"][0]["captures"] == 1


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (_with(ACTION_LINE, seq=0), "seq starts at 1"),
        (_with(ACTION_LINE, seq="1"), "seq is a number"),
        ({"seq": 1, "action": {"type": "claim", "side": 0, "place": 1}}, "no t"),
        (_with(ACTION_LINE, t=-1.0), "t is never negative"),
        (_with(ACTION_LINE, note="hi"), "unknown key on the line"),
        (_with(ACTION_LINE, action={"type": "teleport", "side": 0}), "unknown action type"),
        (_with(ACTION_LINE, action={"side": 0, "place": 1}), "no action type"),
        (_with(ACTION_LINE, action={"type": "claim", "side": 0}), "a field is missing"),
        (_with(ACTION_LINE, action={"type": "claim", "side": 0, "place": 1, "x": 2}), "extra"),
        (_with(ACTION_LINE, action={"type": "claim", "side": "0", "place": 1}), "text side"),
        (_with(ACTION_LINE, action={"type": "claim", "side": True, "place": 1}), "bool side"),
        (_with(ACTION_LINE, action={"type": "claim", "side": 0, "place": 101}), "no place 101"),
        (_with(ACTION_LINE, action={"type": "orient_board", "side": 1, "north": "up"}), "edge"),
        (
            _with(
                ACTION_LINE,
                action={"type": "judge", "claimant_correct": 1, "challenger_correct": 0},
            ),
            "judge takes booleans",
        ),
    ],
)
def test_a_bad_action_line_is_rejected(line: JSON, why: str) -> None:
    assert _errors(line), why


def test_a_bad_header_is_rejected() -> None:
    header = json.loads(RECORD.splitlines()[0])
    assert _errors(header) == []
    assert _errors(_with(header, version=2))
    assert _errors(_with(header, record="something else"))
    assert _errors(_with(header, started="22/11/2026"))
    assert _errors({k: v for k, v in header.items() if k != "setup"})
    assert _errors(_with(header, setup=_with(SETUP, colour_scheme="dark")))
    assert _errors(_with(header, setup=_with(SETUP, house_rules={"mw.timer": "SUDDEN"})))
    assert _errors(_with(header, setup=_with(SETUP, house_rules={"mw.nonsense": True})))


@pytest.mark.parametrize(
    "setup",
    [
        SETUP,
        {
            "sides": [{"name": "Solo"}],
            "mode": "review",
            "path": "random",
            "depth": "roll",
            "max_depth": 5,
            "house_rules": {"mw.review.loop": "CLEAR_BOARD"},
        },
        {
            "sides": [
                {"name": "A", "mode": "basic", "depth": 2},
                {"name": "B", "members": ["B", "C"]},
            ],
            "mode": "hybrid",
            "max_depth": 3,
            "topology": {"kind": "competitive", "scoring": "multiply"},
            "multipliers": {"centre_place": 2, "centre_quincunx": 3},
            "patterns": {"quincunx": 2},
            "timer": True,
            "house_rules": {"mw.timer": "FLAG_LOSES", "mw.counters.perValueTotal": 6},
        },
        {
            "sides": [{"name": "A"}, {"name": "B"}, {"name": "C"}],
            "mode": "basic",
            "topology": {"kind": "standard"},
            "lightning_rounds": 2,
            "basic_prompts": True,
        },
    ],
)
def test_the_setup_the_engine_writes_is_valid(setup: JSON) -> None:
    engine = find_engine("memwars")
    normalised = engine.setup_of(engine.new_game(setup))
    header = _with(json.loads(RECORD.splitlines()[0]), setup=normalised)
    assert _errors(header) == []
    assert _errors(_with(header, setup=setup)) == []


_JSON_TYPES = {int: "integer", bool: "boolean", str: "string"}


def test_every_memwars_action_has_a_matching_schema_entry() -> None:
    action = SCHEMA["$defs"]["action"]
    assert set(action["properties"]["type"]["enum"]) == set(ACTIONS.by_kind)
    dispatch = {
        rule["if"]["properties"]["type"]["const"]: rule["then"]["$ref"] for rule in action["allOf"]
    }
    assert set(dispatch) == set(ACTIONS.by_kind)
    for kind, cls in ACTIONS.by_kind.items():
        assert dispatch[kind] == f"#/$defs/memwars.{kind}"
        entry = SCHEMA["$defs"][f"memwars.{kind}"]
        hints = ACTIONS.hints[kind]
        required = {
            f.name
            for f in dataclasses.fields(cls)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        }
        assert entry["additionalProperties"] is False, kind
        assert entry["properties"]["type"] == {"const": kind}
        assert set(entry["properties"]) == {"type", *hints}, kind
        assert set(entry["required"]) == {"type", *required}, kind
        for name, hint in hints.items():
            assert _resolve(entry["properties"][name])["type"] == _JSON_TYPES[hint], (kind, name)


_SAMPLES: JSON = {"side": 1, "place": 7, "value": 5, "north": "left"}


@pytest.mark.parametrize("kind", sorted(ACTIONS.by_kind))
def test_what_the_codec_writes_for_each_action_is_valid(kind: str) -> None:
    cls = ACTIONS.by_kind[kind]
    values = {
        name: _SAMPLES.get(name, True if hint is bool else 0)
        for name, hint in ACTIONS.hints[kind].items()
    }
    action = cls(**values)
    encoded = ACTIONS.to_dict(action)
    assert _errors({"seq": 3, "t": 1.5, "action": encoded}) == []
    assert ACTIONS.from_dict(encoded) == action


def test_every_house_rule_has_a_matching_schema_entry() -> None:
    setup = SCHEMA["$defs"]["memwars.setup"]
    entries = setup["properties"]["house_rules"]["properties"]
    assert list(entries) == [rule.key for rule in HOUSE_RULES]
    for rule in HOUSE_RULES:
        entry = entries[rule.key]
        assert entry["default"] == rule.default, rule.key
        if rule.alternatives:
            assert entry["enum"] == list(rule.choices), rule.key
        else:
            assert entry["type"] == "integer", rule.key
