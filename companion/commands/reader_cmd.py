"""`companion reader listen|detect`: watch a card reader, or find which reader is where.

    companion reader listen --port /dev/serial0 --protocol rdm6300
    {"event": "presented", "tag": "0A1B2C3D4E", "t": 1.234567, "reader": "rdm6300"}
    {"event": "removed", "tag": "0A1B2C3D4E", "t": 2.5, "reader": "rdm6300"}

    companion reader detect            # every serial port, every protocol
    companion reader detect --port /dev/ttyUSB0 --timeout 2

See docs/card-readers.md.
"""

from __future__ import annotations

import argparse
import json
import queue
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import serial
from serial.tools import list_ports

from companion.config import Config, load_config
from companion.devices.cardreader.events import (
    ButtonSeen,
    CardEvent,
    CardPresented,
    Observation,
)
from companion.devices.cardreader.probe import DETECT_ORDER, probe, reason
from companion.devices.cardreader.reader import CardReader
from companion.devices.cardreader.registry import PROTOCOLS, make_protocol, protocol_available
from companion.errors import UserError

DEFAULT_DETECT_TIMEOUT_S = 1.0


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "reader",
        help="watch a card reader (RDM6300, PN532, Pico), or find which port has one",
        description="Card readers on serial ports. See docs/card-readers.md.",
    )
    actions = parser.add_subparsers(dest="reader_action", metavar="ACTION")
    actions.required = True

    listen = actions.add_parser(
        "listen",
        help="print a JSON line for every card presented or removed (and button pressed)",
        description="Print one JSON object per line for every card presented or removed, and "
        "every button on a Pico board, until Ctrl-C or --duration. The port and protocol "
        "default to the [reader] section of the configuration.",
    )
    listen.add_argument("--port", help="serial port (default: [reader] port)")
    listen.add_argument(
        "--protocol", choices=sorted(PROTOCOLS), help="reader protocol (default: [reader] protocol)"
    )
    listen.add_argument(
        "--silence-ms",
        type=int,
        metavar="N",
        help="a card unseen for N ms has been removed (default: [reader] silence_ms)",
    )
    listen.add_argument(
        "--duration", type=float, metavar="S", help="stop after S seconds (default: never)"
    )
    listen.set_defaults(run=_listen)

    detect = actions.add_parser(
        "detect",
        help="list serial ports and try each reader protocol on them",
        description="List the serial ports and try each reader protocol on each: a PN532 "
        "must acknowledge SAMConfiguration, a Pico must say hello, an RDM6300 must send a "
        "valid frame (so lay a card on it).",
    )
    detect.add_argument("--port", help="try only this port (any path, e.g. a pseudo-terminal)")
    detect.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_DETECT_TIMEOUT_S,
        metavar="S",
        help=f"how long to try each protocol (default: {DEFAULT_DETECT_TIMEOUT_S} s)",
    )
    detect.set_defaults(run=_detect)


def _config(args: argparse.Namespace) -> Config:
    return load_config(Path(args.config) if args.config else None)


# ---- listen ---------------------------------------------------------------------------------


def _listen(args: argparse.Namespace) -> int:
    config = _config(args)
    port = args.port or config.reader.port
    if not port:
        raise UserError("no card reader port: give --port, or set port in the [reader] section")
    protocol = make_protocol(args.protocol or config.reader.protocol)
    silence_ms = config.reader.silence_ms if args.silence_ms is None else args.silence_ms
    if silence_ms <= 0:
        raise UserError(f"the silence must be more than 0 ms, got {silence_ms}")
    if args.duration is not None and args.duration <= 0:
        raise UserError(f"--duration must be more than 0, got {args.duration}")

    lines: queue.Queue[dict[str, object]] = queue.Queue()
    started_ns = time.monotonic_ns()

    def seconds(t_ns: int) -> float:
        return round((t_ns - started_ns) / 1e9, 6)

    def on_event(event: CardEvent) -> None:
        lines.put(
            {
                "event": "presented" if isinstance(event, CardPresented) else "removed",
                "tag": event.tag,
                "t": seconds(event.t_ns),
                "reader": event.reader,
            }
        )

    def on_observation(observation: Observation) -> None:
        if isinstance(observation, ButtonSeen):
            lines.put(
                {
                    "event": "button",
                    "button": observation.button,
                    "pressed": observation.pressed,
                    "device_us": observation.device_us,
                    "t": seconds(observation.t_ns),
                    "reader": protocol.name,
                }
            )

    reader = CardReader(
        port,
        protocol,
        on_event=on_event,
        on_observation=on_observation,
        silence_ns=silence_ms * 1_000_000,
    )
    try:
        reader.start()
    except (serial.SerialException, OSError) as err:
        raise UserError(f"cannot open {port}: {reason(err)}") from None
    deadline = None if args.duration is None else time.monotonic() + args.duration
    try:
        while deadline is None or time.monotonic() < deadline:
            wait = 0.1 if deadline is None else max(0.0, min(0.1, deadline - time.monotonic()))
            try:
                line = lines.get(timeout=wait)
            except queue.Empty:
                continue
            print(json.dumps(line), flush=True)
    except KeyboardInterrupt:
        return 0  # Ctrl-C is how listening ends
    finally:
        reader.close()
    while not lines.empty():  # what arrived as the duration ran out
        print(json.dumps(lines.get_nowait()), flush=True)
    return 0


# ---- detect ---------------------------------------------------------------------------------


def _detect(args: argparse.Namespace) -> int:
    if args.timeout <= 0:
        raise UserError(f"--timeout must be more than 0, got {args.timeout}")
    if args.port:
        ports = [(args.port, "")]
    else:
        ports = [(info.device, info.description or "") for info in list_ports.comports()]
    if not ports:
        print("no serial ports found")
        return 0
    names = [name for name in DETECT_ORDER if protocol_available(name)]
    rows: list[tuple[str, str, str, str]] = []
    for device, description in ports:
        for name in names:
            found, result = probe(device, name, args.timeout)
            rows.append((device, description or "-", name, result))
            if found:
                break  # one device to a port
    _print_table(("PORT", "DESCRIPTION", "PROTOCOL", "RESULT"), rows)
    return 0


def _print_table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> None:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header) - 1)]
    for row in [header, *rows]:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        print("  ".join([*cells, row[-1]]))
