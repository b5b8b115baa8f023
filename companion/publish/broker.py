"""The embedded MQTT broker: streaming works with nothing else installed.

    with EmbeddedBroker() as broker:          # 127.0.0.1:1883, websockets on 127.0.0.1:9001
        broker.url                            # mqtt://127.0.0.1:1883
        broker.ws_url                         # ws://127.0.0.1:9001 (the display page's address)

    broker = EmbeddedBroker(port=0, ws_port=0)   # 0: any free port; broker.port says which
    broker.start()
    ...
    broker.stop()

It is amqtt (pure Python, MQTT 3.1.1) running in a background thread with its own asyncio
loop, bound to loopback unless told otherwise, with anonymous access and nothing kept on disk:
retained messages live as long as the broker. A production table runs mosquitto instead
(docs/brokers.md says why and when; docs/mqtt.md has its configuration).

amqtt 0.12.1 has two bugs that matter here, both fixed below (`_broker_class`) and tested in
tests/broker:

- it sends a newly connected client the retained messages that match *any* client's
  subscriptions, before it has subscribed to anything: a display of table 1 would get table
  2's state. A client now gets only the retained messages of subscriptions it holds itself.
- it never drops a client that has gone silent past its keep-alive (a board whose power or
  network was cut), so that client's Last Will is never sent. Such a client is now dropped
  after 1.5 keep-alive periods, as MQTT says, and its will goes out.

Locked (`EmbeddedBroker(table_password=...)`, as `app`, `run` and `companion broker` start
it): only the table, logged in as "table" with its password, may publish; every other client
may only subscribe (companion/publish/broker_gate.py). Whatever the lock, the broker refuses
an MQTT packet over MAX_PACKET_BYTES, a WebSocket from a page whose Origin is not this
machine (or a name given in `page_names`), more than MAX_CONNECTIONS clients on a listener,
and a connection that has not sent CONNECT within LOGIN_TIMEOUT_S.

Errors a user can cause (a port in use, an address not on this machine) are `BrokerError`,
a UserError: one line, no traceback.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import errno
import functools
import logging
import math
import os
import secrets
import socket
import ssl
import threading
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any, Self

from companion.errors import UserError
from companion.lan import is_this_machine
from vision.common.closing import Closing

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 1883
DEFAULT_WS_PORT = 9001
START_TIMEOUT_S = 10.0
STOP_TIMEOUT_S = 10.0
KEEPALIVE_GRACE = 1.5
MAX_PACKET_BYTES = 1024 * 1024
"""The largest MQTT packet taken: a game's state is tens of kilobytes."""
MAX_CONNECTIONS = 100
"""Clients per listener: a busy room's phones, walls and overlays, with room to spare."""
LOGIN_TIMEOUT_S = 10.0
"""How long a new connection may take to send its CONNECT."""
TABLE_PASSWORD_FILE = "broker-password"

_TCP_LISTENER = "default"  # amqtt requires a listener of this name
_WS_LISTENER = "ws"
_WILDCARD_HOSTS = {"", "0.0.0.0", "::"}

log = logging.getLogger(__name__)


class BrokerError(UserError):
    """The embedded broker cannot start: a port in use, an address not on this machine, ..."""


class CertificateError(BrokerError):
    """The WebSockets listener's certificate or key cannot be used."""


@dataclass(frozen=True)
class Limits:
    """What the broker refuses, whatever its lock."""

    page_names: frozenset[str] = frozenset()
    """Names besides this machine's own that a page's Origin may carry."""
    max_connections: int = MAX_CONNECTIONS
    login_timeout_s: float = LOGIN_TIMEOUT_S
    refused: dict[str, int] = field(default_factory=dict, compare=False)
    """Counts of what was refused, by kind: 'origin', 'connections', 'login', 'takeover'."""

    def count(self, kind: str) -> None:
        self.refused[kind] = self.refused.get(kind, 0) + 1


