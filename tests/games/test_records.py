"""A game played live is the game its record replays to, and every game has golden records.

The live path is the referee's: each action committed to a SQLite store, the record
exported from the store, read back with the record reader and replayed. The golden records'
results are checked by each game's own tests (tests/test_golden_records.py,
tests/mem/test_golden.py); here, only that every registered game has some.
"""

from __future__ import annotations

import io
import json
import tempfile
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.plugin import GamePlugin
from companion.record import read_record, replay

from .play import PLUGINS, SETTINGS, play, record_live, setups

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


# Fewer examples: every action is a committed (and synced) SQLite transaction.
@settings(SETTINGS, max_examples=8)
@given(data=st.data())
def test_the_record_of_a_live_game_replays_to_it(plugin: GamePlugin, data: st.DataObject) -> None:
    setup, seed = data.draw(setups(plugin))
    game = play(plugin, setup, seed)
    with tempfile.TemporaryDirectory() as directory:
        live = record_live(plugin, setup, game.actions, Path(directory))
    assert live.state == game.final
    record = read_record(io.StringIO(live.record))
    assert record.header.game == plugin.name
    assert [r.action for r in record.actions] == game.actions
    replayed = replay(record)
    assert replayed.state == game.final
    assert replayed.implied == ()
    assert [e for seq, e in replayed.events if seq == 0] == list(game.opening)
    assert [(seq, e) for seq, e in replayed.events if seq > 0] == list(live.events)


def golden_records_by_game() -> dict[str, list[str]]:
    """Every record under tests/golden/, by the game its header names."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(GOLDEN.rglob("*.jsonl")):
        with path.open() as lines:
            header = json.loads(lines.readline())
        found[header["game"]].append(str(path.relative_to(GOLDEN)))
    return found


def test_every_game_has_a_golden_record(plugin: GamePlugin) -> None:
    assert golden_records_by_game().get(plugin.name), f"no golden record for {plugin.name}"


@pytest.mark.parametrize("name", sorted(golden_records_by_game()))
def test_every_golden_record_is_of_a_registered_game(name: str) -> None:
    assert name in PLUGINS, golden_records_by_game()[name]
