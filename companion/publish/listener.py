"""A table listening to what others publish for it (the tournament hub's assignment of its
next game): a subscriber of its own, beside the table's Publisher, that reconnects by
itself and hands each message on.

    listener = Listener.start(url, ["tabletop/+/table/table-1"], on_message, username=...)
    ...
    listener.close()

A client of its own, not the Publisher's connection: the Publisher's session announces the
board (its Last Will), and a listener going away must not say the board went offline.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Any

from companion.publish.publisher import BrokerAddress, parse_url, tls_context
from companion.publish.round_trip import side_client

log = logging.getLogger(__name__)

OnMessage = Callable[[str, bytes], None]
KEEPALIVE_S = 30


class Listener:
    def __init__(self, client: Any, address: BrokerAddress) -> None:
        self._client = client
        self.address = address
        self.subscribed = threading.Event()
        """Set once the broker has confirmed a subscription (tests wait on it)."""

    @classmethod
    def start(
        cls,
        url: str,
        topics: Sequence[str],
        on_message: OnMessage,
        *,
        username: str = "",
        password: str = "",
        ca_file: str = "",
        cert_file: str = "",
        key_file: str = "",
        name: str = "companion-listener",
    ) -> Listener:
        """Connects in the background and subscribes to `topics` at every connection;
        `on_message(topic, payload)` runs on the listener's own thread. `name` starts its
        client id."""
        address = parse_url(url)
        tls = tls_context(address, ca_file, cert_file, key_file)
        client = side_client(address, tls, name, username, password)
        client.reconnect_delay_set(1, 30)

        def on_connect(client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
            if reason.is_failure:
                log.warning("the broker refused the listener: %s", reason)
                return
            for topic in topics:
                client.subscribe(topic, qos=1)

        def on_message_received(client: Any, userdata: Any, message: Any) -> None:
            try:
                on_message(message.topic, message.payload)
            except Exception:
                log.warning("a message on %s could not be taken", message.topic, exc_info=True)

        listener = cls(client, address)
        client.on_connect = on_connect
        client.on_subscribe = lambda *args: listener.subscribed.set()
        client.on_message = on_message_received
        client.connect_async(address.host, address.port, keepalive=KEEPALIVE_S)
        client.loop_start()
        return listener

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()
