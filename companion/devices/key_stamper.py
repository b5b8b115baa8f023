"""Reads a terminal's keys in a process of its own and dates each read, for KeyboardButtons.

    python -m companion.devices.key_stamper FD PARENT   # FD: the terminal, inherited;
                                                        # PARENT: the parent's pid

Each read becomes one line on standard output: the monotonic time (ns) at which the key
was there to read, a space, and the bytes in hex. A key must be dated the moment it arrives;
in the companion's own process, the thread that reads it first waits for Python's global
lock, which another thread may hold while the machine's cores are busy elsewhere
(bench/clock.py measured p99 5 ms behind two CPU hogs, with a real-time reader thread).
Here nothing else holds it, and the process runs urgent (companion/devices/urgency.py)
where that is allowed. It ends when the terminal does, when its parent closes the pipe, or
within PARENT_CHECK_S of its parent's end.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time

from companion.devices.urgency import make_this_thread_urgent

PARENT_CHECK_S = 0.2


def stamp_keys(terminal: int, out: int, parent: int) -> None:
    """Dates and passes on every read of `terminal` to `out`, until either ends or the
    process `parent` is no longer this one's parent: an orphan would go on taking the keys
    meant for the shell."""
    while os.getppid() == parent:
        ready, _, _ = select.select([terminal], [], [], PARENT_CHECK_S)
        if not ready:
            continue
        t_ns = time.monotonic_ns()
        try:
            data = os.read(terminal, 64)
        except OSError:  # the terminal hung up
            return
        if not data:
            return
        try:
            os.write(out, f"{t_ns} {data.hex()}\n".encode("ascii"))
        except BrokenPipeError:
            return


def main(argv: list[str]) -> int:
    # Ctrl-C reaches the whole process group: the parent decides what it means.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    make_this_thread_urgent()
    stamp_keys(int(argv[1]), sys.stdout.fileno(), int(argv[2]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
