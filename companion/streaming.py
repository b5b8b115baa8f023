"""The game on the air: the MQTT broker (an embedded one unless one is configured), the
publisher and the display page, for as long as a `with` block lasts.

    with Streaming(config, display_port=8080) as streaming:
        put_down = streaming.attach(parts_of(referee, reading))
        ...
        put_down()

The page, and the embedded broker's WebSocket listener the page talks to, are served on
every interface so that a phone, a TV or a streaming PC in the room can open the page; with
`local=True` only this machine can. The page finds the broker on its own host: see
companion/web/static/common.js. docs/display.md says what this exposes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from companion.config import Config
from companion.errors import UserError
from companion.lan import lan_address, page_url
from companion.publish.listener import Listener
from companion.table.assignment import Assignment, assignment_from, assignment_topic
from companion.table.private_pages import PrivateDesk, table_secret
from companion.table.wiring import GameParts, PutDown

if TYPE_CHECKING:
    from companion.publish.broker import EmbeddedBroker
    from companion.publish.publisher import Publisher
    from companion.publish.stream import GameStream
    from companion.web.server import DisplayServer

EMBEDDED_PORT = 1883
EMBEDDED_WS_PORT = 9001
DISPLAY_PORT = 8080
LOOPBACK = "127.0.0.1"
EVERY_INTERFACE = "0.0.0.0"


class Streaming:
    """The broker (embedded unless one is configured), the publisher and the display page."""

    def __init__(self, config: Config, display_port: int, *, local: bool = False) -> None:
        self.config = config
        self.display_port = display_port
        self.local = local
        self.broker: EmbeddedBroker | None = None
        self.publisher: Publisher | None = None
        self.server: DisplayServer | None = None
        self.page_url = ""
        """Where this machine opens the page."""
        self.room_url = ""
        """Where other devices on the network open the page; empty with `local`, or when
        the machine is on no network."""
        self.stream: GameStream | None = None
        self.private = PrivateDesk(table_secret(config.store.resolved_path().parent))
        """Each side's private page (companion/table/private_pages.py)."""
        self.listener: Listener | None = None
        self.assignment: Assignment | None = None
        """The game a tournament hub assigns this table, when one does."""
        self._on_assignment: Callable[[Assignment | None], None] | None = None
        self._assignments = threading.Lock()

    @property
    def shown_url(self) -> str:
        """The address to show people: the room's when there is one."""
        return self.room_url or self.page_url

    def private_links(self) -> list[tuple[str, str]]:
        """Each side's private page of the game in play: (its name, its address)."""
        return self.private.links(self.shown_url) if self.shown_url else []

    def __enter__(self) -> Streaming:
        from companion.publish.broker_gate import TABLE_USER
        from companion.publish.publisher import Publisher
        from companion.web.server import DisplayConfig, serve

        host = LOOPBACK if self.local else EVERY_INTERFACE
        broker_url = self.config.broker.url
        ws_url = broker_url if broker_url.startswith(("ws://", "wss://")) else ""
        login = self.config.broker
        if not broker_url:
            # Locked: the table publishes with its own password; pages may only read.
            password = self._table_password()
            self.broker = _start_embedded_broker(
                ws_host=host, password=password, certificate=_ws_certificate(self.config)
            )
            broker_url, ws_url = self.broker.url, self.broker.ws_url
            login = replace(login, username=TABLE_USER, password=password)
        elif login.username == TABLE_USER and not login.password:
            # A `companion broker` of this machine, locked with the same kept password.
            login = replace(login, password=self._table_password())
        board = self.config.game.board_id
        self.publisher = Publisher.from_config(login, board, url=broker_url)
        self.listener = Listener.start(
            broker_url,
            [assignment_topic(self.config.broker.prefix, board)],
            self._heard,
            username=login.username,
            password=login.password,
            ca_file=login.ca_file,
            cert_file=login.cert_file,
            key_file=login.key_file,
        )
        display = DisplayConfig(broker=ws_url, prefix=self.config.broker.prefix, board=board)
        store = self.config.store.resolved_path()  # its games can be stepped through
        moved = ""
        try:
            self.server, _ = serve(
                host, self.display_port, display, store=store, private=self.private
            )
        except OSError as err:
            self.server, _ = serve(host, 0, display, store=store, private=self.private)
            moved = (
                f"Port {self.display_port} is taken ({err.strerror}), so the page is on port "
                f"{self.server.port} instead."
            )
        port = self.server.port
        self.page_url = page_url(LOOPBACK, port)
        lan = None if self.local else lan_address()
        self.room_url = page_url(lan, port) if lan else ""
        where = "an embedded broker" if self.broker is not None else "the configured broker"
        print(f"Streaming to {where} at {broker_url}.", flush=True)
        if moved:
            print(moved, flush=True)
        if self.room_url:
            print(
                f"Display page: {self.room_url} on any device on this network "
                f"(overlay: {self.room_url}?overlay=1, wall: {self.room_url}wall).",
                flush=True,
            )
        else:
            print(
                f"Display page: {self.page_url} on this machine only "
                f"(overlay: {self.page_url}?overlay=1, wall: {self.page_url}wall).",
                flush=True,
            )
        return self

    def _table_password(self) -> str:
        from companion.publish.broker import table_password

        return table_password(self.config.store.resolved_path().parent)

    def attach(self, parts: GameParts) -> PutDown:
        """Streams a game (with its card scans and clock, when it has them) until the
        returned function is called; `stream` is its GameStream meanwhile."""
        from companion.publish.stream import GameStream

        publisher = self.publisher
        if publisher is None:
            raise RuntimeError("attach() needs the stream started (`with Streaming(...)`)")
        stream = GameStream(
            parts.referee,
            publisher,
            board_id=self.config.game.board_id,
            clock=parts.clock,
            scans=parts.scans,
            home_assistant=self.config.broker.home_assistant,
        )
        self.stream = stream
        private = self.private.attach(parts)

        def put_down() -> None:
            private()
            publisher.wait_idle(5.0)
            stream.close()
            if self.stream is stream:
                self.stream = None

        return put_down

    def follow_assignments(self, on_assignment: Callable[[Assignment | None], None]) -> None:
        """Calls `on_assignment` with the hub's assignment for this table as it is now, and
        (on the listener's thread) with each one after, or None when one is taken back."""
        with self._assignments:
            self._on_assignment = on_assignment
            on_assignment(self.assignment)

    def _heard(self, _topic: str, payload: bytes) -> None:
        with self._assignments:
            self.assignment = assignment_from(payload)
            if self._on_assignment is not None:
                self._on_assignment(self.assignment)

    def __exit__(self, *exc: object) -> None:
        if self.listener is not None:
            self.listener.close()
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
        if self.publisher is not None:
            self.publisher.close()
        if self.broker is not None:
            self.broker.close()


