"""The publisher: hands the stream's messages to an MQTT broker, and never keeps anyone waiting.

    publisher = Publisher("mqtt://127.0.0.1:1883", board_id="table-1")
    publisher.publish(publisher.topics.message("alert", alert_payload(...)))   # returns at once
    publisher.close()                                       # 'offline', then a clean goodbye

`publish()` only puts the message on a queue: a sender thread hands it to paho, whose network
thread (loop_start) connects, reconnects with a short backoff and writes. While the broker is
away, messages wait on the queue (at most `queue_limit`: when it is full the oldest event
and clock messages go first, counted in `dropped`; the latest state is never dropped), and
QoS 1 messages already handed to paho stay with paho until the broker acknowledges them.
Readings of the clock and retained messages on the same topic are coalesced while they wait:
only the latest of each is worth sending.

On every (re)connection the publisher sends `online` on the status topic, then the latest
message of every retained topic (the state, Home Assistant's discovery configs: a broker that
restarted without persistence has forgotten them), then what waited. Its Last Will is
`offline`, retained, on the status topic; `close()` publishes `offline` itself.

Connection problems (refused credentials, an untrusted certificate, nobody listening) are
logged once each as one clear line and kept in `problem`; they are never raised at the
caller, who may be in the middle of a game.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import socket
import ssl
import threading
import time
import urllib.parse
from collections import deque
from dataclasses import dataclass, replace
from typing import Any, Final, Literal

import paho.mqtt.client as mqtt
from paho.mqtt.client import ConnectFlags, DisconnectFlags
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from companion.config import BrokerConfig
from companion.errors import UserError
from companion.publish.wire import DEFAULT_PREFIX, OFFLINE, ONLINE, Message, Topics
from vision.common.closing import Closing

log = logging.getLogger(__name__)

DEFAULT_QUEUE_LIMIT: Final = 10_000
"""Messages waiting for the broker, at most (events of a long outage)."""
INFLIGHT_WINDOW: Final = 64
"""Messages handed to paho and not yet acknowledged, at most."""
RECONNECT_MIN_S: Final = 0.25
RECONNECT_MAX_S: Final = 1.0
"""The reconnection backoff doubles from RECONNECT_MIN_S up to this: a broker that comes
back is found within a second, so the retained state is current again within two."""
KEEPALIVE_S: Final = 15
"""A board that vanishes without a goodbye (a power cut) is declared offline by the broker
after 1.5 times this."""
RESEND_GRACE_S: Final = 2.0
"""After a reconnection, how long new messages wait for paho's resends of the messages
in flight when the connection broke, so that an older retained state cannot overtake the
latest."""
CLOSE_TIMEOUT_S: Final = 3.0
PROBE_TIMEOUT_S: Final = 2.0

_COALESCED: Final = frozenset({"clock"})
"""Kinds of which only the latest waiting message matters (besides retained ones)."""
_DROP_FIRST: Final = ("clock", "event", "alert")
"""What a full queue gives up, in this order, oldest first."""
_AUTH_CODES: Final = frozenset({4, 5, 134, 135})
"""CONNACK codes for a refused user name or password (MQTT 3.1.1 and 5)."""


class PublisherError(UserError):
    """A broker URL or TLS file that cannot work; raised by the constructor only."""


@dataclass(frozen=True, slots=True)
class BrokerAddress:
    scheme: str
    host: str
    port: int
    path: str
    """The websockets path (`/mqtt` unless the URL gives one); empty for plain MQTT."""

    @property
    def transport(self) -> Literal["tcp", "websockets"]:
        return "websockets" if self.scheme in ("ws", "wss") else "tcp"

    @property
    def tls(self) -> bool:
        return self.scheme in ("mqtts", "wss")

    @property
    def url(self) -> str:
        """The URL without credentials, for messages."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}{self.path}"


_DEFAULT_PORTS: Final = {"mqtt": 1883, "mqtts": 8883, "ws": 80, "wss": 443}


