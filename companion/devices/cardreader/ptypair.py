"""A pair of linked pseudo-terminals from socat: a serial cable with nothing on it.

An emulator opens `device_path` (the reader's end of the cable), the CardReader opens
`host_path`; bytes written at one end are read at the other. `unplug()` kills socat, as
pulling a USB-serial adapter would: both ends fail and the link paths disappear.
`replug()` starts socat again with the same link paths.

    with PtyPair() as pair:
        emulator = Rdm6300Emulator(pair.device_path)
        reader = CardReader(pair.host_path, Rdm6300(), on_event=print)
        ...
        pair.unplug()
        pair.replug()

Needs the `socat` program (Debian package socat).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from companion.devices.closing import Closing

DEFAULT_TIMEOUT_S = 5.0


class PtyPairError(RuntimeError):
    """socat is missing, or did not make the links in time."""


class PtyPair(Closing):
    def __init__(
        self, directory: Path | None = None, *, timeout_s: float = DEFAULT_TIMEOUT_S
    ) -> None:
        socat = shutil.which("socat")
        if socat is None:
            raise PtyPairError("socat is not installed (Debian package socat)")
        self._socat = socat
        self._timeout_s = timeout_s
        self._tempdir: tempfile.TemporaryDirectory[str] | None = None
        if directory is None:
            self._tempdir = tempfile.TemporaryDirectory(prefix="companion-pty-")
            directory = Path(self._tempdir.name)
        self.directory = directory
        self.device_path = str(directory / "device")
        """The device's end: an emulator opens this one."""
        self.host_path = str(directory / "host")
        """The host's end: the CardReader opens this one."""
        self._process: subprocess.Popen[bytes] | None = None
        self.replug()

    @property
    def plugged(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def replug(self) -> None:
        """Starts socat (again) and waits until both link paths exist."""
        if self.plugged:
            return
        self._remove_links()
        self._process = subprocess.Popen(
            [
                self._socat,
                f"pty,raw,echo=0,link={self.device_path}",
                f"pty,raw,echo=0,link={self.host_path}",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + self._timeout_s
        while not (Path(self.device_path).exists() and Path(self.host_path).exists()):
            if self._process.poll() is not None:
                _, error = self._process.communicate()
                self._process = None
                raise PtyPairError(f"socat stopped: {error.decode(errors='replace').strip()}")
            if time.monotonic() > deadline:
                self.unplug()
                raise PtyPairError(f"socat made no links within {self._timeout_s} s")
            time.sleep(0.005)

    def unplug(self) -> None:
        """Kills socat: both ends fail, as when a USB-serial adapter is pulled out."""
        process, self._process = self._process, None
        if process is not None:
            process.terminate()
            try:
                process.wait(timeout=self._timeout_s)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            if process.stderr is not None:
                process.stderr.close()
        self._remove_links()

    def close(self) -> None:
        """Unplugs and removes the temporary directory. Safe to call more than once."""
        self.unplug()
        if self._tempdir is not None:
            self._tempdir.cleanup()
            self._tempdir = None

    def _remove_links(self) -> None:
        for path in (self.device_path, self.host_path):
            Path(path).unlink(missing_ok=True)

    def __repr__(self) -> str:
        return f"PtyPair(device_path={self.device_path!r}, host_path={self.host_path!r})"
