"""scripts/pi-check.sh's parts that need no root and no emulation: its help, its dry run's
list of steps, bad options as one line with exit code 2, bash -n and shellcheck. The
emulated run itself is `make pi-check` (docs/pi.md), never part of the test suite."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "pi-check.sh"
STEPS = [
    "host-tools",
    "binfmt",
    "rootfs",
    "checkout",
    "install",
    "version",
    "tests",
    "simulate",
    "app-check",
    "display-page",
]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=30, check=False
    )


def test_help_names_every_step_and_option() -> None:
    result = run("--help")
    assert result.returncode == 0 and result.stderr == ""
    for name in [*STEPS, "--dry-run", "--rebuild", "--keep-going", "--from STEP"]:
        assert name in result.stdout, name
    assert "set -euo" not in result.stdout and "shellcheck" not in result.stdout


def test_a_dry_run_lists_the_steps_in_order_and_touches_nothing(tmp_path: Path) -> None:
    # The script works in the checkout it lies in: a copy of it in a checkout of its own, so
    # that files other tests write into build/ meanwhile are not taken for its doing.
    (tmp_path / "scripts").mkdir()
    script = tmp_path / "scripts" / SCRIPT.name
    shutil.copy2(SCRIPT, script)
    before = sorted(tmp_path.rglob("*"))
    result = subprocess.run(
        ["bash", str(script), "--dry-run"], capture_output=True, text=True, timeout=30, check=False
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "would run these steps" in lines[0]
    assert f"logs in {tmp_path / 'build' / 'pi-check'}" in lines[0]
    assert [line.strip() for line in lines[1:]] == STEPS
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus"], "unknown option: --bogus"),
        (["--dry-run", "extra"], "unknown option: extra"),
        (["--from"], "--from needs a step"),
        (["--from", "deploy"], "no such step: deploy"),
        (["--from=rootf"], "no such step: rootf"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"pi-check.sh: {message}")


def test_make_pi_check_runs_the_script() -> None:
    makefile = (REPO / "Makefile").read_text()
    assert "\npi-check:\n\tbash scripts/pi-check.sh\n" in makefile
