"""Remote play's topics: under a prefix of their own, which a hall's bridge never sends to
the spectators (a move may carry a hidden value)."""

from __future__ import annotations

from pathlib import Path

import pytest
from paho.mqtt.client import topic_matches_sub

from companion.publish import wire
from companion.publish.wire import RemoteTopics, WireError

BRIDGE = Path(__file__).resolve().parents[2] / "docs" / "mosquitto" / "hall-bridge.conf"


def bridged_patterns() -> list[str]:
    lines = BRIDGE.read_text(encoding="utf-8").splitlines()
    return [line.split()[1] for line in lines if line.startswith("topic ")]


def test_no_remote_topic_is_bridged_to_the_spectators() -> None:
    topics = RemoteTopics(wire.REMOTE_PREFIX, "ada-basil")
    every = [topics.invite] + [
        topics.topic(role, kind) for role in wire.ROLES for kind in wire.REMOTE_KINDS
    ]
    patterns = bridged_patterns()
    assert patterns  # the file was read
    assert [(t, p) for t in every for p in patterns if topic_matches_sub(p, t)] == []


@pytest.mark.parametrize("prefix", ["tabletop", "tabletop/remote", "homeassistant"])
def test_the_streams_prefix_is_refused(prefix: str) -> None:
    with pytest.raises(WireError, match="must not be under"):
        RemoteTopics(prefix, "m1")


def test_topics_and_messages() -> None:
    topics = RemoteTopics("clubs-remote/paris", "m1")
    assert topics.topic("host", "move") == "clubs-remote/paris/m1/host/move"
    assert topics.of("guest") == "clubs-remote/paris/m1/guest/#"
    assert topics.parse("clubs-remote/paris/m1/guest/at") == ("guest", "at")
    assert topics.parse("clubs-remote/paris/m1/guest/other") is None
    assert topics.parse("tabletop/m1/guest/at") is None
    move = topics.message("host", "move", wire.want_payload(game_id=1, first=3))
    assert (move.qos, move.retain) == (1, False)
    at = topics.message("guest", "at", wire.at_payload(game_id=1, seq=0, chain="a", head="b"))
    assert (at.qos, at.retain) == (1, True)
    assert topics.invitation({"schema": 1}).retain
    with pytest.raises(WireError):
        topics.message("host", "status", {})
    with pytest.raises(WireError, match="match name"):
        RemoteTopics(wire.REMOTE_PREFIX, "a/b")


@pytest.mark.parametrize(
    ("kind", "payload", "problem"),
    [
        ("move", b"[]", "not a JSON object"),
        ("move", b'{"schema": 2}', "schema 2"),
        ("at", b'{"schema": 1, "game_id": 1, "seq": true, "hash": "", "head": ""}', "'seq'"),
        ("nope", b"{}", "no remote play payload"),
        ("clock", b'{"schema": 1, "game_id": 1, "reading": {}, "flag": {"seq": 3}}', "'flag'"),
        ("clock", b'{"schema": 1, "game_id": 1, "reading": {}, "flag": [3, 1]}', "'flag'"),
    ],
)
def test_bad_payloads(kind: str, payload: bytes, problem: str) -> None:
    with pytest.raises(WireError, match=problem):
        wire.read_remote(kind, payload)


def test_payloads_read_back() -> None:
    payload = wire.move_payload(game_id=3, seq=4, t=1.25, action={"type": "x"}, chain="h")
    assert wire.read_remote("move", wire.encode(payload)) == payload
    clock = wire.remote_clock_payload(game_id=3, reading={"at": 1.0}, flag=(4, 1))
    assert wire.read_remote("clock", wire.encode(clock))["flag"] == {"seq": 4, "side": 1}
    assert "flag" not in wire.remote_clock_payload(game_id=3, reading={"at": 1.0})
