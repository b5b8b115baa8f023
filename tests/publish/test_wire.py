"""The wire format: topics, payloads, schemas, and the [broker] configuration."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from companion.clock.display import ClockDisplay, PlayerDisplay
from companion.config import BrokerConfig, parse_config
from companion.errors import UserError
from companion.publish import wire
from companion.publish.wire import Topics, WireError

ROOT = Path(__file__).resolve().parents[2]


def test_topics_of_a_board() -> None:
    topics = Topics("tabletop", "table-1")
    assert [topics.state, topics.event, topics.clock, topics.alert, topics.status] == [
        "tabletop/table-1/state",
        "tabletop/table-1/event",
        "tabletop/table-1/clock",
        "tabletop/table-1/alert",
        "tabletop/table-1/status",
    ]
    assert topics.everything == "tabletop/table-1/#"
    assert Topics("clubs/paris", "t2").state == "clubs/paris/t2/state"


def test_qos_and_retain_per_kind() -> None:
    topics = Topics("tabletop", "table-1")
    assert {
        kind: (m.qos, m.retain)
        for kind, m in (
            ("state", topics.message("state", {})),
            ("event", topics.message("event", {})),
            ("clock", topics.message("clock", {})),
            ("alert", topics.message("alert", {})),
            ("status", topics.message("status", "online")),
        )
    } == {
        "state": (1, True),
        "event": (1, False),
        "clock": (0, False),
        "alert": (1, False),
        "status": (1, True),
    }
    assert topics.message("status", "offline").payload == b"offline"


@pytest.mark.parametrize("board", ["", "a/b", "a+", "#", "x\x00"])
def test_a_board_id_must_be_one_topic_level(board: str) -> None:
    with pytest.raises(WireError, match="board id"):
        Topics("tabletop", board)


@pytest.mark.parametrize("prefix", ["", "/tabletop", "tabletop/", "a//b", "a/+/b", "#"])
def test_a_prefix_has_no_wildcards_or_empty_levels(prefix: str) -> None:
    with pytest.raises(WireError, match="prefix"):
        Topics(prefix, "table-1")


def test_a_status_is_online_or_offline() -> None:
    with pytest.raises(WireError):
        Topics("tabletop", "t").message("status", "maybe")


def test_the_payload_is_compact_utf8_json() -> None:
    data = wire.encode({"names": ["Ægir", "Bo"], "t": 1.5})
    assert data == '{"names":["Ægir","Bo"],"t":1.5}'.encode()
    with pytest.raises(ValueError):
        wire.encode({"t": float("nan")})


def display() -> ClockDisplay:
    return ClockDisplay(
        players=(
            PlayerDisplay(297_400_000_000, "4:57", True, False, False, 3),
            PlayerDisplay(9_340_000_000, "9.3", False, False, True, 2, "2 x 0:30"),
        ),
        running=0,
        paused=False,
    )


def test_a_clock_reading() -> None:
    reading = wire.clock_reading(display(), 12.3456)
    assert reading == {
        "at": 12.346,
        "running": 0,
        "paused": False,
        "players": [
            {
                "remaining_ms": 297_400,
                "text": "4:57",
                "running": True,
                "flagged": False,
                "warning": False,
                "moves": 3,
                "detail": "",
                "delay_ms": 0,
            },
            {
                "remaining_ms": 9_340,
                "text": "9.3",
                "running": False,
                "flagged": False,
                "warning": True,
                "moves": 2,
                "detail": "2 x 0:30",
                "delay_ms": 0,
            },
        ],
    }
    payload = wire.clock_payload(board="table-1", reading=reading)
    assert payload["t"] == 12.346 and payload["schema"] == 1 and payload["board"] == "table-1"
    wire.validate("clock", payload)


def test_a_clock_reading_during_a_simple_delay() -> None:
    from companion.clock import model
    from companion.clock.notation import parse

    clock, _ = model.start(model.new_clock([parse("300d5")] * 2), 0, 0)
    reading = wire.clock_reading(model.display(clock, 1_250_000_000), 1.25)
    running = reading["players"][0]
    assert (running["remaining_ms"], running["delay_ms"]) == (300_000, 3_750)
    assert running["detail"] == "delay 3.7"
    assert reading["players"][1]["delay_ms"] == 0
    wire.validate("clock", wire.clock_payload(board="table-1", reading=reading))


def state(**changes: Any) -> dict[str, Any]:
    payload = wire.state_payload(
        board="table-1",
        t=61.25,
        game="memwars",
        game_id=3,
        title="Friday game",
        seq=41,
        names=["Ada", "Bo"],
        view={
            "game": "memwars",
            "viewer": "spectator",
            "phase": "play",
            "turn": 1,
            "deck": None,
            "deck_count": 12,
            "scores": {"sides": [{"total": 4}, {"total": 0}]},
            "sides": [
                {"name": "Ada", "counters_in_hand": 2, "counter_values_in_hand": None},
                {"name": "Bo", "counters_in_hand": 2, "counter_values_in_hand": None},
            ],
            "places": [
                {
                    "place": 13,
                    "card": 13,
                    "crystals": [0],
                    "holder": 0,
                    "counters": [{"owner": 1, "face_up": False, "value": None}],
                }
            ],
        },
        clock=wire.clock_reading(display(), 61.25),
        last=wire.last_event({"type": "place_claimed", "side": 0, "place": 13}, "Ada claims."),
    )
    payload.update(changes)
    return payload


def test_payloads_validate() -> None:
    wire.validate("state", state())
    wire.validate("state", state(clock=None, last_event=None, seq=0))
    wire.validate(
        "event",
        wire.event_payload(board="table-1", t=1.0, seq=1, event={"type": "turn_started"}, text=""),
    )
    wire.validate(
        "alert",
        wire.alert_payload(board="table-1", t=2.0, level="error", text="x", rule="MW-CH1"),
    )


def test_a_face_down_value_breaks_the_state_schema() -> None:
    leaky = state()
    leaky["view"]["places"][0]["counters"][0]["value"] = 5
    with pytest.raises(WireError, match="view/places/0/counters/0/value"):
        wire.validate("state", leaky)
    leaky = state()
    leaky["view"]["sides"][0]["counter_values_in_hand"] = [5, 3]
    with pytest.raises(WireError, match="counter_values_in_hand"):
        wire.validate("state", leaky)
    leaky = state()
    leaky["view"]["deck"] = [4, 8, 15]
    with pytest.raises(WireError, match="deck"):
        wire.validate("state", leaky)


def test_only_the_spectator_view_makes_a_state() -> None:
    with pytest.raises(WireError, match="spectator"):
        wire.state_payload(
            board="b",
            t=0,
            game="memwars",
            game_id=1,
            title="",
            seq=0,
            names=[],
            view={"viewer": "table"},
            clock=None,
            last=None,
        )


def test_an_alert_level_is_known() -> None:
    with pytest.raises(WireError, match="level"):
        wire.alert_payload(board="b", t=0, level="fatal", text="x")  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", (*wire.JSON_KINDS, *wire.HUB_KINDS))
def test_schemas_are_valid_draft_2020_12(kind: str) -> None:
    schema = wire.schema(kind)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_the_clock_and_event_definitions_agree_between_schemas() -> None:
    state_defs = wire.schema("state")["$defs"]
    assert state_defs["clock"] == wire.schema("clock")["$defs"]["clock"]
    assert state_defs["event"] == wire.schema("event")["$defs"]["event"]


def test_the_schemas_are_package_data() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"companion.publish" = ["schemas/*.json"]' in pyproject
    shipped = sorted(p.name for p in (ROOT / "companion/publish/schemas").glob("*.json"))
    kinds = (*wire.JSON_KINDS, *wire.HUB_KINDS)
    assert shipped == sorted(f"{kind}.schema.json" for kind in kinds)


def test_the_docs_examples_validate() -> None:
    """Every ```json block in docs/mqtt.md that follows a `<kind>.schema.json` mention is a
    valid payload of that kind."""
    text = (ROOT / "docs/mqtt.md").read_text()
    checked = 0
    for block in text.split("```json\n")[1:]:
        body = block.split("```", 1)[0]
        data = json.loads(body)
        if isinstance(data, dict) and data.get("schema") == 1:
            kind = _kind_of(data)
            wire.validate(kind, data)
            checked += 1
    assert checked >= 4


def _kind_of(data: dict[str, Any]) -> str:
    if "view" in data:
        return "state"
    if "winners" in data:
        return "result"
    if "event" in data:
        return "event"
    if "level" in data:
        return "alert"
    return "clock"


def test_the_broker_section_of_the_configuration() -> None:
    assert parse_config({}, "x").broker == BrokerConfig()
    assert BrokerConfig().prefix == "tabletop" and BrokerConfig().url == ""
    config = parse_config(
        {
            "broker": {
                "url": "mqtts://mqtt.example:8883",
                "prefix": "club",
                "username": "table-1",
                "password": "secret",
                "ca_file": "/etc/ca.crt",
                "home_assistant": True,
            }
        },
        "config.toml",
    )
    assert config.broker.url == "mqtts://mqtt.example:8883"
    assert config.broker.home_assistant is True
    assert config.to_dict()["broker"]["prefix"] == "club"
    with pytest.raises(UserError, match=r"broker\.home_assistant must be bool"):
        parse_config({"broker": {"home_assistant": "yes"}}, "config.toml")
    with pytest.raises(UserError, match=r"unknown key broker\.host"):
        parse_config({"broker": {"host": "x"}}, "config.toml")