def table_password(folder: Path) -> str:
    """The password the table publishes with, made at the first start and kept, readable
    by this user only, in `folder` (beside the games store)."""
    path = folder / TABLE_PASSWORD_FILE
    try:
        kept = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        kept = ""
    except (OSError, UnicodeDecodeError) as err:
        raise BrokerError(f"cannot read the broker password in {path}: {err}") from None
    if kept:
        return kept
    made = secrets.token_urlsafe(24)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as out:
            out.write(made + "\n")
    except OSError as err:
        raise BrokerError(f"cannot keep the broker password in {path}: {err}") from None
    return made


class EmbeddedBroker(Closing):
    """An MQTT broker inside this process: TCP on `port`, MQTT over WebSockets on `ws_port`.

    `ws_port=None` leaves the websockets listener out; a port of 0 takes any free port (the
    `port` and `ws_port` attributes hold the real ones once started). The websockets
    listener binds `ws_host` (by default `host`): the display pages of a room's devices
    need it on the network while the publisher's TCP stays on this machine.
    """

    def __init__(
        self,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        ws_port: int | None = DEFAULT_WS_PORT,
        ws_host: str | None = None,
        *,
        table_password: str | None = None,
        limits: Limits | None = None,
        ws_certificate: tuple[Path, Path] | None = None,
    ) -> None:
        """`table_password`: lock the broker, so that only a client logged in as "table"
        with it may publish; None leaves publishing open to every client.
        `ws_certificate`: (certificate file, key file) for the WebSockets listener, which
        then speaks TLS (wss://)."""
        self.table_password = table_password
        self.ws_certificate = ws_certificate
        self.limits = limits or Limits()
        self.host = host
        self.ws_host = host if ws_host is None else ws_host
        self.port = port
        self.ws_port = ws_port
        self._asked = (port, ws_port)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._broker: Any = None  # amqtt's Broker, once started

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        """Listens on the ports, or raises BrokerError; returns once clients can connect."""
        if self.running:
            return
        self.port, self.ws_port = self._asked
        ws_tls = _server_tls(self.ws_certificate) if self.ws_certificate else None
        for host, port, what in self._listeners():
            _check_free(host, port, what)
        _quiet_amqtt_logs()
        ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(
            target=self._serve, args=(ready, ws_tls), name="embedded-mqtt-broker", daemon=True
        )
        self._thread.start()
        try:
            ready.result(timeout=START_TIMEOUT_S)
        except concurrent.futures.TimeoutError:
            self.stop()
            raise BrokerError(
                f"the embedded MQTT broker did not start within {START_TIMEOUT_S:g} s"
            ) from None
        except BrokerError:
            self._thread.join(STOP_TIMEOUT_S)
            self._thread = None
            raise

    def stop(self) -> None:
        """Disconnects every client and closes the listeners; start() starts afresh."""
        loop, thread, broker = self._loop, self._thread, self._broker
        self._broker = None
        if loop is not None and broker is not None and loop.is_running():
            shutdown = asyncio.run_coroutine_threadsafe(broker.shutdown(), loop)
            try:
                shutdown.result(timeout=STOP_TIMEOUT_S)
            except Exception as err:  # a broker that fails to stop is still stopped below
                log.debug("embedded broker shutdown: %r", err)
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop had already closed
                loop.call_soon_threadsafe(loop.stop)
        if thread is not None:
            thread.join(STOP_TIMEOUT_S)
        self._thread = None
        self._loop = None

    def close(self) -> None:
        self.stop()

    def __enter__(self) -> Self:
        self.start()
        return self

    @property
    def running(self) -> bool:
        return self._broker is not None and self._thread is not None and self._thread.is_alive()

    # -- addresses -------------------------------------------------------------------------

    @property
    def connect_host(self) -> str:
        """Where a client on this machine connects: loopback when bound to every interface."""
        if self.host in _WILDCARD_HOSTS:
            return "::1" if self.host == "::" else "127.0.0.1"
        return self.host

    @property
    def url(self) -> str:
        return f"mqtt://{_url_host(self.connect_host)}:{self.port}"

    @property
    def ws_url(self) -> str:
        if self.ws_port is None:
            raise BrokerError("this broker has no websockets listener")
        scheme = "wss" if self.ws_certificate else "ws"
        return f"{scheme}://{_url_host(self.connect_host)}:{self.ws_port}"

    def bound_addresses(self) -> list[tuple[str, int]]:
        """(address, port) of every listening socket, while running."""
        broker = self._broker
        if broker is None:
            return []
        return [
            (str(name[0]), int(name[1]))
            for server in list(broker._servers.values())
            for name in (sock.getsockname() for sock in server.instance.sockets)
        ]

    # -- the broker's thread ---------------------------------------------------------------

    def _listeners(self) -> list[tuple[str, int, str]]:
        listeners = [(self.host, self.port, "MQTT")]
        if self.ws_port is not None:
            listeners.append((self.ws_host, self.ws_port, "MQTT over WebSockets"))
        return listeners

    def _config(self) -> dict[str, Any]:
        listeners: dict[str, Any] = {
            _TCP_LISTENER: {"type": "tcp", "bind": f"{_url_host(self.host)}:{self.port}"},
        }
        if self.ws_port is not None:
            listeners[_WS_LISTENER] = {
                "type": "ws",
                "bind": f"{_url_host(self.ws_host)}:{self.ws_port}",
            }
        plugins: dict[str, Any]
        if self.table_password is None:
            plugins = {
                "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}
            }
        else:
            lock = {"password": self.table_password}
            plugins = {
                "companion.publish.broker_gate.TableLogin": lock,
                "companion.publish.broker_gate.ReadOnlyVisitors": lock,
            }
        # No $SYS topics, no packet or event logging plugins.
        return {"listeners": listeners, "plugins": plugins}

    def _serve(self, ready: concurrent.futures.Future[None], ws_tls: ssl.SSLContext | None) -> None:
        loop = asyncio.new_event_loop()
        loop.set_exception_handler(_log_loop_error)
        asyncio.set_event_loop(loop)
        self._loop = loop
        try:
            try:
                self._broker = loop.run_until_complete(self._start_broker(ws_tls))
            except BaseException as err:
                ready.set_exception(self._start_error(err))
                return
            ready.set_result(None)
            loop.run_forever()
        finally:
            _cancel_leftovers(loop)
            loop.close()

    async def _start_broker(self, ws_tls: ssl.SSLContext | None) -> Any:
        broker = _broker_class()(self._config())
        broker.limits = self.limits
        broker.ws_tls = ws_tls
        broker.table_password = self.table_password
        broker._displaced = {}
        broker._tables = {}
        try:
            await broker.start()
        except BaseException:
            for server in broker._servers.values():  # the listeners that did open
                await server.close_instance()
            raise
        servers = broker._servers
        self.port = _bound_port(servers[_TCP_LISTENER].instance)
        if self.ws_port is not None:
            self.ws_port = _bound_port(servers[_WS_LISTENER].instance)
        return broker

    def _start_error(self, err: BaseException) -> BrokerError:
        """amqtt wraps a failed bind in its own BrokerError: one clear line instead."""
        if isinstance(err, BrokerError):
            return err
        cause: BaseException | None = err
        while cause is not None and not isinstance(cause, OSError):
            cause = cause.__cause__
        if isinstance(cause, OSError):
            # Taken between the check in start() and the bind: the check now says which.
            try:
                hosts = (self.host, self.ws_host)
                names = ("MQTT", "MQTT over WebSockets")
                for host, port, what in zip(hosts, self._asked, names, strict=True):
                    if port is not None:
                        _check_free(host, port, what)
            except BrokerError as taken:
                return taken
            return BrokerError(f"the embedded MQTT broker cannot listen: {cause}")
        return BrokerError(f"the embedded MQTT broker did not start: {err}")