def _ws_certificate(config: Config) -> tuple[Path, Path] | None:
    broker = config.broker
    if not broker.wss_cert_file and not broker.wss_key_file:
        return None
    if not broker.wss_cert_file or not broker.wss_key_file:
        raise UserError("[broker] wss_cert_file and wss_key_file go together: set both")
    return Path(broker.wss_cert_file).expanduser(), Path(broker.wss_key_file).expanduser()


def _start_embedded_broker(
    ws_host: str, password: str, certificate: tuple[Path, Path] | None
) -> EmbeddedBroker:
    """The embedded broker, locked with the table's password: MQTT for the publisher on
    loopback only; MQTT over WebSockets, which the pages use, on `ws_host`, over TLS with
    `certificate`."""
    from companion.publish.broker import BrokerError, CertificateError, EmbeddedBroker

    def start(port: int, ws_port: int) -> EmbeddedBroker:
        broker = EmbeddedBroker(
            port=port,
            ws_port=ws_port,
            ws_host=ws_host,
            table_password=password,
            ws_certificate=certificate,
        )
        broker.start()
        return broker

    try:
        return start(EMBEDDED_PORT, EMBEDDED_WS_PORT)
    except CertificateError as err:
        raise UserError(f"cannot start the embedded broker: {err}") from None
    except BrokerError:
        # Another broker (a system mosquitto, say) holds the usual ports: take free ones.
        try:
            return start(0, 0)
        except BrokerError as err:
            raise UserError(f"cannot start the embedded broker: {err}") from None
