"""`companion tournament` as the desk types it, in tests: its output, or its refusal in one
line with exit code 2. The user's directories are the test's own (the fixture in
tests/tournament/conftest.py)."""

from __future__ import annotations

import pytest

from companion.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["tournament", *argv]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def refused(capsys: pytest.CaptureFixture[str], message: str, *argv: str) -> None:
    assert main(["tournament", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
