"""Shared fixtures. Importing the toy engine registers it as "toy" for every test."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import tests.support.toy_game  # noqa: F401  (registers the "toy" engine)
from companion.publish.mosquitto import Mosquitto, find_mosquitto
from companion.store import Store

HOME_VARIABLES = (
    ("XDG_CONFIG_HOME", ".config"),
    ("XDG_DATA_HOME", ".local/share"),
    ("XDG_STATE_HOME", ".local/state"),
    ("XDG_CACHE_HOME", ".cache"),
)


def _point_home_at(home: Path, setenv: Callable[[str, str], object]) -> None:
    setenv("HOME", str(home))
    for name, under in HOME_VARIABLES:
        setenv(name, str(home / under))


# A home of the session's own, set as this file is imported: it is imported before any
# other conftest or test module, so what happens at import time (Kivy opening its window,
# Mesa caching its shaders) stays out of the user's home too.
_SESSION_HOME = Path(tempfile.mkdtemp(prefix="companion-tests-home-"))
_USER_HOME = {name: os.environ.get(name) for name in ("HOME", *(n for n, _ in HOME_VARIABLES))}
_point_home_at(_SESSION_HOME, os.environ.__setitem__)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked long run first, and with them the files they are in: with the suite
    spread over parallel workers, each starts on one of them and the rest fill in around
    them, so that no worker is left with a long test at the end."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


def pytest_unconfigure(config: pytest.Config) -> None:
    for name, value in _USER_HOME.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    shutil.rmtree(_SESSION_HOME, ignore_errors=True)


@pytest.fixture(autouse=True)
def _private_user_directories(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test gets its own data directory, no configuration file (every default) and a
    home of its own, so that no test reads the user's games or settings, or leaves anything
    in them. Subprocesses inherit the same environment."""
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.toml"))
    # The home is beside tmp_path, not in it: tests that list tmp_path see only their files.
    _point_home_at(tmp_path_factory.mktemp("home"), monkeypatch.setenv)


@pytest.fixture()
def data_dir(tmp_path: Path) -> Path:
    """The test's own user data directory (COMPANION_DATA), not created yet."""
    return tmp_path / "data"


@pytest.fixture()
def game_store(tmp_path: Path) -> Iterator[Store]:
    """A fresh, open games store in a temporary directory."""
    with Store.open(tmp_path / "games.sqlite3") as store:
        yield store


@pytest.fixture()
def broker() -> Iterator[Mosquitto]:
    """A real mosquitto of the test's own, on a free loopback port."""
    if find_mosquitto() is None:
        pytest.skip("mosquitto is not installed")
    with Mosquitto() as running:
        yield running
