"""The mosquitto configuration docs/mqtt.md gives a club, run on a real mosquitto: displays
only read, each board writes only its own topics, and a giant packet is refused. The ACL
and the packet limit are read from the documentation itself, so the two cannot drift."""

from __future__ import annotations

import json
import re
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect
from websockets.typing import Subprotocol

from companion.publish import wire
from companion.publish.mosquitto import Mosquitto, find_mosquitto
from companion.publish.publisher import Publisher, client_id_of
from tests.broker.clients import Client, remaining_length

pytestmark = pytest.mark.skipif(find_mosquitto() is None, reason="mosquitto is not installed")

DOCS = Path(__file__).resolve().parents[2] / "docs" / "mqtt.md"
LOGINS = (("display", "shown-to-all"), ("table-1", "pw-1"), ("table-2", "pw-2"))


def documented(name: str) -> str:
    """The code block that follows the line naming `name` in docs/mqtt.md."""
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(rf"`{re.escape(name)}`:\n\n```conf\n(.*?)```", text, re.S)
    assert found, f"docs/mqtt.md has no {name} block"
    return found.group(1)


@pytest.fixture(scope="module")
def club() -> Iterator[Mosquitto]:
    limit = [
        line
        for line in documented("/etc/mosquitto/conf.d/tabletop.conf").splitlines()
        if line.startswith("max_packet_size")
    ]
    assert limit, "the documented configuration sets no packet limit"
    acl = documented("/etc/mosquitto/tabletop.acl")
    with Mosquitto(websockets=True, acl=acl, users=LOGINS, settings=tuple(limit)) as broker:
        yield broker


def login(user: str) -> tuple[str, str]:
    return next(pair for pair in LOGINS if pair[0] == user)


def ws(club: Mosquitto) -> int:
    assert club.ws_port is not None
    return club.ws_port


def test_a_board_writes_its_own_topics_and_a_display_reads_them(
    club: Mosquitto, clients: list[Client]
) -> None:
    page = Client("page", ws(club), transport="websockets", login=login("display"))
    table = Client("table-1", club.port, login=login("table-1"))
    clients += [page, table]
    page.subscribe("tabletop/#")
    table.publish("tabletop/table-1/state", b"real", retain=True)
    assert page.take(1) == [("tabletop/table-1/state", b"real", False, 1)]


@pytest.mark.parametrize(
    ("user", "topic"),
    [("display", "tabletop/table-1/state"), ("table-2", "tabletop/table-1/state")],
)
def test_nobody_writes_another_boards_topics(
    club: Mosquitto, clients: list[Client], user: str, topic: str
) -> None:
    page = Client(f"page-{user}", ws(club), transport="websockets", login=login("display"))
    forger = Client(f"forger-{user}", club.port, login=login(user))
    clients += [page, forger]
    page.subscribe("tabletop/table-1/#")
    page.quiet_for(0.3)  # whatever an earlier test retained
    forger.publish(topic, b"forged", retain=True)
    assert page.quiet_for(0.5) == []


def test_no_one_gets_in_without_a_login(club: Mosquitto) -> None:
    with pytest.raises(AssertionError, match="did not connect"):
        Client("stranger", ws(club), transport="websockets")


def test_a_page_of_another_site_gets_nothing(club: Mosquitto) -> None:
    """mosquitto does not check a WebSocket's Origin: a page of another site may open one,
    but without the display's password (which /config.json gives only to pages of this
    machine's names) its CONNECT is refused and the connection closed."""
    url = f"ws://127.0.0.1:{ws(club)}/"
    headers = {"Origin": "http://evil.example"}
    with connect(
        url, subprotocols=[Subprotocol("mqtt")], additional_headers=headers, open_timeout=5
    ) as page:
        body = b"\x00\x04MQTT\x04\x02\x00\x3c\x00\x04evil"
        page.send(bytes([0x10, len(body)]) + body)
        connack = page.recv(timeout=5)
        assert isinstance(connack, bytes) and connack[:2] == b"\x20\x02"
        assert connack[3] == 5  # not authorised
        with pytest.raises(ConnectionClosed):
            page.recv(timeout=5)


def test_a_giant_packet_is_refused(club: Mosquitto, clients: list[Client]) -> None:
    page = Client("page-giant", ws(club), transport="websockets", login=login("display"))
    table = Client("table-1-giant", club.port, login=login("table-1"))
    clients += [page, table]
    page.subscribe("tabletop/table-1/#")
    page.quiet_for(0.3)
    with socket.create_connection(("127.0.0.1", club.port), timeout=10) as raw:
        user, secret = (part.encode() for part in login("table-1"))
        body = b"\x00\x04MQTT\x04\xc2\x00\x3c\x00\x05giant"
        body += len(user).to_bytes(2, "big") + user + len(secret).to_bytes(2, "big") + secret
        raw.sendall(bytes([0x10, len(body)]) + body)
        assert raw.recv(4)[:1] == b"\x20"
        encoded = remaining_length(20 * 1024 * 1024)
        raw.sendall(b"\x31" + encoded + b"\x00\x16tabletop/table-1/state" + b"x" * 4096)
        try:
            closed = raw.recv(1) == b""
        except ConnectionResetError:
            closed = True
        assert closed
    assert page.quiet_for(0.5) == []


def board(club: Mosquitto) -> Publisher:
    user, password = login("table-1")
    url = f"mqtt://127.0.0.1:{club.port}"
    return Publisher(url, board_id="table-1", username=user, password=password)


def state(seq: int) -> dict[str, object]:
    return wire.state_payload(
        board="table-1",
        t=float(seq),
        game="toy",
        game_id=1,
        title="",
        seq=seq,
        names=["Ada", "Bo"],
        view={"pile": seq},
        clock=None,
        last=None,
    )


def test_a_display_login_cannot_knock_a_board_off(club: Mosquitto, clients: list[Client]) -> None:
    """mosquitto lets any logged-in client take any client id, and a display's password is
    no secret: the board's client id carries a tag only its password makes."""
    publisher = board(club)
    try:
        assert publisher.wait_connected(5.0)
        page = Client("page-takeover", ws(club), transport="websockets", login=login("display"))
        clients.append(page)
        page.subscribe("tabletop/table-1/state")
        page.quiet_for(0.3)  # whatever an earlier test retained
        for guess in ("companion-table-1", client_id_of("table-1", "shown-to-all")):
            clients.append(Client(guess, club.port, login=login("display")))
        publisher.publish(publisher.topics.message("state", state(7)))
        assert publisher.wait_idle(5.0)
        [(_topic, payload, _retain, _qos)] = page.take(1)
        assert json.loads(payload)["seq"] == 7
        assert publisher.stats().connections == 1
    finally:
        publisher.close(timeout=2)


def test_a_board_back_from_a_network_cut_takes_over_its_old_connection(
    club: Mosquitto, clients: list[Client]
) -> None:
    user, password = login("table-1")
    stale = Client(client_id_of("table-1", password), club.port, login=(user, password))
    lost = threading.Event()
    stale.paho.on_disconnect = lambda *args: lost.set()
    stale.paho.reconnect_delay_set(60, 120)
    clients.append(stale)
    publisher = board(club)
    try:
        assert publisher.wait_connected(5.0)
        assert lost.wait(5.0), "the board's old connection was left open"
    finally:
        publisher.close(timeout=2)
