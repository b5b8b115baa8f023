"""The locked embedded broker, as `app` and `run` start it: only the table publishes; pages
read. Whatever the lock: no foreign page, no giant packet, no crowd, no silent squatter."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect
from websockets.typing import Subprotocol

from companion.publish.broker import (
    MAX_PACKET_BYTES,
    EmbeddedBroker,
    Limits,
    table_password,
)
from companion.publish.broker_gate import TABLE_USER
from tests.broker.clients import Client, remaining_length

PASSWORD = "correct horse battery staple"
STATE = "tabletop/table-1/state"


@pytest.fixture()
def locked() -> Iterator[EmbeddedBroker]:
    limits = Limits(max_connections=6, login_timeout_s=1.0)
    with EmbeddedBroker(port=0, ws_port=0, table_password=PASSWORD, limits=limits) as broker:
        yield broker


def ws_port(broker: EmbeddedBroker) -> int:
    assert broker.ws_port is not None
    return broker.ws_port


def test_the_table_publishes_and_a_page_reads(
    locked: EmbeddedBroker, clients: list[Client]
) -> None:
    table = Client("table-1", locked.port, login=(TABLE_USER, PASSWORD))
    page = Client("page", ws_port(locked), transport="websockets")
    clients += [table, page]
    page.subscribe("tabletop/table-1/#")
    table.publish(STATE, b'{"seq": 1}', retain=True)
    assert page.take(1) == [(STATE, b'{"seq": 1}', False, 1)]


@pytest.mark.parametrize("transport", ["tcp", "websockets"])
@pytest.mark.parametrize("login", [None, ("display", "anything")])
def test_nobody_else_publishes(
    locked: EmbeddedBroker, clients: list[Client], transport: str, login: tuple[str, str] | None
) -> None:
    """A forged state from a display login or an anonymous client goes nowhere, and is not
    kept for the next page either."""
    page = Client("page", ws_port(locked), transport="websockets")
    port = locked.port if transport == "tcp" else ws_port(locked)
    forger = Client("forger", port, transport=transport, login=login)
    clients += [page, forger]
    page.subscribe("tabletop/#")
    forger.publish(STATE, b'{"names": ["Mallory"]}', retain=True)
    assert page.quiet_for(0.5) == []
    late = Client("late", ws_port(locked), transport="websockets")
    clients.append(late)
    late.subscribe("tabletop/#")
    assert late.quiet_for(0.5) == []


def test_the_tables_name_with_a_wrong_password_is_refused(locked: EmbeddedBroker) -> None:
    with pytest.raises(AssertionError, match="did not connect"):
        Client("impostor", locked.port, login=(TABLE_USER, "guess"))


def test_a_visitors_last_will_is_not_published(
    locked: EmbeddedBroker, clients: list[Client]
) -> None:
    page = Client("page", ws_port(locked), transport="websockets")
    visitor = Client("visitor", locked.port, will=("tabletop/table-1/status", b"offline"))
    clients.append(page)
    page.subscribe("tabletop/#")
    visitor.drop_connection()
    assert page.quiet_for(1.0) == []


STATUS = "tabletop/table-1/status"


def watch_disconnect(client: Client) -> threading.Event:
    """Set when the broker ends `client`'s connection; the client does not reconnect."""
    lost = threading.Event()
    client.paho.on_disconnect = lambda *args: lost.set()
    client.paho.reconnect_delay_set(60, 120)
    return lost


@pytest.mark.parametrize("lock", [None, PASSWORD])
def test_a_client_id_in_use_is_taken_over_without_its_will(
    clients: list[Client], lock: str | None
) -> None:
    """MQTT 3.1.1, 3.1.4-2: the new connection replaces the old one, which is dropped (a
    table whose network came back replaces its half-open connection). The old one's will is
    not sent: the client is not gone, it is back."""
    login = (TABLE_USER, PASSWORD) if lock else None
    with EmbeddedBroker(port=0, ws_port=0, table_password=lock) as broker:
        page = Client("page", ws_port(broker), transport="websockets")
        old = Client("companion-table-1", broker.port, login=login, will=(STATUS, b"offline"))
        clients += [page, old]
        page.subscribe("tabletop/#")
        lost = watch_disconnect(old)
        new = Client("companion-table-1", broker.port, login=login, will=(STATUS, b"offline"))
        clients.append(new)
        assert lost.wait(5.0), "the old connection was not dropped"
        new.publish(STATE, b"after", retain=True)
        assert page.take(1) == [(STATE, b"after", False, 1)]
        assert page.quiet_for(0.5) == []


