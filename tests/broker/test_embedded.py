"""The embedded broker with real paho clients, over TCP and MQTT over WebSockets."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import pytest

from companion.commands import broker_cmd
from companion.publish import broker as broker_module
from companion.publish.broker import BrokerError, EmbeddedBroker
from tests.broker.clients import Client, Message


@pytest.fixture()
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(port=0, ws_port=0) as running:
        yield running


def test_binds_loopback_by_default_and_says_where() -> None:
    plain = EmbeddedBroker()
    assert (plain.host, plain.port, plain.ws_port) == ("127.0.0.1", 1883, 9001)
    assert (plain.url, plain.ws_url) == ("mqtt://127.0.0.1:1883", "ws://127.0.0.1:9001")
    assert (broker_cmd.DEFAULT_HOST, broker_cmd.DEFAULT_PORT, broker_cmd.DEFAULT_WS_PORT) == (
        broker_module.DEFAULT_HOST,
        broker_module.DEFAULT_PORT,
        broker_module.DEFAULT_WS_PORT,
    )
    with EmbeddedBroker(port=0, ws_port=0) as running:
        addresses = running.bound_addresses()
        assert sorted(addresses) == sorted(
            [("127.0.0.1", running.port), ("127.0.0.1", running.ws_port)]
        )
        assert running.url == f"mqtt://127.0.0.1:{running.port}"
        assert running.ws_url == f"ws://127.0.0.1:{running.ws_port}"


def test_tcp_and_websockets_clients_talk(broker: EmbeddedBroker, clients: list[Client]) -> None:
    assert broker.ws_port is not None
    board = Client("board", broker.port)
    page = Client("page", broker.ws_port, transport="websockets")
    clients += [board, page]
    page.subscribe("tabletop/table-1/#")
    board.publish("tabletop/table-1/event", b'{"seq": 1}')
    assert page.take(1) == [("tabletop/table-1/event", b'{"seq": 1}', False, 1)]
    # ...and the other way round.
    board.subscribe("tabletop/table-1/clock")
    page.publish("tabletop/table-1/clock", b"tick")
    assert board.take(1) == [("tabletop/table-1/clock", b"tick", False, 1)]


def test_retained_state_reaches_a_late_subscriber(
    broker: EmbeddedBroker, clients: list[Client]
) -> None:
    board = Client("board", broker.port)
    clients.append(board)
    board.publish("tabletop/table-1/state", b"old", retain=True)
    board.publish("tabletop/table-1/state", b"new", retain=True)
    board.publish("tabletop/table-1/event", b"not retained")
    for transport, port in (("tcp", broker.port), ("websockets", broker.ws_port)):
        assert port is not None
        late = Client(f"late-{transport}", port, transport=transport)
        clients.append(late)
        late.subscribe("tabletop/table-1/#")
        assert late.take(1) == [("tabletop/table-1/state", b"new", True, 1)]
        assert late.quiet_for(0.3) == []
    # An empty retained message clears it.
    board.publish("tabletop/table-1/state", b"", retain=True)
    cleared = Client("after-clear", broker.port)
    clients.append(cleared)
    cleared.subscribe("tabletop/table-1/#")
    assert cleared.quiet_for(0.3) == []


def test_last_will_on_a_dropped_connection(broker: EmbeddedBroker, clients: list[Client]) -> None:
    watcher = Client("watcher", broker.port)
    clients.append(watcher)
    watcher.subscribe("tabletop/table-1/status")
    board = Client("board", broker.port, will=("tabletop/table-1/status", b"offline"))
    board.publish("tabletop/table-1/status", b"online", retain=True)
    assert watcher.take(1) == [("tabletop/table-1/status", b"online", False, 1)]
    board.drop_connection()
    assert watcher.take(1) == [("tabletop/table-1/status", b"offline", False, 1)]
    # The will was retained: a page opened later sees the board is offline.
    late = Client("late", broker.port)
    clients.append(late)
    late.subscribe("tabletop/table-1/status")
    assert late.take(1) == [("tabletop/table-1/status", b"offline", True, 1)]


@pytest.mark.parametrize("transport", ["tcp", "websockets"])
def test_last_will_when_a_board_goes_silent(
    broker: EmbeddedBroker, clients: list[Client], transport: str
) -> None:
    """No FIN, no RST: the broker drops it after 1.5 keep-alive periods and sends its will;
    a client as quiet but alive (it pings) stays."""
    port = broker.port if transport == "tcp" else broker.ws_port
    assert port is not None
    watcher = Client("watcher", broker.port)
    alive = Client("alive", broker.port, keepalive=1, will=("tabletop/alive/status", b"offline"))
    clients += [watcher, alive]
    watcher.subscribe("tabletop/+/status")
    board = Client(
        "board",
        port,
        transport=transport,
        keepalive=1,
        will=("tabletop/table-1/status", b"offline"),
    )
    began = time.monotonic()
    board.go_silent()
    assert watcher.take(1, timeout=5) == [("tabletop/table-1/status", b"offline", False, 1)]
    assert time.monotonic() - began <= 4.0  # 1.5 keep-alive periods after its last ping
    assert watcher.quiet_for(1.0) == []
    assert alive.paho.is_connected()


def test_a_clean_disconnect_sends_no_will(broker: EmbeddedBroker, clients: list[Client]) -> None:
    watcher = Client("watcher", broker.port)
    clients.append(watcher)
    watcher.subscribe("tabletop/table-1/status")
    board = Client("board", broker.port, will=("tabletop/table-1/status", b"offline"))
    board.close()
    assert watcher.quiet_for(0.5) == []


def test_qos1_delivers_every_message_in_order(
    broker: EmbeddedBroker, clients: list[Client]
) -> None:
    count = 500
    board = Client("board", broker.port)
    viewer = Client("viewer", broker.port)
    clients += [board, viewer]
    viewer.subscribe("tabletop/table-1/event", qos=1)
    infos = [
        board.paho.publish("tabletop/table-1/event", str(n).encode(), qos=1) for n in range(count)
    ]
    for info in infos:
        info.wait_for_publish(5)
    got = viewer.take(count)
    assert [int(payload) for _topic, payload, _retain, _qos in got] == list(range(count))
    assert {qos for *_rest, qos in got} == {1}


def _leak_scenario(
    broker: EmbeddedBroker, clients: list[Client]
) -> tuple[list[Message], list[Message]]:
    """Client A on table-1, table-2's own display on table-2; table-2 retains its state; a new
    client B connects (what does it get before subscribing?) and subscribes to table-1 only."""
    a = Client("A", broker.port)
    display_2 = Client("display-2", broker.port)
    publisher = Client("publisher", broker.port)
    clients += [a, display_2, publisher]
    a.subscribe("tabletop/table-1/#")
    display_2.subscribe("tabletop/table-2/#")
    publisher.publish("tabletop/table-1/state", b"table-1", retain=True)
    publisher.publish("tabletop/table-2/state", b"table-2", retain=True)
    b = Client("B", broker.port)
    clients.append(b)
    before = b.quiet_for(0.5)
    b.subscribe("tabletop/table-1/#")
    after = b.quiet_for(0.5)
    return before, after


def test_a_new_client_gets_only_its_own_subscriptions_retained_messages(
    broker: EmbeddedBroker, clients: list[Client]
) -> None:
    before, after = _leak_scenario(broker, clients)
    assert before == []
    assert after == [("tabletop/table-1/state", b"table-1", True, 1)]


def test_plain_amqtt_leaks_in_that_scenario(
    monkeypatch: pytest.MonkeyPatch, clients: list[Client]
) -> None:
    """Without the fix the same scenario sends B table-2's state: the fix is what holds."""
    from amqtt.broker import Broker

    monkeypatch.setattr(broker_module, "_broker_class", lambda: Broker)
    with EmbeddedBroker(port=0, ws_port=None) as plain:
        before, _after = _leak_scenario(plain, clients)
        for client in clients:
            client.close()
        clients.clear()
    assert ("tabletop/table-2/state", b"table-2", True, 0) in before