@functools.cache
def _broker_class() -> type[Any]:
    """amqtt's Broker, less two bugs (see the module's docstring); amqtt is imported here, on
    first use, so that importing this module costs nothing."""
    from amqtt.broker import Broker
    from amqtt.errors import NoDataError
    from amqtt.mqtt.protocol.broker_handler import BrokerProtocolHandler

    from companion.publish.broker_gate import is_table

    patched = (
        (Broker, "_publish_retained_messages_for_subscription"),
        (Broker, "_initialize_client_session"),
        (Broker, "_handle_client_session"),
        (Broker, "_delete_session"),
        (BrokerProtocolHandler, "handle_read_timeout"),
    )
    used = ((Broker, "_del_all_subscriptions"),)
    if not all(name in vars(cls) for cls, name in patched) or not all(
        hasattr(cls, name) for cls, name in used
    ):
        raise BrokerError(
            "this amqtt is not the one companion/publish/broker.py patches (pyproject.toml pins it)"
        )
    # A client silent for its keep-alive period: amqtt logs it and keeps waiting.
    BrokerProtocolHandler.handle_read_timeout = _drop_silent_client
    _limit_packet_size()

    class _FixedBroker(Broker):  # type: ignore[misc]
        async def _publish_retained_messages_for_subscription(
            self, subscription: tuple[str, int], session: Any
        ) -> None:
            """Called on SUBSCRIBE for the new subscription, and on CONNECT for every
            subscription of every client: only a filter the session holds itself gets
            retained messages (MQTT 3.1.1, 3.3.1.3)."""
            holders = self._subscriptions.get(subscription[0], ())
            if any(holder.client_id == session.client_id for holder, _qos in holders):
                await super()._publish_retained_messages_for_subscription(subscription, session)

        limits: Limits

        async def _initialize_client_session(
            self, reader: Any, writer: Any, *args: Any
        ) -> tuple[Any, Any]:
            """A client is dropped after 1.5 times its keep-alive without a packet (MQTT
            3.1.1, 3.1.2.10), not 1.0: a ping that comes a little late is not a dead client.
            One that sends no CONNECT within the login timeout is dropped at once."""
            try:
                handler, session = await asyncio.wait_for(
                    super()._initialize_client_session(reader, writer, *args),
                    self.limits.login_timeout_s,
                )
            except TimeoutError:
                self.limits.count("login")
                await writer.close()
                raise NoDataError("no CONNECT in time") from None
            if session.keep_alive > 0:
                session.keep_alive = math.ceil(session.keep_alive * KEEPALIVE_GRACE)
            return handler, session

        table_password: str | None = None
        ws_tls: ssl.SSLContext | None = None
        _displaced: dict[str, tuple[Any, Any]]
        """Connected sessions a new CONNECT with the same client id has put aside, by client
        id, until that newcomer is let in (and the old connection dropped) or refused."""
        _tables: dict[str, dict[str, Any]]
        """The table's connections by client id, with what their CONNECT said."""

        async def _delete_session(self, client_id: str) -> None:
            """A clean-session CONNECT forgets the session of its client id: amqtt also forgets
            a session whose client is still connected, and never disconnects it. Such a
            session is put aside instead, for _handle_client_session to settle."""
            held = self._sessions.get(client_id)
            if held is not None and held[0].transitions.is_connected():
                self._displaced[client_id] = self._sessions.pop(client_id)
                return
            await super()._delete_session(client_id)

        async def _handle_client_session(
            self, reader: Any, writer: Any, session: Any, handler: Any, *args: Any
        ) -> None:
            """A CONNECT with the client id of a connected client takes its place: the old
            connection is dropped, without its will (MQTT 3.1.1, 3.1.4-2). Only the table may
            take the place of a table, so a page cannot knock the table off the broker."""
            client_id = session.client_id
            held = self._displaced.pop(client_id, None)
            if held is None and session.transitions.is_connected():
                held = self._sessions.get(client_id)  # a resumed session, still connected
            if held is not None:
                old_session, old_handler = held
                if not self._may_take_over(client_id, session):
                    self._keep_table(client_id, held)
                    self.limits.count("takeover")
                    log.info("a connection asking for the table's client id refused")
                    writer.write(_CONNACK_IDENTIFIER_REJECTED)
                    with contextlib.suppress(Exception):  # it may have gone already
                        await writer.drain()
                    await writer.close()
                    return
                old_session.will_flag = False
                _abort(old_handler)
                if old_session is not session:
                    await self._del_all_subscriptions(old_session)
                    old_session.clear_queues()
            self._tables.pop(client_id, None)
            if self.table_password is not None and is_table(session, self.table_password):
                self._tables[client_id] = _login_of(session)
            await super()._handle_client_session(reader, writer, session, handler, *args)

        def _may_take_over(self, client_id: str, new: Any) -> bool:
            if self.table_password is None or client_id not in self._tables:
                return True
            return bool(is_table(new, self.table_password))

        def _keep_table(self, client_id: str, held: tuple[Any, Any]) -> None:
            """Undoes a refused CONNECT: amqtt had already forgotten the table's session (a
            clean session) or written the newcomer's login over it (a resumed one)."""
            session = held[0]
            self._sessions[client_id] = held
            for name, value in self._tables[client_id].items():
                setattr(session, name, value)

        async def _client_connected(self, listener_name: str, reader: Any, writer: Any) -> None:
            """Past the connection limit, a client is turned away rather than kept waiting."""
            server = self._servers.get(listener_name)
            if server is not None and server.conn_count >= self.limits.max_connections:
                self.limits.count("connections")
                await writer.close()
                return
            await super()._client_connected(listener_name, reader, writer)

        async def _create_server_instance(
            self, listener_name: str, listener_type: Any, address: Any, port: int, tls: Any
        ) -> Any:
            """The WebSockets listener answers only pages of this machine (see Limits), over
            TLS when the broker has a certificate for it."""
            if listener_type != "ws":
                return await super()._create_server_instance(
                    listener_name, listener_type, address, port, tls
                )
            import websockets

            limits = self.limits

            def check_origin(connection: Any, request: Any) -> Any:
                origin = request.headers.get("Origin")
                if origin is None or _page_of_this_machine(origin, limits.page_names):
                    return None
                limits.count("origin")
                return connection.respond(HTTPStatus.FORBIDDEN, "not a page of this table\n")

            return await websockets.serve(
                functools.partial(self.ws_connected, listener_name=listener_name),
                address,
                port,
                ssl=self.ws_tls,
                subprotocols=[websockets.Subprotocol("mqtt")],
                process_request=check_origin,
                max_size=MAX_PACKET_BYTES + 16,
            )

    return _FixedBroker


