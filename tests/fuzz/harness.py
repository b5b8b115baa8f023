"""What every fuzz case asserts, and the budget they share.

A case hands a loader some bytes; the loader must return, or raise UserError (the one line
and exit code 2 the command prints), within a few seconds. Any other exception, a hang or a
run-away allocation fails the test with the input that caused it.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from companion.errors import UserError

CASES: Counter[str] = Counter()
"""Cases run, by kind; tests/fuzz/conftest.py reports the total at the end of the run."""

IN_PROCESS_EXAMPLES = 150
"""Examples per in-process property: fixed, and the same every run (derandomize)."""
SUBPROCESS_EXAMPLES = 6
"""Examples per property that runs `python -m companion` in a subprocess (slower)."""

CASE_SECONDS = 20
"""Longest a case may take, on a busy machine, before it counts as a hang."""
SUBPROCESS_SECONDS = 60
SUBPROCESS_MEMORY = 2 * 1024**3
"""Address space a subprocess may use: a loader that reads /dev/zero whole would exceed it."""

FUZZ = settings(
    max_examples=IN_PROCESS_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
FUZZ_SUBPROCESS = settings(FUZZ, max_examples=SUBPROCESS_EXAMPLES)


class Hang(Exception):
    """A case ran past CASE_SECONDS."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def ring(signum: int, frame: Any) -> None:
        raise Hang(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def survives(kind: str, load: Callable[[], object]) -> UserError | None:
    """Runs `load`; passes when it returns or raises UserError (returned, for the caller to
    look at). Anything else propagates and fails the test, with hypothesis's input."""
    CASES[kind] += 1
    with time_limit(CASE_SECONDS):
        try:
            load()
        except UserError as err:
            assert str(err).strip(), "a UserError must say something"
            return err
    return None


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (SUBPROCESS_MEMORY, SUBPROCESS_MEMORY))


def run_companion(
    kind: str, args: Sequence[str], env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m companion ARGS`: must end with 0 or 2 within SUBPROCESS_SECONDS, with no
    traceback, and with at most one line on stderr when it fails."""
    CASES[kind] += 1
    done = subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        errors="replace",
        timeout=SUBPROCESS_SECONDS,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        preexec_fn=_limit_memory,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 2), (done.returncode, done.stderr)
    if done.returncode == 2:
        assert done.stderr.startswith("companion: error: ") or done.stdout, done.stderr
        assert done.stderr.count("\n") <= 1, done.stderr
    return done


# ---- mutations ---------------------------------------------------------------------------

HOSTILE_TEXT: tuple[str, ...] = (
    "[/x]",
    "[bold]",
    "\x1b[2J",
    "\x1b]0;title\x07",
    "\x00",
    "\r",
    "\u009b",
    "nan",
    "inf",
    "-inf",
    "NaN",
    "Infinity",
    "-1e999",
    "1e999",
    "9" * 4400,
    "-" + "9" * 30,
    "0x7fffffffffffffff",
    "[" * 3000,
    "{" * 3000,
    '"',
    "'",
    "'''",
    "\\",
    "\n",
    "=",
    "[[cards]]",
    "~nosuchuser/x",
    "mqtt://[::1",
    "mqtt://host:99999",
    "/dev/zero",
    "\ud7ff\uffff",
    "é",
    "",
)
HOSTILE_BYTES: tuple[bytes, ...] = (b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"\x00")


@st.composite
def mutated(draw: st.DrawFn, seed: bytes) -> bytes:
    """`seed` with a few byte-level changes: spans cut, copied or overwritten, hostile text
    or bytes put in, the end cut off."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        how = draw(st.sampled_from(("cut", "insert", "bytes", "copy", "truncate", "flip")))
        if how == "cut":
            del data[at : at + draw(st.integers(1, 64))]
        elif how == "insert":
            data[at:at] = draw(st.sampled_from(HOSTILE_TEXT)).encode("utf-8", "surrogatepass")
        elif how == "bytes":
            data[at:at] = draw(st.sampled_from(HOSTILE_BYTES))
        elif how == "copy":
            start = draw(st.integers(0, len(data)))
            data[at:at] = data[start : start + draw(st.integers(1, 200))]
        elif how == "truncate":
            del data[at:]
        elif data:
            index = min(at, len(data) - 1)
            data[index] ^= 1 << draw(st.integers(0, 7))
    return bytes(data)


def hostile_scalar() -> st.SearchStrategy[Any]:
    """A JSON or TOML value a loader may not expect where it finds it."""
    return st.one_of(
        st.sampled_from(HOSTILE_TEXT),
        st.text(max_size=12),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.sampled_from((0, -1, 1, 10**400, 2**63, -(2**63) - 1)),
        st.floats(allow_nan=True, allow_infinity=True),
        st.booleans(),
        st.none(),
        st.just([]),
        st.just({}),
    )


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
