"""A real mosquitto with WebSockets, the display server, headless Chromium and a publisher.

Browser tests skip, saying why, only when /usr/bin/chromium or mosquitto is missing.
Screenshots go to $COMPANION_SCREENSHOTS when set (else to the test's tmp_path).
"""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion.publish.mosquitto import Mosquitto, find_mosquitto
from companion.publish.wire import JSON_KINDS, validate
from companion.web.server import DisplayConfig, DisplayServer, serve

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def need_mosquitto() -> None:
    if find_mosquitto() is None:
        pytest.skip("mosquitto is not installed (Debian: apt-get install mosquitto)")


def need_chromium() -> None:
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (Debian: apt-get install chromium)")


@pytest.fixture(scope="session")
def broker() -> Iterator[Mosquitto]:
    need_mosquitto()
    with Mosquitto(websockets=True) as running:
        yield running


@pytest.fixture(scope="session")
def display(broker: Mosquitto) -> Iterator[DisplayServer]:
    server, thread = serve("127.0.0.1", 0, DisplayConfig(broker=broker.ws_url))
    yield server
    server.shutdown()
    server.server_close()
    thread.join(5)


class Publisher:
    """Publishes like the companion does: JSON payloads at QoS 1, state and status retained."""

    def __init__(self, port: int, credentials: tuple[str, str] | None = None) -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"test-{uuid.uuid4()}")
        if credentials:
            self.client.username_pw_set(*credentials)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def send(self, topic: str, payload: Any, *, retain: bool = False) -> None:
        """Publishes; a JSON payload must first pass the stream's schema for its topic."""
        kind = topic.rsplit("/", 1)[1]
        if kind in JSON_KINDS:
            validate(kind, payload)
        data = payload if isinstance(payload, str) else json.dumps(payload)
        info = self.client.publish(topic, data, qos=1, retain=retain)
        info.wait_for_publish(5)
        assert info.is_published(), f"could not publish to {topic}"

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


@pytest.fixture(scope="session")
def publisher(broker: Mosquitto) -> Iterator[Publisher]:
    sender = Publisher(broker.port)
    yield sender
    sender.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    need_chromium()
    need_mosquitto()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    """A fresh page at 1280x800 whose script errors fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.set_default_timeout(5000)
    yield opened
    context.close()
    assert not errors, f"script errors on the page: {errors}"


@pytest.fixture()
def board_id(request: pytest.FixtureRequest) -> str:
    """A board id of the test's own, so retained states of other tests stay out of the way."""
    name = re.sub(r"[^a-z0-9]+", "-", request.node.name.lower()).strip("-")[:30]
    return f"{name}-{uuid.uuid4().hex[:6]}"


@pytest.fixture()
def shots(tmp_path: Path) -> Path:
    folder = os.environ.get("COMPANION_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path
