"""A game that cannot be taken up leaves nothing behind for Home to offer."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.config import Config
from companion.games.mem.screens.choices import MemChoices
from companion.games.memwars.play.choices import MemWarsChoices
from companion.store import Store
from companion.table.wiring import GameParts, PutDown
from companion.ui.controller import Controller


def failing_stream(parts: GameParts) -> PutDown:
    raise RuntimeError("the stream would not start")


def test_a_start_that_fails_leaves_no_game(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite3") as store:
        controller = Controller(Config(), store, on_game=failing_stream)
        with pytest.raises(RuntimeError):
            controller.start("memwars", MemWarsChoices(quadrants=1, seed=3))
        with pytest.raises(RuntimeError):
            controller.start("mem", MemChoices(game="mem", names=("Ada", "Bo"), seed=8))
        assert store.games() == [] and controller.resumable() == []
        assert controller.play is None


def test_the_stream_is_given_the_clock_and_the_scans_by_name(tmp_path: Path) -> None:
    handed: list[GameParts] = []

    def stream(parts: GameParts) -> PutDown:
        handed.append(parts)
        return lambda: None

    with Store.open(tmp_path / "games.sqlite3") as store:
        controller = Controller(Config(), store, on_game=stream)
        controller.start("memwars", MemWarsChoices(quadrants=1, seed=3, time_control="5+3"))
        (parts,) = handed
        assert parts.clock is not None and parts.clock is controller.clock
        assert parts.scans is None  # no card reader in this game
        controller.close()
