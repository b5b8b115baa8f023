"""Stopping a long-running command on SIGTERM as quietly as on Ctrl-C.

    stopping = threading.Event()
    previous = stop_on_sigterm(stopping)      # None off the main thread
    ...
    restore_sigterm(previous)

A process may start with SIGTERM blocked (its parent had it blocked when it started us:
the signal mask survives fork and exec), and would then never hear it; so the signals that
stop a command are unblocked as well.
"""

from __future__ import annotations

import signal
import threading
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
