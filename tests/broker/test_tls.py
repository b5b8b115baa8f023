"""The embedded broker's WebSockets listener over TLS, when it is given a certificate: as
`companion broker --cert --key` and `[broker] wss_cert_file` start it."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from paho.mqtt.client import WebsocketConnectionError

from companion.config import BrokerConfig, Config, StoreConfig
from companion.errors import UserError
from companion.publish.broker import CertificateError, EmbeddedBroker
from companion.publish.broker_gate import TABLE_USER
from companion.publish.mosquitto import Certificates, make_certificates
from companion.streaming import Streaming
from tests.broker.clients import Client

PASSWORD = "correct horse battery staple"
STATE = "tabletop/table-1/state"


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> Certificates:
    return make_certificates(tmp_path_factory.mktemp("certificates"))


@pytest.fixture()
def secure(certificates: Certificates) -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(
        port=0,
        ws_port=0,
        table_password=PASSWORD,
        ws_certificate=(certificates.cert, certificates.key),
    ) as broker:
        yield broker


def ws_port(broker: EmbeddedBroker) -> int:
    assert broker.ws_port is not None
    return broker.ws_port


def test_pages_read_the_table_over_tls(
    secure: EmbeddedBroker, certificates: Certificates, clients: list[Client]
) -> None:
    assert secure.ws_url.startswith("wss://")
    page = Client("page", ws_port(secure), transport="websockets", trust=certificates.ca)
    table = Client("table", secure.port, login=(TABLE_USER, PASSWORD))
    clients += [page, table]
    page.subscribe("tabletop/#")
    table.publish(STATE, b"over tls", retain=True)
    assert page.take(1) == [(STATE, b"over tls", False, 1)]


def test_a_plain_websocket_gets_nothing(secure: EmbeddedBroker) -> None:
    with pytest.raises(WebsocketConnectionError, match="handshake"):
        Client("plain", ws_port(secure), transport="websockets")


def test_a_key_that_does_not_fit_is_one_line(certificates: Certificates, tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.key"
    wrong.write_bytes(certificates.key.read_bytes()[:200])
    broker = EmbeddedBroker(port=0, ws_port=0, ws_certificate=(certificates.cert, wrong))
    with pytest.raises(CertificateError, match=r"^cannot use the certificate .*wrong\.key"):
        broker.start()
    assert not broker.running


def test_the_display_page_is_told_the_wss_address(
    certificates: Certificates, tmp_path: Path, clients: list[Client]
) -> None:
    config = Config(
        store=StoreConfig(path=str(tmp_path / "games.sqlite3")),
        broker=BrokerConfig(
            wss_cert_file=str(certificates.cert), wss_key_file=str(certificates.key)
        ),
    )
    with Streaming(config, display_port=0, local=True) as streaming:
        with urllib.request.urlopen(f"{streaming.page_url}config.json", timeout=10) as answer:
            served = json.load(answer)
        assert served["broker"].startswith("wss://127.0.0.1:")
        port = int(served["broker"].rsplit(":", 1)[1])
        page = Client("page", port, transport="websockets", trust=certificates.ca)
        clients.append(page)
        page.subscribe("tabletop/#")
        assert page.take(1)  # the table's online status


def test_half_a_certificate_setting_is_refused(tmp_path: Path, certificates: Certificates) -> None:
    config = Config(
        store=StoreConfig(path=str(tmp_path / "games.sqlite3")),
        broker=BrokerConfig(wss_cert_file=str(certificates.cert)),
    )
    with pytest.raises(UserError, match="wss_cert_file and wss_key_file go together"):
        Streaming(config, display_port=0, local=True).__enter__()


def test_companion_broker_with_a_certificate(certificates: Certificates) -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "broker",
            "--port",
            "0",
            "--ws-port",
            "0",
            "--cert",
            str(certificates.cert),
            "--key",
            str(certificates.key),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    try:
        process.stdout.readline()
        assert process.stdout.readline().startswith("MQTT over WebSockets  wss://")
    finally:
        process.terminate()
        process.communicate(timeout=15)
    half = subprocess.run(
        [sys.executable, "-m", "companion", "broker", "--port", "0", "--cert", "x.crt"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert half.returncode == 2
    assert half.stderr.strip().splitlines() == [
        "companion: error: --cert and --key go together: give both"
    ]
