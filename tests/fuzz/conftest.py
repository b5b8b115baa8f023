"""Reports how many fuzz cases ran (tests/fuzz/harness.py counts them)."""

from __future__ import annotations

import pytest

from tests.fuzz.harness import CASES


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if CASES:
        kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(CASES.items()))
        terminalreporter.write_line(f"fuzz: {sum(CASES.values())} cases ({kinds})")