def parse_url(url: str) -> BrokerAddress:
    """mqtt://host[:1883], mqtts://host[:8883], ws://host[:80][/path], wss://host[:443][/path]."""
    if not url:
        raise PublisherError(
            "no broker URL: set [broker] url, or leave it empty to use the embedded broker"
        )
    parts = urllib.parse.urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS:
        raise PublisherError(
            f"broker URL {url!r}: the scheme must be mqtt://, mqtts://, ws:// or wss://"
        )
    if parts.username or parts.password:
        raise PublisherError(
            "put the broker's user name and password in [broker] username and password, "
            "not in the URL"
        )
    try:
        port = parts.port or _DEFAULT_PORTS[scheme]
    except ValueError:
        raise PublisherError(f"broker URL {url!r}: the port is not a number") from None
    if not parts.hostname:
        raise PublisherError(f"broker URL {url!r} names no host")
    path = ""
    if scheme in ("ws", "wss"):
        path = parts.path or "/mqtt"
        if parts.query:
            path += f"?{parts.query}"
    return BrokerAddress(scheme, parts.hostname, port, path)


def tls_context(
    address: BrokerAddress, ca_file: str, cert_file: str, key_file: str
) -> ssl.SSLContext | None:
    """The TLS a connection to `address` uses, from [broker]'s files; None for plain MQTT or
    WebSockets (where the files are a mistake, said as a PublisherError)."""
    if not address.tls:
        if ca_file or cert_file or key_file:
            raise PublisherError(
                f"[broker] ca_file, cert_file and key_file need an mqtts:// or wss:// URL, "
                f"not {address.url}"
            )
        return None
    try:
        context = ssl.create_default_context(cafile=ca_file or None)
        if cert_file:
            context.load_cert_chain(cert_file, key_file or None)
        elif key_file:
            raise PublisherError("[broker] key_file is set but cert_file is not")
    except (OSError, ssl.SSLError) as err:
        raise PublisherError(f"cannot use the broker's TLS files: {err}") from None
    return context


def why_unreachable(address: BrokerAddress, tls: ssl.SSLContext | None) -> str:
    """Why a connection to `address` failed, in words (paho's connect loop keeps the
    exception): found by connecting a plain socket, and shaking hands over it with `tls`."""
    host, port = address.host, address.port
    try:
        with socket.create_connection((host, port), timeout=PROBE_TIMEOUT_S) as sock:
            if tls is not None:
                with tls.wrap_socket(sock, server_hostname=host):
                    pass
    except ssl.SSLCertVerificationError as err:
        return f"its TLS certificate is not trusted ({err.verify_message}); check [broker] ca_file"
    except ssl.SSLError as err:
        return f"the TLS handshake failed ({err.reason or err})"
    except OSError as err:
        return err.strerror or str(err) or type(err).__name__
    if address.transport == "websockets":
        return "the websockets handshake failed (is it a websockets listener? which path?)"
    return "the connection failed"


@dataclass(frozen=True, slots=True)
class PublisherStats:
    connected: bool
    connections: int
    """Successful connections so far (1 + reconnections)."""
    queued: int
    """Waiting for the broker, not yet handed to paho."""
    inflight: int
    """Handed to paho, not yet acknowledged."""
    acknowledged: int
    dropped: int
    """Given up because the queue was full, or refused by paho."""


def client_id_of(board_id: str, password: str) -> str:
    """The board's MQTT client id: the same at every start, so that a board back from a
    network cut takes over its own half-open connection (MQTT 3.1.1, 3.1.4-2). With a
    password it carries a tag made from it, so that nobody without the password can guess
    it and connect with it to knock the board off the broker: mosquitto lets any logged-in
    client take any client id, and a display's password is no secret."""
    if not password:
        return f"companion-{board_id}"
    tag = hmac.new(password.encode(), board_id.encode(), hashlib.sha256).hexdigest()[:12]
    return f"companion-{board_id}-{tag}"


