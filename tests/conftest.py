"""Shared fixtures. Importing the toy engine registers it as "toy" for every test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import tests.support.toy_game  # noqa: F401  (registers the "toy" engine)
from companion.store import Store


@pytest.fixture()
def game_store(tmp_path: Path) -> Iterator[Store]:
    """A fresh, open games store in a temporary directory."""
    with Store.open(tmp_path / "games.sqlite3") as store:
        yield store
