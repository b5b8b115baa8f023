"""Is a broker there and working: connect, subscribe to a topic of one's own, publish on it
and hear the message come back (`companion doctor`).

    problem = round_trip("mqtt://127.0.0.1:1883", topic="tabletop/table-1/doctor/1a2b",
                         timeout_s=5)
    problem        # None when the message came back; else why not, one line

A client of its own, not the table's Publisher: the table's connection announces the board
online and offline (retained), which a display page would show; a check must leave no trace.
"""

from __future__ import annotations

import secrets
import ssl
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.publish.publisher import BrokerAddress, parse_url, tls_context, why_unreachable

KEEPALIVE_S = 15


def round_trip(
    url: str,
    *,
    topic: str,
    timeout_s: float,
    username: str = "",
    password: str = "",
    ca_file: str = "",
    cert_file: str = "",
    key_file: str = "",
) -> str | None:
    """None when a message published on `topic` came back within `timeout_s`; otherwise
    what went wrong (a PublisherError for a URL or TLS file that cannot work)."""
    address = parse_url(url)
    tls = tls_context(address, ca_file, cert_file, key_file)
    token = secrets.token_hex(8).encode()
    connected = threading.Event()
    subscribed = threading.Event()
    heard = threading.Event()
    refusals: list[str] = []

    def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            refusals.append(f"it refused the connection: {reason}")
        else:
            connected.set()

    def on_connect_fail(client: Any, userdata: Any) -> None:
        # paho would try again and again; one failure is the answer here.
        refusals.append(f"no connection: {why_unreachable(address, tls)}")

    def on_subscribe(client: Any, userdata: Any, mid: int, reasons: Any, properties: Any) -> None:
        if any(code.is_failure for code in reasons):
            refusals.append(f"it refused the subscription to {topic}")
        subscribed.set()

    def on_message(client: Any, userdata: Any, message: Any) -> None:
        if message.payload == token:
            heard.set()

    client = side_client(address, tls, "companion-doctor", username, password)
    client.on_connect = on_connect
    client.on_connect_fail = on_connect_fail
    client.on_subscribe = on_subscribe
    client.on_message = on_message
    deadline = time.monotonic() + timeout_s

    def left() -> float:
        return max(0.0, deadline - time.monotonic())

    client.connect_async(address.host, address.port, keepalive=KEEPALIVE_S)
    client.loop_start()
    try:
        if not _wait(connected, refusals, left):
            return refusals[0] if refusals else f"no connection: {why_unreachable(address, tls)}"
        client.subscribe(topic, qos=1)
        if not _wait(subscribed, refusals, left) or refusals:
            return refusals[0] if refusals else "it did not answer the subscription"
        client.publish(topic, token, qos=1)
        if not heard.wait(left()):
            return (
                "it took the connection and the subscription, but the message published did "
                "not come back (may this user publish?)"
            )
        return None
    finally:
        client.disconnect()
        client.loop_stop()


def side_client(
    address: BrokerAddress,
    tls: ssl.SSLContext | None,
    name: str,
    username: str = "",
    password: str = "",
) -> Any:
    """A paho client of its own beside the table's Publisher (a check, a listener): a clean
    session under a client id no table uses."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=f"{name}-{secrets.token_hex(4)}",
        transport=address.transport,
        protocol=mqtt.MQTTv311,
        clean_session=True,
    )
    if address.transport == "websockets":
        client.ws_set_options(path=address.path)
    if tls is not None:
        client.tls_set_context(tls)
    if username:
        client.username_pw_set(username, password or None)
    return client


def _wait(event: threading.Event, refusals: list[str], left: Any) -> bool:
    """Waits for `event` until the time is up or the broker refuses."""
    while not event.is_set() and not refusals:
        remaining = left()
        if remaining <= 0:
            return False
        event.wait(min(0.05, remaining))
    return event.is_set() and not refusals