class Publisher(Closing):
    """One board's connection to one broker."""

    def __init__(
        self,
        url: str,
        *,
        board_id: str,
        prefix: str = DEFAULT_PREFIX,
        username: str = "",
        password: str = "",
        ca_file: str = "",
        cert_file: str = "",
        key_file: str = "",
        queue_limit: int = DEFAULT_QUEUE_LIMIT,
        reconnect_min_s: float = RECONNECT_MIN_S,
        reconnect_max_s: float = RECONNECT_MAX_S,
        keepalive_s: int = KEEPALIVE_S,
        status_topic: str | None = None,
        client_id: str | None = None,
    ) -> None:
        """`status_topic`: where `online`/`offline` go, if not the board's status topic (a
        tournament hub's, which a wall must not take for a board's). `client_id`: the MQTT
        client id, if not the board's (`client_id_of`): a connection that is not the board's
        stream (remote play's) must not knock the board's off the broker."""
        self.topics = Topics(prefix, board_id)
        self.status_topic = status_topic or self.topics.status
        self.address = parse_url(url)
        if queue_limit < 1:
            raise PublisherError("the offline queue must hold at least one message")
        self.queue_limit = queue_limit
        self._tls = self._tls_context(ca_file, cert_file, key_file)
        self._cond = threading.Condition(threading.Lock())
        self._queue: deque[Message] = deque()
        self._waiting_topics: dict[str, int] = {}
        """Queued messages per coalesced topic, so that most publishes need no scan."""
        self._retained: dict[str, Message] = {}
        """The latest retained message of each topic, republished on every connection."""
        self._inflight: dict[int, Message] = {}
        self._handing_over = False
        """A message is off the queue and not yet in flight (being given to paho)."""
        self._early_acks: set[int] = set()
        self._held: set[int] = set()
        """Messages in flight when the connection broke: paho resends them first."""
        self._resume_at = 0.0
        self._connected = False
        self._connections = 0
        self._acknowledged = 0
        self._dropped = 0
        self._warned_full = False
        self._problem: str | None = None
        self._probed = False
        self._closing = False
        self._stopping = False
        self._closed = False

        client = mqtt.Client(
            CallbackAPIVersion.VERSION2,
            client_id=client_id or client_id_of(board_id, password),
            transport=self.address.transport,
            protocol=mqtt.MQTTv311,
            clean_session=True,
        )
        if self.address.transport == "websockets":
            client.ws_set_options(path=self.address.path)
        if self._tls is not None:
            client.tls_set_context(self._tls)
        if username:
            client.username_pw_set(username, password or None)
        client.will_set(self.status_topic, OFFLINE, qos=1, retain=True)
        # paho annotates the delays as int but sleeps on floats.
        client.reconnect_delay_set(reconnect_min_s, reconnect_max_s)  # type: ignore[arg-type]
        client.max_inflight_messages_set(INFLIGHT_WINDOW)
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        self._client = client
        self._sender = threading.Thread(
            target=self._send_loop, name=f"publisher-{board_id}", daemon=True
        )
        self._sender.start()
        client.connect_async(self.address.host, self.address.port, keepalive=keepalive_s)
        client.loop_start()
        log.info("publishing %s to %s", self.topics.everything, self.address.url)

    @classmethod
    def from_config(
        cls, broker: BrokerConfig, board_id: str, *, url: str | None = None, **options: Any
    ) -> Publisher:
        """A publisher as [broker] says; `url` is the embedded broker's when [broker] has none."""
        return cls(
            broker.url or url or "",
            board_id=board_id,
            prefix=broker.prefix,
            **broker.login(),
            **options,
        )

    def _tls_context(self, ca_file: str, cert_file: str, key_file: str) -> ssl.SSLContext | None:
        return tls_context(self.address, ca_file, cert_file, key_file)

    # -- publishing -------------------------------------------------------------------------

    def _status(self, payload: str) -> Message:
        message = self.topics.message("status", payload)
        return replace(message, topic=self.status_topic)

    def publish(self, message: Message) -> None:
        """Queues `message` and returns at once, whether or not the broker is there."""
        with self._cond:
            if self._closing:
                log.debug("publisher closing: %s not sent", message.topic)
                return
            self._enqueue(message)
            self._cond.notify_all()

    def _enqueue(self, message: Message) -> None:
        """Under the lock: queues `message`, coalescing and making room as needed."""
        coalesced = message.retain or message.kind in _COALESCED
        if coalesced and self._waiting_topics.get(message.topic):
            self._remove_waiting(message.topic)
        if len(self._queue) >= self.queue_limit and not self._make_room() and not coalesced:
            self._dropped += 1  # only retained messages wait, each the latest of its topic
            return
        if message.retain:
            self._retained[message.topic] = message
        if coalesced:
            self._waiting_topics[message.topic] = 1
        self._queue.append(message)

    def _remove_waiting(self, topic: str) -> None:
        self._queue = deque(m for m in self._queue if m.topic != topic)
        self._waiting_topics.pop(topic, None)

    def _make_room(self) -> bool:
        for kind in _DROP_FIRST:
            if kind == "clock" and not self._waiting_topics.get(self.topics.clock):
                continue  # no reading waits: no need to look through the whole queue
            for i, waiting in enumerate(self._queue):
                if waiting.kind == kind:
                    del self._queue[i]
                    if kind in _COALESCED:
                        self._waiting_topics.pop(waiting.topic, None)
                    self._dropped += 1
                    if not self._warned_full:
                        self._warned_full = True
                        log.warning(
                            "the broker has been away for %d messages: dropping the oldest "
                            "events and clock readings (the latest state is kept)",
                            self.queue_limit,
                        )
                    return True
        return False

    def _can_send(self) -> bool:
        if not (self._connected and self._queue) or len(self._inflight) >= INFLIGHT_WINDOW:
            return False
        # Paho resends what was in flight when the connection broke; nothing overtakes it.
        return not (self._held and time.monotonic() < self._resume_at)

    def _send_loop(self) -> None:
        while True:
            with self._cond:
                while not self._stopping and not self._can_send():
                    self._cond.wait(0.1 if self._held else 1.0)
                if self._stopping:
                    return
                message = self._queue.popleft()
                if message.retain or message.kind in _COALESCED:
                    self._waiting_topics.pop(message.topic, None)
                self._handing_over = True
            try:
                info = self._client.publish(
                    message.topic, message.payload, message.qos, message.retain
                )
            except Exception:  # a message paho refuses must not stop the stream
                log.warning("paho refused a message for %s", message.topic, exc_info=True)
                with self._cond:
                    self._dropped += 1
                    self._handing_over = False
                    self._cond.notify_all()
                continue
            with self._cond:
                self._handing_over = False
                kept = info.rc == MQTTErrorCode.MQTT_ERR_SUCCESS or (
                    message.qos > 0 and info.rc == MQTTErrorCode.MQTT_ERR_NO_CONN
                )
                if not kept:
                    # A clock reading as the connection went: it is stale by the next one.
                    log.debug("not sent (%s): %s", mqtt.error_string(info.rc), message.topic)
                elif info.mid in self._early_acks:
                    self._early_acks.discard(info.mid)
                    self._acknowledged += 1
                else:
                    self._inflight[info.mid] = message
                    if not self._connected:
                        self._held.add(info.mid)  # paho resends it first when back
                self._cond.notify_all()

    # -- paho's callbacks (its network thread) ----------------------------------------------

    def _on_connect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: ConnectFlags,
        reason_code: ReasonCode,
        properties: Properties | None,
    ) -> None:
        if reason_code.is_failure:
            hint = (
                " (check [broker] username and password)"
                if reason_code.value in _AUTH_CODES
                else ""
            )
            self._set_problem(
                f"the broker at {self.address.url} refused the connection: "
                f"{reason_code.getName()}{hint}; retrying"
            )
            return
        with self._cond:
            self._connected = True
            self._connections += 1
            self._warned_full = False
            self._probed = False
            self._resume_at = time.monotonic() + RESEND_GRACE_S
            # Closing while the broker came back: the goodbye still stands.
            status = self._status(OFFLINE if self._closing else ONLINE)
            self._retained[status.topic] = status
            # Front of the queue: the status, then the latest message of every retained topic.
            front = [status, *(m for t, m in self._retained.items() if t != status.topic)]
            for retained in front:
                if self._waiting_topics.get(retained.topic):
                    self._remove_waiting(retained.topic)
                self._waiting_topics[retained.topic] = 1
            self._queue.extendleft(reversed(front))
            reconnection = self._connections > 1
            waiting = len(self._queue)
            self._problem = None
            self._cond.notify_all()
        if reconnection:
            log.info("broker %s is back: sending %d messages", self.address.url, waiting)
        else:
            log.info("connected to %s", self.address.url)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        with self._cond:
            probe = not self._probed
            self._probed = True
        if probe:
            self._set_problem(f"cannot connect to {self.address.url}: {self._diagnose()}; retrying")

    def _on_disconnect(
        self,
        client: mqtt.Client,
        userdata: Any,
        flags: DisconnectFlags,
        reason_code: ReasonCode,
        properties: Properties | None,
    ) -> None:
        with self._cond:
            was_connected = self._connected
            self._connected = False
            # QoS 0 messages not yet written are gone; QoS 1 ones stay with paho.
            self._inflight = {mid: m for mid, m in self._inflight.items() if m.qos > 0}
            self._held = set(self._inflight)
            self._early_acks.clear()
            closing = self._closing
            self._cond.notify_all()
        if was_connected and not closing:
            reason = "" if reason_code.value == 128 else f" ({reason_code.getName()})"
            log.warning(
                "lost the broker at %s%s: queueing until it is back", self.address.url, reason
            )

    def _on_publish(
        self,
        client: mqtt.Client,
        userdata: Any,
        mid: int,
        reason_code: ReasonCode,
        properties: Properties,
    ) -> None:
        with self._cond:
            if self._inflight.pop(mid, None) is not None:
                self._acknowledged += 1
            else:
                self._early_acks.add(mid)
            self._held.discard(mid)
            self._cond.notify_all()

    def _set_problem(self, text: str) -> None:
        with self._cond:
            new = text != self._problem
            self._problem = text
        if new:
            log.warning("%s", text)

    def _diagnose(self) -> str:
        return why_unreachable(self.address, self._tls)

    # -- state --------------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def problem(self) -> str | None:
        """The last connection problem, one line; None once connected."""
        return self._problem

    @property
    def dropped(self) -> int:
        return self._dropped

    def stats(self) -> PublisherStats:
        with self._cond:
            return PublisherStats(
                connected=self._connected,
                connections=self._connections,
                queued=len(self._queue),
                inflight=len(self._inflight),
                acknowledged=self._acknowledged,
                dropped=self._dropped,
            )

    def wait_connected(self, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self._connected, timeout)

    def wait_idle(self, timeout: float) -> bool:
        """Until everything published so far is acknowledged (or sent, for QoS 0)."""
        with self._cond:
            return self._cond.wait_for(
                lambda: (
                    self._connected
                    and not self._queue
                    and not self._handing_over
                    and not self._inflight
                ),
                timeout,
            )

    def close(self, timeout: float = CLOSE_TIMEOUT_S) -> None:
        """Publishes `offline`, waits up to `timeout` for the queue to empty if the broker
        is there, and disconnects cleanly (so the Last Will is not sent)."""
        with self._cond:
            if self._closing:
                return
            offline = self._status(OFFLINE)
            self._enqueue(offline)
            self._closing = True
            self._cond.notify_all()
        if self._connected:
            self.wait_idle(timeout)
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        self._sender.join(timeout)
        self._client.disconnect()
        self._client.loop_stop()
        self._closed = True
        log.info("stopped publishing to %s", self.address.url)
