"""`companion broker`: the embedded MQTT broker on its own, until Ctrl-C.

For a table whose companion runs elsewhere, or to watch a stream without a companion running:
`companion run` starts the same broker by itself when none is configured. docs/brokers.md.
"""

from __future__ import annotations

import argparse
import logging
import threading
from pathlib import Path
from typing import Any

from companion.config import load_config
from companion.stopping import restore_sigterm, stop_on_sigterm

# The same as companion/publish/broker.py's (a test says so), which is imported only to run.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 1883
DEFAULT_WS_PORT = 9001


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "broker",
        help="run the embedded MQTT broker (TCP and WebSockets) until Ctrl-C",
        description="Run the embedded MQTT broker until Ctrl-C. It binds loopback unless "
        "--host says otherwise (0.0.0.0: every interface, so other machines can watch).",
    )
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help="address to listen on (default: %(default)s)"
    )
    parser.add_argument(
        "--port", type=_port, default=DEFAULT_PORT, help="MQTT port (default: %(default)s)"
    )
    parser.add_argument(
        "--ws-port",
        type=_port,
        default=DEFAULT_WS_PORT,
        help="MQTT over WebSockets port, for the display page (default: %(default)s)",
    )
    parser.add_argument(
        "--no-websockets", action="store_true", help="no MQTT over WebSockets listener"
    )
    parser.add_argument(
        "--cert",
        metavar="FILE",
        help="a certificate for the WebSockets listener, which then speaks TLS (wss://)",
    )
    parser.add_argument("--key", metavar="FILE", help="the private key of --cert")
    parser.add_argument(
        "--open",
        action="store_true",
        help="let every client publish (by default only the table may: user 'table', with "
        "the password kept beside the games store)",
    )
    parser.add_argument(
        "-v", "--verbose", action="store_true", help="log connections and errors to stderr"
    )
    parser.set_defaults(run=run)


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"not a port number (0-65535): {port}")
    return port


def run(args: argparse.Namespace) -> int:
    # Imported here: amqtt is loaded only by the commands that run a broker.
    from companion.publish.broker import (
        TABLE_PASSWORD_FILE,
        BrokerError,
        EmbeddedBroker,
        table_password,
    )
    from companion.publish.broker_gate import TABLE_USER

    password: str | None = None
    lock = "every client may publish"
    if not args.open:
        store = load_config(Path(args.config) if args.config else None).store.resolved_path()
        password = table_password(store.parent)
        kept = store.parent / TABLE_PASSWORD_FILE
        lock = f"only the table publishes: user {TABLE_USER}, password in {kept}"

    if args.verbose:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
        for name in ("amqtt", "websockets.server"):
            logging.getLogger(name).setLevel(logging.INFO)
    ws_port = None if args.no_websockets else args.ws_port
    if bool(args.cert) != bool(args.key):
        raise BrokerError("--cert and --key go together: give both")
    certificate = (Path(args.cert), Path(args.key)) if args.cert else None
    stopping = threading.Event()
    previous = stop_on_sigterm(stopping)
    try:
        with EmbeddedBroker(
            host=args.host,
            port=args.port,
            ws_port=ws_port,
            table_password=password,
            ws_certificate=certificate,
        ) as broker:
            print(f"MQTT                  {broker.url}")
            if ws_port is not None:
                print(f"MQTT over WebSockets  {broker.ws_url}")
            print(lock)
            if args.host in ("0.0.0.0", "::", ""):
                print("listening on every interface of this machine")
            print("Ctrl-C stops the broker.", flush=True)
            while not stopping.wait(0.5):
                if not broker.running:
                    raise BrokerError("the embedded MQTT broker stopped by itself")
    except KeyboardInterrupt:
        pass
    finally:
        restore_sigterm(previous)
    return 0
