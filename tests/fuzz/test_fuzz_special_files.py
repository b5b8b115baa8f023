"""Whatever a file name points at (a FIFO, a device, a directory, a link to nowhere, a huge
file), every loader answers at once with one line, and every command exits with code 2."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.config import load_config
from companion.decks.load import load_deck
from companion.errors import UserError
from companion.record import read_record_file
from tests.fuzz.harness import run_companion, survives


def _calibration(path: Path) -> None:
    from vision.calibration_file import load_calibration

    load_calibration(path)


def _board(path: Path) -> None:
    from vision.geometry import load_board

    load_board(path)


LOADERS: dict[str, Callable[[Path], object]] = {
    "deck": load_deck,
    "record": lambda path: read_record_file(str(path)),
    "config": load_config,
    "calibration": _calibration,
    "board": _board,
}


def special(kind: str, tmp_path: Path) -> Path:
    if kind == "fifo":
        path = tmp_path / "fifo"
        os.mkfifo(path)
        return path
    if kind == "directory":
        return tmp_path
    if kind == "dangling link":
        path = tmp_path / "link"
        path.symlink_to(tmp_path / "nowhere")
        return path
    if kind == "huge":
        path = tmp_path / "huge"
        with open(path, "wb") as file:
            file.truncate(64_000_000)  # sparse: no disk used
        return path
    return Path(kind)


KINDS = ("fifo", "directory", "dangling link", "huge", "/dev/zero", "/dev/urandom", "/dev/null")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("loader", sorted(LOADERS))
def test_a_special_file_is_refused_at_once(tmp_path: Path, loader: str, kind: str) -> None:
    path = special(kind, tmp_path)
    err = survives("special files", lambda: LOADERS[loader](path))
    if kind != "/dev/null" or loader != "config":
        assert isinstance(err, UserError), f"{loader} took {kind}"


COMMANDS: dict[str, Callable[[str], tuple[list[str], dict[str, str]]]] = {
    "replay": lambda path: (["replay", path], {}),
    "deck show": lambda path: (["deck", "show", path], {}),
    "config show": lambda path: (["config", "show"], {"COMPANION_CONFIG": path}),
    "--config": lambda path: (["--config", path, "config", "show"], {}),
}


@pytest.mark.parametrize("kind", ("fifo", "/dev/zero", "/dev/urandom", "dangling link"))
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_command_given_a_special_file_exits_with_2(
    tmp_path: Path, command: str, kind: str
) -> None:
    args, env = COMMANDS[command](str(special(kind, tmp_path)))
    done = run_companion("special files", args, env)
    assert done.returncode == 2, done.stderr
