"""`companion display`: serve the live board page, the OBS overlay and the tournament wall.

The pages subscribe to the MQTT stream over WebSockets in the browser; this command only
serves them (see docs/display.md). Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from companion.config import load_config
from companion.errors import UserError
from companion.stopping import restore_sigterm, stop_on_sigterm
from companion.web.server import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    DEFAULT_PREFIX,
    DisplayConfig,
    serve,
)


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "display",
        help="serve the live board page, the OBS overlay and the tournament wall",
        description="Serve the live board page (/), the OBS overlay (/?overlay=1) and the "
        "tournament wall (/wall). The pages read the MQTT stream over WebSockets.",
    )
    parser.add_argument(
        "--broker",
        metavar="URL",
        help="the broker's MQTT-over-WebSockets URL, ws://HOST:PORT or wss://... (default: "
        "[broker] url when it is a ws:// or wss:// URL, else the page's own host, port 9001)",
    )
    parser.add_argument(
        "--prefix", help=f"topic prefix (default: [broker] prefix, or {DEFAULT_PREFIX})"
    )
    parser.add_argument(
        "--board", help="the board to show (default: game.board_id from the configuration)"
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help="address to listen on (default: %(default)s; 0.0.0.0 for other screens)",
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help="port to listen on (default: %(default)s)"
    )
    parser.add_argument("--username", help="broker username, handed to the pages")
    parser.add_argument(
        "--password",
        help="broker password, handed to every page that asks: use a read-only broker user",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    settings = load_config(Path(args.config) if args.config else None)
    broker = args.broker
    if broker is None:
        # The board's own broker URL when the browser can use it; never the board's
        # credentials: a board's user may write, and a page hands its password to anyone.
        url = settings.broker.url
        broker = url if url.startswith(("ws://", "wss://")) else ""
    config = DisplayConfig(
        broker=broker,
        prefix=args.prefix or settings.broker.prefix or DEFAULT_PREFIX,
        board=args.board or settings.game.board_id,
        username=args.username,
        password=args.password,
    )
    problems = config.problems()
    if problems:
        raise UserError("; ".join(problems))
    if not 0 <= args.port <= 65535:
        raise UserError(f"--port must be 0..65535, not {args.port}")
    try:
        server, thread = serve(args.host, args.port, config)
    except OSError as err:
        reason = err.strerror or str(err)
        raise UserError(f"cannot listen on {args.host}:{args.port}: {reason}") from None
    # Ready for SIGTERM before anyone is told where the page is.
    stopping = threading.Event()
    previous = stop_on_sigterm(stopping)
    url = server.url
    print(f"Display: {url}", flush=True)
    print(f"Overlay: {url}?overlay=1   Wall: {url}wall", flush=True)
    # An empty broker means the page's own host, port 9001 (companion/web/static/common.js).
    broker_seen = config.broker or f"ws://{urlsplit(url).hostname}:9001"
    print(f"Board {config.board} under {config.prefix}/ on {broker_seen}", flush=True)
    print("Ctrl-C stops.", flush=True)
    try:
        while thread.is_alive() and not stopping.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        restore_sigterm(previous)
        server.shutdown()
        server.server_close()
    return 0
