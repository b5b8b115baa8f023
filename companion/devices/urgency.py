"""Threads that read a clock's buttons wake first: a press is stamped with the time it is
read, and on a busy machine an ordinary thread can wait tens of milliseconds for a core
(measured: p99 11 to 30 ms behind two CPU-bound processes) before it reads the time.

    if not make_this_thread_urgent():   # called by the thread that reads the keys
        ...                             # not allowed here: it stays as it was

Urgent means the real-time policy SCHED_FIFO at priority URGENT_PRIORITY, the lowest there
is: the thread runs as soon as it wakes, ahead of every ordinary process, and since it only
reads a key, stamps it and hands it on, it gives the core back at once. (Linux also keeps 5 %
of every second for ordinary processes whatever real-time threads do.) A user may take it
when the process's RLIMIT_RTPRIO allows it: the Pi installer grants rtprio 1 in
/etc/security/limits.d (scripts/install-pi.sh); root always may. Elsewhere the thread stays
as it was.
"""

from __future__ import annotations

import logging
import os

URGENT_PRIORITY = 1

log = logging.getLogger(__name__)


def make_this_thread_urgent() -> bool:
    """Puts the calling thread under SCHED_FIFO at URGENT_PRIORITY; False where that is not
    allowed (or the system has no such policy), leaving the thread as it was."""
    policy = getattr(os, "SCHED_FIFO", None)
    if policy is None or not hasattr(os, "sched_setscheduler"):
        return False
    try:
        # On Linux, 0 is the calling thread, not the whole process.
        os.sched_setscheduler(0, policy, os.sched_param(URGENT_PRIORITY))
    except OSError as err:
        log.debug("button presses are read at ordinary priority: %s", err.strerror or err)
        return False
    return True
