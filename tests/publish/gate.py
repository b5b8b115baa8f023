"""A TCP gate in front of a broker: while shut, connections are accepted and dropped at
once, so a test decides when a publisher gets through (and subscribers can be ready first)."""

from __future__ import annotations

import contextlib
import socket
import threading

from vision.common.closing import Closing


class Gate(Closing):
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._server.getsockname()[1]
        self._open = threading.Event()
        self._lock = threading.Lock()
        self._sockets: list[socket.socket] = []
        self.connections = 0
        """Connections let through so far."""
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def open(self) -> None:
        self._open.set()

    def shut(self) -> None:
        """Refuses new connections and cuts the ones through it."""
        self._open.clear()
        with self._lock:
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            _cut(sock)

    def close(self) -> None:
        self.shut()
        _cut(self._server)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            if not self._open.is_set():
                _cut(client)
                continue
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=2)
            except OSError:
                _cut(client)
                continue
            upstream.settimeout(None)
            with self._lock:
                self._sockets += [client, upstream]
                self.connections += 1
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        finally:
            _cut(src)
            _cut(dst)


def _cut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    with contextlib.suppress(OSError):
        sock.close()
