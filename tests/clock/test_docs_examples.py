"""Every `companion clock ...` example in docs/clocks.md parses as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from companion.cli import build_parser
from companion.commands.clock_cmd import build_runner

DOCS = Path(__file__).resolve().parents[2] / "docs" / "clocks.md"


def _examples() -> list[str]:
    """The command lines in the page's code blocks, their comments dropped."""
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", DOCS.read_text(), re.MULTILINE | re.DOTALL)
    lines = (line.strip().removeprefix("$ ") for block in blocks for line in block.splitlines())
    return [line for line in lines if line.startswith("companion clock")]


def test_the_page_has_examples() -> None:
    assert len(_examples()) >= 6
    assert any('"-!30"' in line for line in _examples())


@pytest.mark.parametrize("line", _examples())
def test_each_example_parses(line: str) -> None:
    words = shlex.split(line, comments=True)
    args = build_parser().parse_args(words[1:])
    assert args.command == "clock"
    # The controls parse and make a clock: everything short of running it.
    runner, names = build_runner(args, now=lambda: 0)
    assert len(names) == len(runner.clock.controls) >= 2


def test_a_control_that_starts_with_a_dash_goes_anywhere() -> None:
    parser = build_parser()
    for words in (["-!30", "--players", "4"], ["--players", "4", "-!30"], ["-", "-!20"]):
        args = parser.parse_args(["clock", *words])
        assert [c for c in args.controls if c.startswith("-")] == [
            w for w in words if w.startswith("-") and not w.startswith("--")
        ]
