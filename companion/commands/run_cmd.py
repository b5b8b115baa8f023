"""`companion run`: the main job.

Until the touchscreen app exists, the main job is a whole refereed game between simulated
players, on simulated twins of the hardware, streamed live: the card reader is an emulated
module behind a pseudo-terminal, read by the real reader and checked by the session; a
virtual camera films every change to the board and the real board reader reads it back,
checked against the rules (companion/simulated_camera.py); the game goes out over MQTT (to
the configured broker, or to an embedded one started here) and the display page is served
for anyone to watch. `make run` starts it.
"""

from __future__ import annotations

import argparse
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.commands import simulate_cmd
from companion.config import Config, load_config
from companion.errors import UserError

if TYPE_CHECKING:
    from companion.observations import ScanDesk
    from companion.session import Referee

EMBEDDED_PORT = 1883
EMBEDDED_WS_PORT = 9001
DISPLAY_PORT = 8080


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "run", help="the main job: for now a simulated game on simulated hardware, streamed"
    )
    parser.add_argument(
        "--simulate",
        action="store_true",
        help="use simulated twins of every device (the only choice for now)",
    )
    parser.add_argument(
        "--reader",
        choices=("rdm6300", "pn532", "pico"),
        default="rdm6300",
        help="which card reader to emulate (default: %(default)s)",
    )
    parser.add_argument("--delay", type=float, default=0.0, help="seconds between moves")
    parser.add_argument("--seed", type=int, default=simulate_cmd.DEFAULT_SEED)
    simulate_cmd.add_quadrants_option(parser)
    simulate_cmd.add_camera_options(parser, on=True)
    parser.add_argument(
        "--no-stream",
        action="store_true",
        help="do not stream the game (no broker, no display page)",
    )
    parser.add_argument(
        "--display-port",
        type=int,
        default=DISPLAY_PORT,
        help="where the display page is served (default: %(default)s)",
    )
    parser.add_argument(
        "--linger",
        type=float,
        default=None,
        metavar="S",
        help="keep the stream and page up S seconds after the game (default: "
        "until Ctrl-C when run from a terminal, none otherwise)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    config = load_config(Path(args.config) if args.config else None)
    game = argparse.Namespace(
        config=args.config,
        seed=args.seed,
        mode="standard",
        deck=None,
        recall=(0.85, 0.6),
        delay=args.delay,
        record=None,
        no_store=False,
        quiet=False,
        reader=args.reader,
        quadrants=args.quadrants,
        camera=args.camera,
        camera_seed=args.camera_seed,
        camera_hands=args.camera_hands,
        camera_wrong_colour_at=args.camera_wrong_colour_at,
    )
    if args.no_stream:
        return simulate_cmd.run(game)
    with _Streaming(config, args.display_port) as streaming:
        code = simulate_cmd.run(game, attach=streaming.attach)
        linger = (
            args.linger
            if args.linger is not None
            else (float("inf") if sys.stdin.isatty() else 0.0)
        )
        if linger > 0:
            print(
                f"The game is over; the page stays up at {streaming.page_url} "
                + ("until Ctrl-C." if linger == float("inf") else f"for {linger:g} s."),
                flush=True,
            )
            threading.Event().wait(None if linger == float("inf") else linger)
    return code


class _Streaming:
    """The broker (embedded unless one is configured), the publisher and the display page."""

    def __init__(self, config: Config, display_port: int) -> None:
        self.config = config
        self.display_port = display_port
        self.broker: Any = None
        self.publisher: Any = None
        self.server: Any = None
        self.page_url = ""

    def __enter__(self) -> _Streaming:
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

    def attach(self, referee: Referee, scans: ScanDesk | None) -> Callable[[], None]:
        from companion.publish.stream import GameStream

        stream = GameStream(
            referee,
            self.publisher,
            board_id=self.config.game.board_id,
            scans=scans,
            home_assistant=self.config.broker.home_assistant,
        )

        def done() -> None:
            self.publisher.wait_idle(5.0)
            stream.close()

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