def _taken_port() -> tuple[socket.socket, int]:
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    return holder, int(holder.getsockname()[1])


def test_a_port_in_use_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    holder, port = _taken_port()
    with holder:
        with pytest.raises(BrokerError, match=rf"127\.0\.0\.1:{port} \(MQTT\).*already in use"):
            EmbeddedBroker(port=port, ws_port=None).start()
        with pytest.raises(BrokerError, match=rf":{port} \(MQTT over WebSockets\).*in use"):
            EmbeddedBroker(port=0, ws_port=port).start()
        assert main(["broker", "--port", str(port), "--ws-port", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"companion: error: cannot listen on 127.0.0.1:{port} (MQTT)")
    assert "Traceback" not in err


def test_a_port_taken_while_starting_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check in start() passes, then amqtt's own bind fails: still one line."""
    real_check = broker_module._check_free
    checks: list[int] = []

    def check_after_the_first(host: str, port: int, what: str) -> None:
        checks.append(port)
        if len(checks) > 1:  # the first is start()'s, which the port is taken after
            real_check(host, port, what)

    monkeypatch.setattr(broker_module, "_check_free", check_after_the_first)
    holder, port = _taken_port()
    with holder:
        broker = EmbeddedBroker(port=port, ws_port=None)
        with pytest.raises(BrokerError, match=rf"127\.0\.0\.1:{port} \(MQTT\).*in use"):
            broker.start()
    assert checks == [port, port]
    assert not broker.running


def test_stop_frees_the_ports_and_start_starts_again() -> None:
    broker = EmbeddedBroker(port=0, ws_port=0)
    broker.start()
    Client("board", broker.port).close()
    port = broker.port
    broker.stop()
    assert not broker.running
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(("127.0.0.1", port))
    broker.start()
    try:
        Client("again", broker.port).close()
    finally:
        broker.stop()
