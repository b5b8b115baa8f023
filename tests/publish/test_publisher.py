"""The publisher against a real mosquitto: retained state, Last Will, TLS and passwords,
a full offline queue, and publish() that never waits for the broker."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.config import BrokerConfig
from companion.publish import wire
from companion.publish.mosquitto import Mosquitto, find_mosquitto, free_port
from companion.publish.publisher import Publisher, PublisherError, parse_url
from tests.publish.conftest import Collector, MosquittoSub, network_calls
from tests.publish.gate import Gate

ROOT = Path(__file__).resolve().parents[2]
BOARD = "table-1"

pytestmark = pytest.mark.skipif(find_mosquitto() is None, reason="mosquitto is not installed")


def state(seq: int, board: str = BOARD) -> dict[str, object]:
    return wire.state_payload(
        board=board,
        t=float(seq),
        game="toy",
        game_id=1,
        title="",
        seq=seq,
        names=["Ada", "Bo"],
        view={"pile": 20 - seq},
        clock=None,
        last=None,
    )


def event(seq: int) -> dict[str, object]:
    return wire.event_payload(
        board=BOARD, t=float(seq), seq=seq, event={"type": "took", "n": seq}, text=""
    )


@pytest.fixture()
def publishers() -> Iterator[Callable[..., Publisher]]:
    made: list[Publisher] = []

    def make(url: str, **options: Any) -> Publisher:
        publisher = Publisher(url, board_id=BOARD, **options)
        made.append(publisher)
        return publisher

    yield make
    for publisher in made:
        publisher.close(timeout=1)


CHILD = """
import sys, time
from companion.publish import wire
from companion.publish.publisher import Publisher

publisher = Publisher(sys.argv[1], board_id="table-1")
payload = wire.state_payload(board="table-1", t=1.0, game="toy", game_id=1, title="child",
    seq=1, names=[], view={"pile": 9}, clock=None, last=None)