_CONNACK_IDENTIFIER_REJECTED = bytes([0x20, 0x02, 0x00, 0x02])
"""MQTT 3.1.1, 3.2.2.3: CONNACK, no session present, return code 2."""
_LOGIN_FIELDS = (
    "username",
    "password",
    "keep_alive",
    "will_flag",
    "will_topic",
    "will_message",
    "will_qos",
    "will_retain",
)


def _login_of(session: Any) -> dict[str, Any]:
    """What a CONNECT wrote into a session, for _keep_table."""
    return {name: getattr(session, name) for name in _LOGIN_FIELDS}


def _page_of_this_machine(origin: str, names: frozenset[str]) -> bool:
    from urllib.parse import urlsplit

    try:
        host = urlsplit(origin).hostname or ""
    except ValueError:
        return False
    return host in names or is_this_machine(host)


def _limit_packet_size() -> None:
    """A packet that says it is longer than MAX_PACKET_BYTES is read as the end of the
    connection, before a byte of it is buffered."""
    from amqtt.mqtt.packet import MQTTFixedHeader

    if getattr(MQTTFixedHeader.from_stream, "limited", False):
        return
    read_header = MQTTFixedHeader.from_stream.__func__

    async def from_stream(cls: Any, reader: Any) -> Any:
        header = await read_header(cls, reader)
        if header is not None and header.remaining_length > MAX_PACKET_BYTES:
            log.info("a packet of %d bytes refused", header.remaining_length)
            return None
        return header

    from_stream.limited = True  # type: ignore[attr-defined]
    MQTTFixedHeader.from_stream = classmethod(from_stream)


