"""Game records, mutated from the golden ones and a simulated game: every one replays, or
is one clear line; a time that is not finite or goes backwards is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cli import main
from companion.errors import UserError
from companion.record import read_record_file, replay
from tests.fuzz.harness import (
    FUZZ,
    FUZZ_SUBPROCESS,
    hostile_scalar,
    mutated,
    run_companion,
    survives,
    write,
)

GOLDEN = Path(__file__).parents[1] / "golden"
SEEDS = [
    (GOLDEN / "board-wins.jsonl").read_bytes(),
    (GOLDEN / "mem" / "mini-copy-the-row.jsonl").read_bytes(),
]


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The record of a short simulated game, as `companion simulate --record` writes it."""
    path = tmp_path_factory.mktemp("simulated") / "game.jsonl"
    args = ["simulate", "--no-store", "--quiet", "--delay", "0", "--quadrants", "1"]
    assert main([*args, "--record", str(path)]) == 0
    return path.read_bytes()


def replay_file(path: Path) -> None:
    record = read_record_file(str(path))
    result = replay(record, str(path))
    result.engine.summary(result.state)


def leaves(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value, containers included."""
    found = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found += leaves(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += leaves(item, (*at, index))
    return found


def replaced(value: Any, at: tuple[Any, ...], new: Any) -> Any:
    if not at:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[at[0]] = replaced(value[at[0]], at[1:], new)
    return copy


@FUZZ
@given(which=st.integers(0, len(SEEDS)), data=st.data())
def test_a_mutated_record_replays_or_is_refused(
    tmp_path: Path, simulated: bytes, which: int, data: st.DataObject
) -> None:
    seed = [*SEEDS, simulated][which]
    path = write(tmp_path / "game.jsonl", data.draw(mutated(seed)))
    survives("record bytes", lambda: replay_file(path))


@FUZZ
@given(which=st.integers(0, len(SEEDS)), data=st.data())
def test_a_record_with_a_hostile_value_replays_or_is_refused(
    tmp_path: Path, simulated: bytes, which: int, data: st.DataObject
) -> None:
    lines = [*SEEDS, simulated][which].decode().splitlines()
    number = data.draw(st.integers(0, min(len(lines), 40) - 1))
    line = json.loads(lines[number])
    at = data.draw(st.sampled_from(leaves(line)))
    lines[number] = json.dumps(replaced(line, at, data.draw(hostile_scalar())))
    path = write(tmp_path / "game.jsonl", "\n".join(lines).encode("utf-8", "surrogatepass"))
    survives("record values", lambda: replay_file(path))


@FUZZ_SUBPROCESS
@given(which=st.integers(0, len(SEEDS)), data=st.data())
def test_replay_ends_in_one_line(
    tmp_path: Path, simulated: bytes, which: int, data: st.DataObject
) -> None:
    seed = [*SEEDS, simulated][which]
    path = write(tmp_path / "game.jsonl", data.draw(mutated(seed)))
    run_companion("replay command", ["replay", str(path)])


@pytest.mark.parametrize(
    ("t", "message"),
    [
        ("NaN", "not valid JSON: NaN is not a JSON number"),
        ("Infinity", "not valid JSON: Infinity is not a JSON number"),
        ("1e999", "'t' must be a finite number of seconds"),
        ("-1", "'t' must be a finite number of seconds, 0 or more"),
        ("0.0", "'t' goes backwards"),
    ],
)
def test_a_time_that_is_not_finite_or_goes_back_is_refused(
    tmp_path: Path, t: str, message: str
) -> None:
    lines = SEEDS[0].decode().splitlines()
    third = json.loads(lines[3])
    assert third["t"] > 0
    lines[3] = lines[3].replace(f'"t":{json.dumps(third["t"])}', f'"t":{t}', 1)
    assert lines[3] != json.dumps(third)
    path = write(tmp_path / "game.jsonl", "\n".join(lines).encode())
    with pytest.raises(UserError, match=message.replace("(", r"\(")) as caught:
        replay_file(path)
    assert caught.value.where == f"{path}:4"


def test_deep_nesting_is_one_line(tmp_path: Path) -> None:
    path = write(tmp_path / "game.jsonl", b"[" * 5000 + b"\n")
    done = run_companion("replay command", ["replay", str(path)])
    assert done.returncode == 2 and "nested too deeply" in done.stderr
