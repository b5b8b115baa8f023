"""Urgent threads and the key stamper: keys dated on arrival, by a process of its own."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import TypeVar

import pytest

from companion.devices import key_stamper
from companion.devices.urgency import make_this_thread_urgent

T = TypeVar("T")


def in_a_thread(work: Callable[[], T]) -> T:
    """What `work` returns, run on a thread of its own (scheduling is set per thread)."""
    results: list[T] = []
    thread = threading.Thread(target=lambda: results.append(work()))
    thread.start()
    thread.join()
    return results[0]


def test_where_it_is_refused_the_thread_is_left_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "sched_setscheduler", refuse)

    def work() -> tuple[bool, int]:
        return make_this_thread_urgent(), os.sched_getscheduler(0)

    assert in_a_thread(work) == (False, os.SCHED_OTHER)


def test_where_it_is_allowed_only_the_calling_thread_is_urgent() -> None:
    def work() -> tuple[bool, int]:
        return make_this_thread_urgent(), os.sched_getscheduler(0)

    urgent, policy = in_a_thread(work)
    if not urgent:
        pytest.skip("this process may not use real-time scheduling")
    assert (policy, os.sched_getscheduler(0)) == (os.SCHED_FIFO, os.SCHED_OTHER)


def test_the_stamper_dates_each_read_and_passes_its_bytes() -> None:
    pty = pytest.importorskip("pty")
    import tty

    typist, terminal = pty.openpty()
    tty.setcbreak(terminal)  # as KeyboardButtons sets it: each key as it is typed
    out_r, out_w = os.pipe()
    try:
        stamper = threading.Thread(
            target=key_stamper.stamp_keys, args=(terminal, out_w, os.getppid())
        )
        stamper.start()
        before = time.monotonic_ns()
        os.write(typist, "1é".encode())
        line = b""
        while not line.endswith(b"\n"):
            line += os.read(out_r, 100)
        after = time.monotonic_ns()
        stamp, data = line.split()
        assert before <= int(stamp) <= after
        assert bytes.fromhex(data.decode()) == "1é".encode()
        os.close(typist)  # the terminal goes away: the stamper ends
        typist = -1
        stamper.join(5)
        assert not stamper.is_alive()
    finally:
        for fd in (typist, terminal, out_r, out_w):
            if fd >= 0:
                os.close(fd)


def test_an_orphaned_stamper_stops_taking_keys() -> None:
    """A parent that died without stopping it: the stamper must not go on reading the
    terminal, whose keys now belong to the shell."""
    pty = pytest.importorskip("pty")
    typist, terminal = pty.openpty()
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import os, subprocess, sys; "
            "child = subprocess.Popen([sys.executable, '-m', 'companion.devices.key_stamper', "
            f"'{terminal}', str(os.getpid())], pass_fds=[{terminal}], "
            "stdout=subprocess.DEVNULL); "
            "print(child.pid, flush=True)",
        ],
        pass_fds=[terminal],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        out, _ = parent.communicate(timeout=30)
        child = int(out)
        deadline = time.monotonic() + 10
        while _alive(child):
            assert time.monotonic() < deadline, "the orphaned stamper is still running"
            time.sleep(0.05)
    finally:
        os.close(typist)
        os.close(terminal)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for our purpose
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False