publisher.publish(publisher.topics.message("state", payload))
assert publisher.wait_idle(10), publisher.stats()
print("ready", flush=True)
time.sleep(120)
"""


def test_mosquitto_sub_sees_the_retained_state_and_the_last_will(broker: Mosquitto) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, broker.url],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    sub: MosquittoSub | None = None
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "ready"
        # Subscribed after the fact: only retained messages can reach it.
        sub = MosquittoSub(broker.port, "tabletop/#")
        line = sub.wait_for(lambda line: line.startswith("tabletop/table-1/state "))
        assert line is not None
        payload = json.loads(line.split(" ", 1)[1])
        wire.validate("state", payload)
        assert payload["title"] == "child" and payload["seq"] == 1
        assert sub.wait_for(lambda line: line == "tabletop/table-1/status online")
        child.send_signal(signal.SIGKILL)
        child.wait(5)
        assert sub.wait_for(lambda line: line == "tabletop/table-1/status offline", timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait(5)
        if child.stdout is not None:
            child.stdout.close()
        if sub is not None:
            sub.close()


def test_close_says_offline_itself(
    broker: Mosquitto,
    publishers: Callable[..., Publisher],
    collector_factory: Callable[..., Collector],
) -> None:
    collector = collector_factory(broker.port, topic="tabletop/#")
    publisher = publishers(broker.url)
    publisher.publish(publisher.topics.message("state", state(1)))
    assert publisher.wait_idle(10)
    publisher.close()
    assert collector.wait_for(
        lambda ms: [m.payload for m in ms if m.topic.endswith("status")][-1:] == [b"offline"]
    )
    assert [m.payload for m in collector.on("/status")] == [b"online", b"offline"]
    publisher.publish(publisher.topics.message("state", state(2)))  # after close: ignored
    publisher.close()  # twice is fine


def test_tls_with_a_password(
    publishers: Callable[..., Publisher], collector_factory: Callable[..., Collector]
) -> None:
    with Mosquitto(tls=True, password=("board", "s3cret")) as broker:
        assert broker.tls_port is not None and broker.ca_file is not None
        collector = collector_factory(broker.port, username="board", password="s3cret")
        config = BrokerConfig(
            url=f"mqtts://127.0.0.1:{broker.tls_port}",
            username="board",
            password="s3cret",
            ca_file=str(broker.ca_file),
        )
        publisher = Publisher.from_config(config, BOARD)
        try:
            publisher.publish(publisher.topics.message("state", state(1)))
            assert publisher.wait_idle(10), publisher.problem
            assert collector.wait_for(lambda ms: any(m.topic.endswith("/state") for m in ms))
            wire.validate("state", json.loads(collector.on("/state")[0].payload))
        finally:
            publisher.close()


def test_a_wrong_password_is_one_clear_line(
    publishers: Callable[..., Publisher], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="companion.publish")
    with Mosquitto(tls=True, password=("board", "s3cret")) as broker:
        publisher = publishers(
            f"mqtts://127.0.0.1:{broker.tls_port}",
            username="board",
            password="wrong",
            ca_file=str(broker.ca_file),
        )
        publisher.publish(publisher.topics.message("state", state(1)))  # queued, no error
        deadline = time.monotonic() + 10
        while publisher.problem is None and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.5)  # paho retries; the line is not repeated
        assert not publisher.connected
        problem = publisher.problem
        assert problem is not None
        assert "refused the connection: Not authorized" in problem
        assert "check [broker] username and password" in problem
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert [r.getMessage() for r in warnings] == [problem]
        assert not any(r.exc_info for r in caplog.records)


def test_an_untrusted_certificate_is_named(
    publishers: Callable[..., Publisher], caplog: pytest.LogCaptureFixture
) -> None:
    with Mosquitto(tls=True) as broker:
        publisher = publishers(f"mqtts://127.0.0.1:{broker.tls_port}")  # system CAs only
        deadline = time.monotonic() + 10
        while publisher.problem is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert publisher.problem is not None
        assert "certificate is not trusted" in publisher.problem
        assert "ca_file" in publisher.problem
        assert not any(r.exc_info for r in caplog.records)


def test_nobody_listening_is_named(publishers: Callable[..., Publisher]) -> None:
    publisher = publishers(f"mqtt://127.0.0.1:{free_port()}")
    deadline = time.monotonic() + 10
    while publisher.problem is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert publisher.problem is not None and "Connection refused" in publisher.problem


def test_websockets_with_a_password(
    publishers: Callable[..., Publisher], collector_factory: Callable[..., Collector]
) -> None:
    with Mosquitto(websockets=True, password=("board", "pw")) as broker:
        collector = collector_factory(broker.port, username="board", password="pw")
        publisher = publishers(broker.ws_url, username="board", password="pw")
        publisher.publish(publisher.topics.message("event", event(1)))
        assert publisher.wait_idle(10), publisher.problem
        assert collector.wait_for(lambda ms: any(m.topic.endswith("/event") for m in ms))


def test_publish_returns_at_once_while_the_broker_is_down(
    broker: Mosquitto, publishers: Callable[..., Publisher]
) -> None:
    broker.stop()
    # Neither making the publisher (it connects later, on its own thread) nor publishing
    # touches the network on the caller's thread: nothing there can wait on the broker.
    with network_calls(broker.port) as made:
        publisher = publishers(broker.url)
    with network_calls(broker.port) as publishing:
        for seq in range(1, 2001):
            message = publisher.topics.message("event" if seq % 10 else "state", event(seq))
            publisher.publish(message)
    assert made == [], made
    assert publishing == [], publishing
    stats = publisher.stats()
    assert not stats.connected
    assert stats.queued == 2000 - 199, stats  # states coalesce: only the latest waits


def test_a_full_queue_drops_the_oldest_events_never_the_latest_state(
    broker: Mosquitto,
    publishers: Callable[..., Publisher],
    collector_factory: Callable[..., Collector],
) -> None:
    with Gate(broker.port) as gate:
        publisher = publishers(gate.url, queue_limit=10)
        topics = publisher.topics
        publisher.publish(topics.message("state", state(1)))
        for seq in range(1, 21):
            publisher.publish(topics.message("event", event(seq)))
            if seq == 5:
                publisher.publish(topics.message("clock", {"reading": 1}))
        publisher.publish(topics.message("clock", {"reading": 2}))
        publisher.publish(topics.message("state", state(20)))
        stats = publisher.stats()
        assert (stats.queued, stats.dropped) == (10, 13)  # clock 1, events 1-12
        collector = collector_factory(broker.port)
        gate.open()
        assert publisher.wait_idle(10)
        assert collector.wait_for(lambda ms: len(ms) >= 11)
        got = [(m.topic.rsplit("/", 1)[1], m.payload) for m in collector.messages]
        assert got[0] == ("status", b"online")
        assert got[1] == ("state", wire.encode(state(20)))
        assert [json.loads(p)["seq"] for kind, p in got if kind == "event"] == list(range(13, 21))
        assert [json.loads(p) for kind, p in got if kind == "clock"] == [{"reading": 2}]
        assert len(got) == 11


def test_on_reconnection_status_and_retained_state_come_first(
    broker: Mosquitto,
    publishers: Callable[..., Publisher],
    collector_factory: Callable[..., Collector],
) -> None:
    with Gate(broker.port) as gate:
        gate.open()
        publisher = publishers(gate.url)
        topics = publisher.topics
        publisher.publish(topics.message("state", state(1)))
        assert publisher.wait_idle(10)
        gate.shut()
        deadline = time.monotonic() + 5
        while publisher.connected and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not publisher.connected
        for seq in range(2, 5):
            publisher.publish(topics.message("event", event(seq)))
        collector = collector_factory(broker.port)
        assert collector.wait_for(lambda ms: len(ms) == 2)  # the retained status and state
        gate.open()
        assert publisher.wait_idle(10)
        assert collector.wait_for(lambda ms: len(ms) == 7)
        after = [(m.topic.rsplit("/", 1)[1], m.payload) for m in collector.messages[2:]]
        assert after[:2] == [("status", b"online"), ("state", wire.encode(state(1)))]
        assert [kind for kind, _ in after[2:]] == ["event"] * 3
        assert publisher.stats().connections == 2


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("", "no broker URL"),
        ("http://example.org", "scheme must be"),
        ("mqtt://user:pw@example.org", "not in the URL"),
        ("mqtt://example.org:port", "port is not a number"),
        ("mqtt://:1883", "names no host"),
    ],
)
def test_bad_urls(url: str, problem: str) -> None:
    with pytest.raises(PublisherError, match=problem):
        parse_url(url)


def test_urls() -> None:
    assert parse_url("mqtt://pi.local").url == "mqtt://pi.local:1883"
    assert parse_url("mqtts://pi.local").port == 8883
    ws = parse_url("ws://127.0.0.1:9001")
    assert (ws.transport, ws.path, ws.tls) == ("websockets", "/mqtt", False)
    assert parse_url("wss://h/ws").url == "wss://h:443/ws"
    assert parse_url("mqtt://[::1]:1884").url == "mqtt://[::1]:1884"


def test_tls_files_need_a_tls_url(tmp_path: Path) -> None:
    with pytest.raises(PublisherError, match="need an mqtts:// or wss:// URL"):
        Publisher("mqtt://127.0.0.1:1", board_id=BOARD, ca_file="/etc/ssl/ca.crt")
    with pytest.raises(PublisherError, match="cannot use the broker's TLS files"):
        Publisher("mqtts://127.0.0.1:1", board_id=BOARD, ca_file=str(tmp_path / "missing.crt"))


def test_a_bad_board_id_is_refused() -> None:
    with pytest.raises(wire.WireError, match="board id"):
        Publisher("mqtt://127.0.0.1:1", board_id="table/1")
