from __future__ import annotations

from pathlib import Path

import pytest

from companion.decks import load as load_module

from .helpers import deck_data, write_deck


@pytest.fixture
def deck_file(tmp_path: Path) -> Path:
    """A valid 100-card deck on disk."""
    return write_deck(tmp_path, deck_data())


@pytest.fixture
def bundled_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty stand-in for companion/decks/data/, so tests do not depend on what ships."""
    directory = tmp_path / "bundled"
    directory.mkdir()
    monkeypatch.setattr(load_module, "DATA_DIR", directory)
    return directory
