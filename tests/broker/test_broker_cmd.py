"""`companion broker` as a user runs it: a process that prints its URLs and stops quietly."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.broker.clients import Client


def _start(*args: str) -> tuple[subprocess.Popen[str], list[str]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "broker", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A shell's background job starts with SIGINT ignored; Ctrl-C in a terminal does not.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None
    lines: list[str] = []
    while not lines or not lines[-1].startswith("Ctrl-C"):
        line = process.stdout.readline()
        if not line:
            process.kill()
            _out, err = process.communicate(timeout=10)
            raise AssertionError(f"companion broker stopped: {err}")
        lines.append(line.rstrip("\n"))
    return process, lines


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_runs_until_stopped_then_exits_0_quietly(stop: signal.Signals) -> None:
    process, lines = _start("--port", "0", "--ws-port", "0")
    try:
        assert re.fullmatch(r"MQTT +mqtt://127\.0\.0\.1:\d+", lines[0]), lines
        assert re.fullmatch(r"MQTT over WebSockets +ws://127\.0\.0\.1:\d+", lines[1]), lines
        port = int(lines[0].rsplit(":", 1)[1])
        ws_port = int(lines[1].rsplit(":", 1)[1])
        for client in (Client("tcp", port), Client("ws", ws_port, transport="websockets")):
            client.subscribe("tabletop/table-1/#")
            client.close()
        for probed in (port, ws_port):  # a port scan: nothing worth a line on stderr
            with socket.create_connection(("127.0.0.1", probed)) as probe:
                probe.sendall(b"GET / HTTP/1.0\r\n\r\n")
            socket.create_connection(("127.0.0.1", probed)).close()
        time.sleep(0.3)
        process.send_signal(stop)
        out, err = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert (process.returncode, out, err) == (0, "", "")


def test_without_websockets() -> None:
    process, lines = _start("--port", "0", "--no-websockets")
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=15)
    assert len(lines) == 3 and lines[0].startswith("MQTT ") and lines[2].startswith("Ctrl-C")
    assert process.returncode == 0


def test_only_the_table_publishes_unless_opened(clients: list[Client]) -> None:
    """Locked by default with the password kept beside the games store, which a companion
    on this machine uses when its [broker] user name is "table" and it has no password."""
    process, lines = _start("--port", "0", "--no-websockets")
    try:
        port = int(lines[0].rsplit(":", 1)[1])
        found = re.fullmatch(r"only the table publishes: user table, password in (.+)", lines[1])
        assert found, lines
        password = Path(found.group(1)).read_text(encoding="ascii").strip()
        page, forger = Client("page", port), Client("forger", port)
        table = Client("companion-t", port, login=("table", password))
        clients += [page, forger, table]
        page.subscribe("tabletop/#")
        forger.publish("tabletop/t/state", b"forged", qos=0)  # refused: no PUBACK to wait for
        assert page.quiet_for(0.5) == []
        table.publish("tabletop/t/state", b"ok")
        assert page.take(1) == [("tabletop/t/state", b"ok", False, 1)]
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=15)
    process, lines = _start("--port", "0", "--no-websockets", "--open")
    try:
        port = int(lines[0].rsplit(":", 1)[1])
        assert lines[1] == "every client may publish"
        page, anyone = Client("page", port), Client("anyone", port)
        clients += [page, anyone]
        page.subscribe("tabletop/#")
        anyone.publish("tabletop/t/state", b"open")
        assert page.take(1) == [("tabletop/t/state", b"open", False, 1)]
    finally:
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=15)
