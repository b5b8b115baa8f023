"""Nothing outlives a process that made a socat pty pair: not socat, not the temporary folder
of its links, whether the process exits, is stopped with SIGTERM or is killed outright."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.cardreader.conftest import needs_socat

pytestmark = [
    needs_socat,
    pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads Linux's /proc"),
]

WAIT_S = 20.0
"""Long: a loaded machine may take seconds to start Python; it only counts on a failure."""


def wait_for(condition: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):  # the thread ended while we looked
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def command_line(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


def running(pid: int) -> bool:
    """Whether the process exists and is not a zombie (which only waits to be reaped, by a
    parent or by whatever adopted it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def socat_of(pid: int) -> tuple[int, Path] | None:
    """The socat a process started, and the folder of its links."""
    for child in children(pid):
        line = command_line(child)
        if line and Path(line[0]).name == "socat":
            link = next(arg for arg in line if "link=" in arg)
            return child, Path(link.split("link=", 1)[1].split(",")[0]).parent
    return None


@pytest.fixture()
def simulation() -> Iterator[subprocess.Popen[bytes]]:
    """`companion simulate` scanning cards on an emulated RDM6300, slow enough to be caught
    in the middle of its game; in the private data directory every test has."""
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "simulate",
            "--reader",
            "rdm6300",
            "--seed",
            "1",
            "--delay",
            "1",
            "--no-store",
            "--quiet",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()


def caught_with_its_socat(process: subprocess.Popen[bytes]) -> tuple[int, Path]:
    found: list[tuple[int, Path]] = []

    def socat_started() -> bool:
        assert process.poll() is None, "the simulation ended before its socat was seen"
        socat = socat_of(process.pid)
        if socat is not None and (socat[1] / "host").exists():
            found.append(socat)
        return bool(found)

    wait_for(socat_started, "the simulation's socat")
    return found[0]


def test_a_sigterm_leaves_neither_socat_nor_the_folder(
    simulation: subprocess.Popen[bytes],
) -> None:
    socat, folder = caught_with_its_socat(simulation)
    simulation.send_signal(signal.SIGTERM)
    assert simulation.wait(WAIT_S) == -signal.SIGTERM  # it still dies of the SIGTERM
    # Where the clean-up could not wait for it, socat has its own signal once its parent is
    # gone; on a loaded machine it may take a moment to act on it.
    wait_for(lambda: not running(socat), "socat to stop")
    assert not folder.exists()


def test_a_sigkill_leaves_no_socat(simulation: subprocess.Popen[bytes]) -> None:
    socat, folder = caught_with_its_socat(simulation)
    simulation.kill()
    assert simulation.wait(WAIT_S) == -signal.SIGKILL
    wait_for(lambda: not running(socat), "socat to stop after its parent was killed")
    # Nothing can run in a process killed outright: its folder stays, but empty (socat
    # removes its links as it stops).
    wait_for(lambda: not any(folder.iterdir()), "socat's links to go")
    folder.rmdir()


def test_a_pair_left_open_is_cleaned_up_at_exit() -> None:
    script = (
        "from companion.devices.cardreader.ptypair import PtyPair\n"
        "pair = PtyPair()\n"
        "print(pair.directory, flush=True)\n"
        "input()\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    folder = Path(process.stdout.readline().strip())
    found = socat_of(process.pid)
    assert found is not None and found[1] == folder
    process.stdin.write("\n")  # the script ends without closing the pair
    process.stdin.close()
    assert process.wait(WAIT_S) == 0
    process.stdout.close()
    assert not running(found[0])
    assert not folder.exists()


def test_a_sigterm_handled_by_the_command_itself_is_left_to_it() -> None:
    """A command that stops on SIGTERM (stop_on_sigterm) still does, and cleans up as it
    returns."""
    script = (
        "import threading\n"
        "from companion.devices.cardreader.ptypair import PtyPair\n"
        "from companion.stopping import stop_on_sigterm\n"
        "stopping = threading.Event()\n"
        "stop_on_sigterm(stopping)\n"
        "with PtyPair() as pair:\n"
        "    print(pair.directory, flush=True)\n"
        "    stopping.wait(60)\n"
        "print('stopped', flush=True)\n"
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    folder = Path(process.stdout.readline().strip())
    found = socat_of(process.pid)
    assert found is not None
    os.kill(process.pid, signal.SIGTERM)
    assert process.wait(WAIT_S) == 0
    assert process.stdout.read() == "stopped\n"
    process.stdout.close()
    assert not running(found[0])
    assert not folder.exists()
