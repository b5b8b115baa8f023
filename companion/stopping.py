"""Stopping a long-running command on SIGTERM as quietly as on Ctrl-C, and cleaning up
after one that SIGTERM kills outright.

    stopping = threading.Event()
    previous = stop_on_sigterm(stopping)      # None off the main thread
    ...
    restore_sigterm(previous)

    forget = clean_up_on_sigterm(remove_the_scratch_folder)   # a command SIGTERM kills outright
    ...
    forget()

A process may start with SIGTERM blocked (its parent had it blocked when it started us:
the signal mask survives fork and exec), and would then never hear it; so the signals that
stop a command are unblocked as well.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import threading
from collections.abc import Callable
from typing import Any


def stop_on_sigterm(stopping: threading.Event) -> Any:
    """Sets `stopping` on SIGTERM; returns the handler replaced, or None where signals
    cannot be set (not the main thread)."""
    try:
        previous = signal.signal(signal.SIGTERM, lambda _signum, _frame: stopping.set())
    except ValueError:
        return None
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    return previous


def restore_sigterm(previous: Any) -> None:
    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


# ---- cleaning up before dying of SIGTERM -----------------------------------------------------

_cleanups: dict[int, Callable[[], None]] = {}
_next_cleanup = itertools.count()


def clean_up_on_sigterm(cleanup: Callable[[], None]) -> Callable[[], None]:
    """Runs `cleanup` before the process dies of a SIGTERM, where SIGTERM would kill it
    outright (its default action), which runs no `finally`, `with` exit or atexit function.
    Returns what to call to forget `cleanup` again.

    The process still dies of the SIGTERM, as it would have. Where a command handles SIGTERM
    itself (stop_on_sigterm), nothing changes: it stops as it always does, and its own way
    out (closing, atexit) has to clean up. Only the main thread can set a signal handler:
    elsewhere, while SIGTERM is at its default, `cleanup` is remembered but does not run.
    """
    key = next(_next_cleanup)
    _cleanups[key] = cleanup
    on_main_thread = threading.current_thread() is threading.main_thread()
    if on_main_thread and signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _clean_up_and_die)

    def forget() -> None:
        _cleanups.pop(key, None)
        # Nothing left to clean up: SIGTERM is the default again, as if never changed.
        if (
            not _cleanups
            and threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGTERM) is _clean_up_and_die
        ):
            signal.signal(signal.SIGTERM, signal.SIG_DFL)

    return forget


def _clean_up_and_die(signum: int, _frame: Any) -> None:
    for cleanup in list(_cleanups.values()):
        with contextlib.suppress(Exception):  # the process is dying: the others still run
            cleanup()
    _cleanups.clear()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)
