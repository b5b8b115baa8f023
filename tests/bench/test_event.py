"""bench/event.py runs: a tiny event (3 tables, 6 display pages, a wall, 2 s of play) through
one mosquitto, through two bridged, and a round of 3 results through the hub. No timing is
asserted: the figures are the benchmark's to print."""

from __future__ import annotations

import pytest

from bench import event
from companion.publish.mosquitto import find_mosquitto

pytestmark = pytest.mark.skipif(find_mosquitto() is None, reason="mosquitto is not installed")

TINY = ["--tables", "3", "--spectators", "6", "--walls", "1", "--seconds", "2"]


def test_the_recorded_game_makes_valid_messages() -> None:
    game = event.record_game()  # each template is checked against its schema as it is made
    assert len(game.moves) > 50
    assert all(move[-1].kind == "state" for move in game.moves)
    assert {m.kind for move in game.moves for m in move[:-1]} == {"event"}
    assert game.clocks and game.first_state.kind == "state"


@pytest.mark.parametrize("part", ["single", "bridged", "hub"])
def test_a_tiny_event_runs(part: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert event.main([*TINY, "--move-every", "0.5", "--only", part]) == 0
    out = capsys.readouterr().out
    assert "floor" in out
    if part == "hub":
        assert "standings with all 3 results published" in out
    else:
        assert "retained on subscribing: 18 of 18" in out
        assert "lost: 0 of " in out
