"""The game on the air: the MQTT broker (an embedded one unless one is configured), the
publisher and the display page, for as long as a `with` block lasts.

    with Streaming(config, display_port=8080) as streaming:
        done = streaming.attach(referee, scans)      # stream this game
        ...
        done()
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.config import Config
from companion.errors import UserError

if TYPE_CHECKING:
    from companion.clock.game import GameClock
    from companion.observations import ScanDesk
    from companion.publish.stream import GameStream
    from companion.session import Referee

EMBEDDED_PORT = 1883
EMBEDDED_WS_PORT = 9001
DISPLAY_PORT = 8080


class Streaming:
    """The broker (embedded unless one is configured), the publisher and the display page."""

    def __init__(self, config: Config, display_port: int) -> None:
        self.config = config
        self.display_port = display_port
        self.broker: Any = None
        self.publisher: Any = None
        self.server: Any = None
        self.page_url = ""
        self.stream: GameStream | None = None

    def __enter__(self) -> Streaming:
        from companion.publish.publisher import Publisher
        from companion.web.server import DisplayConfig, serve

        broker_url = self.config.broker.url
        ws_url = broker_url if broker_url.startswith(("ws://", "wss://")) else ""
        if not broker_url:
            self.broker = _start_embedded_broker()
            broker_url, ws_url = self.broker.url, self.broker.ws_url
        board = self.config.game.board_id
        self.publisher = Publisher.from_config(self.config.broker, board, url=broker_url)
        display = DisplayConfig(broker=ws_url, prefix=self.config.broker.prefix, board=board)
        try:
            self.server, _ = serve("127.0.0.1", self.display_port, display)
        except OSError:
            self.server, _ = serve("127.0.0.1", 0, display)  # the usual port is taken
        self.page_url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        where = "an embedded broker" if self.broker is not None else "the configured broker"
        print(
            f"Streaming to {where} at {broker_url}; watch at {self.page_url} "
            f"(overlay: {self.page_url}?overlay=1, wall: {self.page_url}wall)",
            flush=True,
        )
        return self

    def attach(
        self, referee: Referee, scans: ScanDesk | None, clock: GameClock | None = None
    ) -> Callable[[], None]:
        """Streams a game (with its card scans and clock, when it has them) until the
        returned function is called; `stream` is its GameStream meanwhile."""
        from companion.publish.stream import GameStream

        stream = GameStream(
            referee,
            self.publisher,
            board_id=self.config.game.board_id,
            clock=clock,
            scans=scans,
            home_assistant=self.config.broker.home_assistant,
        )
        self.stream = stream

        def done() -> None:
            self.publisher.wait_idle(5.0)
            stream.close()
            if self.stream is stream:
                self.stream = None

        return done

    def __exit__(self, *exc: object) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
        if self.publisher is not None:
            self.publisher.close()
        if self.broker is not None:
            self.broker.close()


def _start_embedded_broker() -> Any:
    from companion.publish.broker import BrokerError, EmbeddedBroker

    broker = EmbeddedBroker(port=EMBEDDED_PORT, ws_port=EMBEDDED_WS_PORT)
    try:
        broker.start()
    except BrokerError:
        # Another broker (a system mosquitto, say) holds the usual ports: take free ones.
        broker = EmbeddedBroker(port=0, ws_port=0)
        try:
            broker.start()
        except BrokerError as err:
            raise UserError(f"cannot start the embedded broker: {err}") from None
    return broker
