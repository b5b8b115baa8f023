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

Nothing outlives the process that made the pair: closed or not, socat is stopped and the
temporary folder removed when the process exits, and when SIGTERM kills it (where SIGTERM is
left at its default; see companion.stopping). On Linux socat also dies with its parent when
that is killed outright (SIGKILL), as long as the pair was made on the main thread; then
only the empty folder is left behind in the temporary directory.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path

from companion.stopping import clean_up_on_sigterm
from vision.common.closing import Closing

DEFAULT_TIMEOUT_S = 5.0


class PtyPairError(RuntimeError):
    """socat is missing, or did not make the links in time."""


class _Leftovers:
    """What a pair leaves behind unless it is closed: its socat and its folder. Apart from
    the PtyPair, so that they can be cleaned up at exit or on SIGTERM without it."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self.tempdir: tempfile.TemporaryDirectory[str] | None = None

    def clean_up(self) -> None:
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.terminate()  # socat removes its links as it stops
            try:
                process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if process is not None and process.stderr is not None:
            process.stderr.close()
        tempdir, self.tempdir = self.tempdir, None
        if tempdir is not None:
            tempdir.cleanup()


def _clean_up_for_good(leftovers: _Leftovers, forget_sigterm: Callable[[], None]) -> None:
    leftovers.clean_up()
    forget_sigterm()


PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def _dying_with_this_thread() -> Callable[[], None] | None:
    """What makes a child get SIGTERM once its parent is gone, even killed outright; None
    where that cannot be had. The kernel sends it when the *thread* that started the child
    ends, so only the main thread's children get it: it ends with the process."""
    if not sys.platform.startswith("linux"):
        return None
    if threading.current_thread() is not threading.main_thread():
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def in_the_child() -> None:  # between fork and exec
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # the parent was gone before the line above
            os.kill(os.getpid(), signal.SIGTERM)

    return in_the_child


class PtyPair(Closing):
    def __init__(
        self, directory: Path | None = None, *, timeout_s: float = DEFAULT_TIMEOUT_S
    ) -> None:
        socat = shutil.which("socat")
        if socat is None:
            raise PtyPairError("socat is not installed (Debian package socat)")
        self._socat = socat
        self._timeout_s = timeout_s
        self._leftovers = _Leftovers()
        # On a SIGTERM that would kill the process outright; once this pair is gone, or at
        # exit, closed or not.
        self._forget_sigterm = clean_up_on_sigterm(self._leftovers.clean_up)
        self._at_exit = weakref.finalize(
            self, _clean_up_for_good, self._leftovers, self._forget_sigterm
        )
        if directory is None:
            self._leftovers.tempdir = tempfile.TemporaryDirectory(prefix="companion-pty-")
            directory = Path(self._leftovers.tempdir.name)
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
            preexec_fn=_dying_with_this_thread(),
        )
        self._leftovers.process = self._process
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
        self._leftovers.process = None
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
        self._at_exit()  # runs once: nothing to do at exit any more

    def _remove_links(self) -> None:
        for path in (self.device_path, self.host_path):
            Path(path).unlink(missing_ok=True)

    def __repr__(self) -> str:
        return f"PtyPair(device_path={self.device_path!r}, host_path={self.host_path!r})"
