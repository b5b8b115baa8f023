"""The simulated twin of the clock's buttons: keys on a terminal.

keys = KeyboardButtons("12", on_press=presses.put)   # '1' player 0, '2' player 1
keys.read_loop()                                     # until keys.stop()
keys.feed("p")                                       # or feed keys directly (tests)
"""

from __future__ import annotations

import codecs
import io
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

from companion.clock.presses import ButtonPress, ClockNs, OnPress, PressKind
from vision.common.closing import Closing

PLAYER_KEYS = "123456"
"""The clock's buttons on a keyboard: the digit i + 1 is player i's, in `companion clock` and
in the app alike, so a player learns one set of keys."""
PAUSE_KEYS = "p "
"""p or space pauses and resumes, everywhere."""
DEFAULT_PLAYER_KEYS = PLAYER_KEYS[:2]
"""Two players: a clock that knows how many players it has takes that many of PLAYER_KEYS."""
DEFAULT_PAUSE_KEYS = PAUSE_KEYS
POLL_S = 0.1


class KeyboardButtons(Closing):
    """Maps characters to presses: `keys[i]` is player i's button, any of `pause_keys` pauses.

    Letters match in either case, so Caps Lock does not silently stop the clock working.
    Other characters go to `on_other_key` when given (a caller's 'q' to quit, say) and are
    otherwise ignored. Key presses do not chatter, so nothing is debounced here.
    """

    def __init__(
        self,
        keys: str = DEFAULT_PLAYER_KEYS,
        *,
        pause_keys: str = DEFAULT_PAUSE_KEYS,
        on_press: OnPress,
        clock_ns: ClockNs = time.monotonic_ns,
        on_other_key: Callable[[str], object] | None = None,
    ) -> None:
        if not keys:
            raise ValueError("a clock needs at least one player key")
        everything = keys + pause_keys
        if len(set(everything)) != len(everything):
            raise ValueError(f"each key may have one meaning, got {keys!r} and {pause_keys!r}")
        self._actions: dict[str, tuple[PressKind, int | None]] = {
            key: ("player", player) for player, key in enumerate(keys)
        }
        self._actions.update((key, ("pause", None)) for key in pause_keys)
        self._on_press = on_press
        self._clock_ns = clock_ns
        self._on_other_key = on_other_key
        self._stopped = threading.Event()

    def feed(self, char: str, *, ago_ns: int = 0) -> ButtonPress | None:
        """One character typed (`ago_ns` before now): the press it makes (also given to
        `on_press`), or None."""
        t_ns = self._clock_ns() - ago_ns  # first, as for a real button: the key's own time
        action = self._actions.get(char, self._actions.get(char.lower()))
        if action is None:
            if self._on_other_key is not None:
                self._on_other_key(char)
            return None
        kind, player = action
        press = ButtonPress(kind, player, t_ns)
        self._on_press(press)
        return press

    def stop(self) -> None:
        """Ends `read_loop` (from any thread, or from a callback). Final: it stays stopped."""
        self._stopped.set()

    @property
    def stopped(self) -> bool:
        return self._stopped.is_set()

    def read_loop(self, stream: TextIO | None = None, *, poll_s: float = POLL_S) -> None:
        """Feeds characters from `stream` (standard input by default) until stop() or its end.

        On a POSIX terminal each key counts as it is typed (cbreak mode: no Enter needed,
        Ctrl-C still interrupts) and the terminal's settings are restored on the way out,
        whatever happens. Anything else is read a line at a time, each character of a line
        fed in turn; there stop() takes effect when the next line arrives.
        """
        stream = sys.stdin if stream is None else stream
        fd = _terminal_fd(stream)
        if fd is None:
            self._read_lines(stream)
        else:
            self._read_terminal(fd, poll_s)

    def _read_lines(self, stream: TextIO) -> None:
        for line in stream:
            for char in line.rstrip("\r\n"):
                if self.stopped:
                    return
                self.feed(char)
            if self.stopped:
                return

    def _read_terminal(self, fd: int, poll_s: float) -> None:
        import termios
        import tty

        saved = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd)
            self._read_stamped_keys(fd, poll_s)
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, saved)

    def _read_stamped_keys(self, fd: int, poll_s: float) -> None:
        """Keys from the terminal, each dated by a process of its own the moment it arrived
        (companion/devices/key_stamper.py says why)."""
        import select
        import subprocess

        stamper = subprocess.Popen(
            [sys.executable, "-m", "companion.devices.key_stamper", str(fd), str(os.getpid())],
            pass_fds=[fd],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
        )
        assert stamper.stdout is not None
        pipe = stamper.stdout.fileno()
        pending = b""
        # A multi-byte character may arrive split across two reads.
        decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        try:
            while not self.stopped:
                ready, _, _ = select.select([pipe], [], [], poll_s)
                if not ready:
                    continue
                chunk = os.read(pipe, 4096)
                if not chunk:
                    return  # the terminal went away
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines:
                    stamp, data = line.split()
                    ago_ns = max(0, time.monotonic_ns() - int(stamp))
                    for char in decoder.decode(bytes.fromhex(data.decode("ascii"))):
                        if self.stopped:
                            return
                        self.feed(char, ago_ns=ago_ns)
        finally:
            stamper.kill()
            stamper.wait()
            stamper.stdout.close()

    def close(self) -> None:
        """Same as stop(): the keyboard holds nothing else to release."""
        self.stop()


def _terminal_fd(stream: TextIO) -> int | None:
    """The stream's descriptor if it is a terminal we can put in cbreak mode, else None."""
    if os.name != "posix":
        return None
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        return None
    return fd if os.isatty(fd) else None