def _drop_silent_client(handler: Any) -> None:
    """Replaces amqtt's do-nothing BrokerProtocolHandler.handle_read_timeout: the connection
    is aborted, the reader sees it end, and the broker sends the client's Last Will."""
    log.debug("dropping %s: silent for 1.5 keep-alive periods", handler.session.client_id)
    _abort(handler)


def _abort(handler: Any) -> None:
    """Ends a client's connection at once, TCP or WebSocket; its reader then sees it end."""
    writer = handler.writer
    stream = getattr(writer, "_writer", None) or getattr(writer, "_protocol", None)
    transport = getattr(stream, "transport", None)
    if transport is not None:
        transport.abort()


def _server_tls(certificate: tuple[Path, Path]) -> ssl.SSLContext:
    """A TLS server context with the certificate and its key, or one line on why not."""
    cert_file, key_file = certificate
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(cert_file, key_file)
    except (OSError, ssl.SSLError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise CertificateError(
            f"cannot use the certificate {cert_file} with the key {key_file}: {reason}"
        ) from None
    return context


def _check_free(host: str, port: int, what: str) -> None:
    """Binds where the broker will, as asyncio does (SO_REUSEADDR), so a taken port is one line."""
    if port == 0:
        return
    try:
        infos = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as err:
        raise BrokerError(f"cannot listen on {host!r}: {err.strerror}") from None
    for family, kind, proto, _name, address in infos:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(address)
            except OSError as err:
                raise _bind_error(host, port, what, err) from None


def _bind_error(host: str, port: int, what: str, err: OSError) -> BrokerError:
    where = f"{_url_host(host or '0.0.0.0')}:{port}"
    if err.errno == errno.EADDRINUSE:
        return BrokerError(
            f"cannot listen on {where} ({what}): the port is already in use"
            " (another MQTT broker? choose another port, or use that broker)"
        )
    if err.errno == errno.EACCES:
        return BrokerError(f"cannot listen on {where} ({what}): permission denied")
    if err.errno == errno.EADDRNOTAVAIL:
        return BrokerError(f"cannot listen on {where} ({what}): no such address on this machine")
    return BrokerError(f"cannot listen on {where} ({what}): {err.strerror or err}")


def _bound_port(server: Any) -> int:
    return int(server.sockets[0].getsockname()[1])


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _quiet_amqtt_logs() -> None:
    """amqtt logs a client that connects without speaking MQTT (a port probe) as an error, and
    a failed start with a traceback; websockets logs a probe of the WebSockets port with a
    traceback. Unless someone set these loggers' levels, only critical messages get through."""
    for name in ("amqtt", "transitions", "websockets.server"):
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.CRITICAL)


def _log_loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    log.debug("embedded broker loop: %s", context.get("message"), exc_info=context.get("exception"))


def _cancel_leftovers(loop: asyncio.AbstractEventLoop) -> None:
    tasks = asyncio.all_tasks(loop)
    for task in tasks:
        task.cancel()
    if tasks:
        loop.run_until_complete(asyncio.gather(*tasks, return_exceptions=True))
    loop.run_until_complete(loop.shutdown_asyncgens())
