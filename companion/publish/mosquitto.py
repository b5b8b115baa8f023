"""Running a real mosquitto broker on loopback ports: for tests, benchmarks and trying things.

    with Mosquitto(websockets=True, password=("board", "secret")) as broker:
        broker.port              # plain MQTT listener on 127.0.0.1
        broker.ws_port           # MQTT over WebSockets (mosquitto binds it on all interfaces)
        broker.tls_port          # TLS listener, when tls=True; broker.ca_file to trust it

Production brokers are configured by their owners (docs/mqtt.md has a configuration); this
module only starts throw-away ones, each in its own temporary directory.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from vision.common.closing import Closing

START_TIMEOUT_S = 10.0


PORT_TRIES = 3
"""How many times ports are chosen afresh when another program takes one first."""


class MosquittoError(RuntimeError):
    """mosquitto is missing or did not start; the message has its log's last lines."""


def find_mosquitto() -> str | None:
    return shutil.which("mosquitto") or (
        "/usr/sbin/mosquitto" if os.path.exists("/usr/sbin/mosquitto") else None
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Mosquitto(Closing):
    def __init__(
        self,
        *,
        websockets: bool = False,
        tls: bool = False,
        password: tuple[str, str] | None = None,
        acl: str | None = None,
        port: int | None = None,
        users: tuple[tuple[str, str], ...] = (),
        settings: tuple[str, ...] = (),
        bridge: tuple[str, ...] = (),
        log_types: tuple[str, ...] = ("all",),
    ) -> None:
        """`password` is one user's login; `users` more of them. `settings` are more lines
        for the configuration's global section (max_packet_size, say); `bridge` a bridge
        section (`connection ...` and its lines), written last. `log_types`: what the log
        keeps; everything by default, for the tests, but a line per message is a cost
        under load: mosquitto's own default is error, warning, notice, information."""
        binary = find_mosquitto()
        if binary is None:
            raise MosquittoError("mosquitto is not installed (Debian: apt-get install mosquitto)")
        self.dir = Path(tempfile.mkdtemp(prefix="mosquitto-"))
        # Started as root, mosquitto drops to its own user: it must still reach its files.
        self.dir.chmod(0o755)
        log = self.dir / "mosquitto.log"
        log.touch()
        log.chmod(0o666)
        self.port = port or free_port()
        self.ws_port = free_port() if websockets else None
        self.tls_port = free_port() if tls else None
        self.password = password
        self.ca_file: Path | None = None
        self._port_fixed = port is not None
        logins = ((password,) if password is not None else ()) + users
        self._auth = self._auth_lines(logins, acl)
        self._head = [
            "per_listener_settings true",
            "persistence false",
            f"log_dest file {self.dir / 'mosquitto.log'}",
            *(f"log_type {kind}" for kind in log_types),
            *settings,
        ]
        self._bridge = bridge
        if self.tls_port is not None:
            self.ca_file = self._make_certificates()
        self._binary = binary
        self._config = self.dir / "mosquitto.conf"
        self._process: subprocess.Popen[bytes] | None = None
        for attempt in range(PORT_TRIES):
            self._write_config()
            try:
                self.start()
                break
            except MosquittoError as err:
                # A free port chosen here may be taken by another program before mosquitto
                # binds it (a busy machine): choose again, unless the caller chose the port.
                if "Address already in use" not in str(err) or attempt == PORT_TRIES - 1:
                    raise
                if not self._port_fixed:
                    self.port = free_port()
                self.ws_port = free_port() if self.ws_port is not None else None
                self.tls_port = free_port() if self.tls_port is not None else None

    def _write_config(self) -> None:
        auth = self._auth
        lines = [*self._head, f"listener {self.port} 127.0.0.1", *auth]
        if self.ws_port is not None:
            # mosquitto's websockets listener ignores the bind address and listens on every
            # interface; with a password set it is at least not open to all.
            lines += [f"listener {self.ws_port}", "protocol websockets", *auth]
        if self.tls_port is not None:
            lines += [
                f"listener {self.tls_port} 127.0.0.1",
                f"cafile {self.ca_file}",
                f"certfile {self.dir / 'server.crt'}",
                f"keyfile {self.dir / 'server.key'}",
                *auth,
            ]
        lines += self._bridge
        self._config.write_text("\n".join(lines) + "\n")

    # -- lifecycle -------------------------------------------------------------------------

    def start(self) -> None:
        """Starts (or restarts, after stop()) the broker on the same ports."""
        if self._process is not None and self._process.poll() is None:
            return
        self._process = subprocess.Popen(
            [self._binary, "-c", str(self._config)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        ports = [p for p in (self.port, self.ws_port, self.tls_port) if p is not None]
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise MosquittoError(f"mosquitto exited at start: {self._log_tail()}")
            if all(_listening(p) for p in ports):
                return
            time.sleep(0.02)
        self.stop()
        raise MosquittoError(f"mosquitto did not listen in time: {self._log_tail()}")

    def stop(self) -> None:
        """Stops the broker (as an outage would); start() brings it back on the same ports."""
        if self._process is None:
            return
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(5)
        if self._process.stderr is not None:
            self._process.stderr.close()
        self._process = None

    @property
    def pid(self) -> int | None:
        """The broker's process id while it runs (to watch its memory and CPU)."""
        return self._process.pid if self.running and self._process is not None else None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        if self.ws_port is None:
            raise MosquittoError("this broker has no websockets listener")
        return f"ws://127.0.0.1:{self.ws_port}"

    # -- configuration ---------------------------------------------------------------------

    def _auth_lines(self, logins: tuple[tuple[str, str], ...], acl: str | None) -> list[str]:
        if not logins and acl is None:
            return ["allow_anonymous true"]
        lines = ["allow_anonymous false"]
        if logins:
            passwd = self.dir / "passwd"
            passwd.touch()
            for user, secret in logins:
                subprocess.run(
                    ["mosquitto_passwd", "-b", str(passwd), user, secret],
                    check=True,
                    capture_output=True,
                )
            passwd.chmod(0o644)  # mosquitto drops to its own user when started as root
            lines.append(f"password_file {passwd}")
        if acl is not None:
            acl_file = self.dir / "acl"
            acl_file.write_text(acl)
            acl_file.chmod(0o644)
            lines.append(f"acl_file {acl_file}")
        return lines

    def _make_certificates(self) -> Path:
        """A throw-away CA and a server certificate for localhost / 127.0.0.1."""
        made = make_certificates(self.dir)
        for path in (made.key, made.cert, made.ca):
            path.chmod(0o644)  # readable by the mosquitto user
        return made.ca

    def _log_tail(self) -> str:
        log = self.dir / "mosquitto.log"
        text = log.read_text(errors="replace") if log.exists() else ""
        if self._process is not None and self._process.stderr is not None:
            with contextlib.suppress(OSError, ValueError):
                text += self._process.stderr.read().decode(errors="replace")
        return " | ".join(text.strip().splitlines()[-5:])


@dataclass(frozen=True)
class Certificates:
    ca: Path
    """The CA's certificate: what a client trusts the server by."""
    cert: Path
    key: Path


def make_certificates(folder: Path) -> Certificates:
    """A throw-away CA, valid two days, and a server certificate it signed for localhost and
    127.0.0.1, in `folder`."""
    ca_key, ca_crt = folder / "ca.key", folder / "ca.crt"
    key, csr, crt = folder / "server.key", folder / "server.csr", folder / "server.crt"
    ext = folder / "san.ext"
    ext.write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], check=True, capture_output=True)

    openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=companion test CA",
        "-keyout",
        str(ca_key),
        "-out",
        str(ca_crt),
    )
    openssl(
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        "/CN=localhost",
        "-keyout",
        str(key),
        "-out",
        str(csr),
    )
    openssl(
        "x509",
        "-req",
        "-in",
        str(csr),
        "-CA",
        str(ca_crt),
        "-CAkey",
        str(ca_key),
        "-CAcreateserial",
        "-days",
        "2",
        "-extfile",
        str(ext),
        "-out",
        str(crt),
    )
    return Certificates(ca=ca_crt, cert=crt, key=key)


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.2)
        return probe.connect_ex(("127.0.0.1", port)) == 0