@pytest.mark.parametrize("transport", ["tcp", "websockets"])
@pytest.mark.parametrize("clean_session", [True, False])
def test_a_visitor_cannot_take_the_tables_client_id(
    locked: EmbeddedBroker, clients: list[Client], transport: str, clean_session: bool
) -> None:
    page = Client("page", ws_port(locked), transport="websockets")
    table = Client("companion-table-1", locked.port, login=(TABLE_USER, PASSWORD))
    clients += [page, table]
    page.subscribe("tabletop/#")
    lost = watch_disconnect(table)
    port = locked.port if transport == "tcp" else ws_port(locked)
    with pytest.raises(AssertionError, match="did not connect"):
        Client("companion-table-1", port, transport=transport, clean_session=clean_session)
    assert locked.limits.refused.get("takeover", 0) >= 1
    table.publish(STATE, b"still here", retain=True)
    assert page.take(1) == [(STATE, b"still here", False, 1)]
    assert not lost.is_set()


def handshake(broker: EmbeddedBroker, origin: str | None) -> None:
    url = f"ws://127.0.0.1:{ws_port(broker)}/"
    headers = {"Origin": origin} if origin else None
    mqtt = [Subprotocol("mqtt")]
    with connect(url, subprotocols=mqtt, additional_headers=headers, open_timeout=5):
        pass


@pytest.mark.parametrize(
    "origin", [None, "http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080"]
)
def test_pages_of_this_machine_may_open_the_websocket(
    locked: EmbeddedBroker, origin: str | None
) -> None:
    handshake(locked, origin)


@pytest.mark.parametrize(
    "origin", ["http://evil.example", "https://127.0.0.1.evil.example:8080", "null"]
)
def test_a_page_of_another_site_may_not(locked: EmbeddedBroker, origin: str) -> None:
    with pytest.raises(InvalidStatus) as refused:
        handshake(locked, origin)
    assert refused.value.response.status_code == 403
    assert locked.limits.refused["origin"] >= 1


def connect_packet(client_id: bytes) -> bytes:
    body = b"\x00\x04MQTT\x04\x02\x00\x3c" + len(client_id).to_bytes(2, "big") + client_id
    return bytes([0x10, len(body)]) + body


def test_a_giant_packet_ends_its_connection_and_nothing_else(
    locked: EmbeddedBroker, clients: list[Client]
) -> None:
    table = Client("table-1", locked.port, login=(TABLE_USER, PASSWORD))
    page = Client("page", ws_port(locked), transport="websockets")
    clients += [table, page]
    page.subscribe("tabletop/#")
    with socket.create_connection(("127.0.0.1", locked.port), timeout=10) as raw:
        raw.sendall(connect_packet(b"giant"))
        assert raw.recv(4)[:1] == b"\x20"  # CONNACK
        topic = STATE.encode()
        size = 20 * 1024 * 1024
        assert size > MAX_PACKET_BYTES
        header = b"\x31" + remaining_length(2 + len(topic) + size)
        raw.sendall(header + len(topic).to_bytes(2, "big") + topic + b"x" * 4096)
        try:
            closed = raw.recv(1) == b""
        except ConnectionResetError:
            closed = True
        assert closed
    # The broker goes on: the table still reaches the page.
    table.publish(STATE, b"still here", retain=True)
    assert page.take(1) == [(STATE, b"still here", False, 1)]


def test_a_connection_that_never_logs_in_is_dropped(locked: EmbeddedBroker) -> None:
    with socket.create_connection(("127.0.0.1", locked.port), timeout=20) as idle:
        assert idle.recv(1) == b""  # closed by the broker, long before our timeout
    assert locked.limits.refused["login"] >= 1


def test_clients_past_the_limit_are_turned_away(
    locked: EmbeddedBroker, clients: list[Client]
) -> None:
    for n in range(locked.limits.max_connections):
        clients.append(Client(f"page-{n}", ws_port(locked), transport="websockets"))
    with pytest.raises(AssertionError, match="did not connect"):
        Client("one-too-many", ws_port(locked), transport="websockets")
    assert locked.limits.refused["connections"] >= 1


def test_the_tables_password_is_made_once_and_kept_private(tmp_path: Path) -> None:
    first = table_password(tmp_path / "data")
    assert len(first) >= 24 and table_password(tmp_path / "data") == first
    assert (tmp_path / "data" / "broker-password").stat().st_mode & 0o077 == 0
    assert table_password(tmp_path / "other") != first
