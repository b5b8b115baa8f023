"""paho clients for the broker tests: connected, subscribed and collecting, or failing fast."""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

TIMEOUT_S = 5.0

Message = tuple[str, bytes, bool, int]  # topic, payload, retain, qos


class Client:
    """A paho client on its own network thread; every message it gets lands in `messages`."""

    def __init__(
        self,
        name: str,
        port: int,
        *,
        transport: str = "tcp",
        will: tuple[str, bytes] | None = None,
        keepalive: int = 10,
        login: tuple[str, str] | None = None,
        clean_session: bool = True,
        trust: Path | None = None,
    ) -> None:
        """`trust`: a CA certificate, for a broker that speaks TLS."""
        self.paho = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=name,
            transport="websockets" if transport == "websockets" else "tcp",
            clean_session=clean_session,
        )
        self.messages: queue.Queue[Message] = queue.Queue()
        self._connected = threading.Event()
        self._answered = threading.Event()
        """Set by the broker's answer: a login accepted or refused, or the line dropped. A
        refusal is known at once, not after the whole timeout."""
        self._subscribed = threading.Event()
        self.paho.on_connect = self._on_connect
        self.paho.on_connect_fail = lambda *args: self._answered.set()
        self.paho.on_disconnect = lambda *args: self._answered.set()
        self.paho.on_subscribe = lambda *args: self._subscribed.set()
        self.paho.on_message = lambda client, userdata, m: self.messages.put(
            (m.topic, bytes(m.payload), bool(m.retain), int(m.qos))
        )
        if will is not None:
            self.paho.will_set(will[0], will[1], qos=1, retain=True)
        if login is not None:
            self.paho.username_pw_set(*login)
        if trust is not None:
            self.paho.tls_set(ca_certs=str(trust))
        self.refused: Any = None
        """Why the broker refused the login, when it did."""
        self.paho.connect("127.0.0.1", port, keepalive=keepalive)
        self.paho.loop_start()
        self._answered.wait(TIMEOUT_S)
        if not self._connected.is_set():
            self.close()
            raise AssertionError(f"{name} did not connect")

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        if not reason.is_failure:
            self._connected.set()
        else:
            self.refused = reason
        self._answered.set()

    def subscribe(self, topic_filter: str, qos: int = 1) -> None:
        self._subscribed.clear()
        self.paho.subscribe(topic_filter, qos)
        assert self._subscribed.wait(TIMEOUT_S), f"no SUBACK for {topic_filter}"

    def publish(self, topic: str, payload: bytes, *, qos: int = 1, retain: bool = False) -> None:
        self.paho.publish(topic, payload, qos=qos, retain=retain).wait_for_publish(TIMEOUT_S)

    def take(self, count: int, timeout: float = TIMEOUT_S) -> list[Message]:
        """Exactly `count` messages, waiting up to `timeout` for them."""
        got: list[Message] = []
        deadline = time.monotonic() + timeout
        while len(got) < count:
            try:
                got.append(self.messages.get(timeout=max(0.0, deadline - time.monotonic())))
            except queue.Empty:
                break
        return got

    def quiet_for(self, seconds: float) -> list[Message]:
        """Whatever arrives within `seconds`: for saying that nothing (more) does."""
        return self.take(1_000_000, timeout=seconds)

    def go_silent(self) -> None:
        """Stops talking but leaves the connection open, as a board whose power or network
        was cut: only the keep-alive tells the broker it is gone."""
        self.paho.loop_stop()

    def drop_connection(self) -> None:
        """Goes away without DISCONNECT, as a crashed board would: the broker sends the will."""
        self.paho.loop_stop()
        sock = self.paho.socket()
        if isinstance(sock, socket.socket):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def close(self) -> None:
        self.paho.disconnect()
        self.paho.loop_stop()


def remaining_length(n: int) -> bytes:
    """MQTT's variable-length encoding of a packet's remaining length."""
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)
