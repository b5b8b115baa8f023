"""A table hears the game a tournament hub assigns it (docs/tournament.md): the retained
assignment on the hall's broker reaches the table's stream, which hands it to the app; Home
offers to set it up, and New game opens with its game, players and named setup."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from companion.config import BrokerConfig, Config, GameConfig, StoreConfig
from companion.publish.mosquitto import Mosquitto, find_mosquitto
from companion.streaming import Streaming
from companion.table.assignment import Assignment, assignment_from
from tests.broker.clients import Client

ASSIGNMENT = {
    "schema": 1,
    "hub": "tournament",
    "event": "Spring open",
    "updated": "2026-03-14T16:05:40Z",
    "board": "table-2",
    "division": "Open",
    "game": "memwars",
    "game_title": "MemWars",
    "setup": "Club rapid",
    "round": 2,
    "names": ["Cy", "Bo"],
    "played": False,
    "text": "Round 2: Cy vs Bo, MemWars, Club rapid setup",
}


def test_an_assignment_is_read_from_its_message_and_nothing_else_is() -> None:
    assignment = assignment_from(json.dumps(ASSIGNMENT).encode())
    assert assignment == Assignment(
        text="Round 2: Cy vs Bo, MemWars, Club rapid setup",
        game="memwars",
        setup="Club rapid",
        names=("Cy", "Bo"),
        played=False,
    )
    for bad in (b"", b"not json", b"[]", json.dumps({**ASSIGNMENT, "names": "Cy"}).encode()):
        assert assignment_from(bad) is None


@pytest.mark.skipif(find_mosquitto() is None, reason="mosquitto is not installed")
def test_the_tables_stream_hears_the_hubs_assignment_on_the_halls_broker(tmp_path: Path) -> None:
    with Mosquitto() as hall:
        hub = Client("hub", hall.port)
        try:
            hub.publish(
                "tabletop/tournament/table/table-2", json.dumps(ASSIGNMENT).encode(), retain=True
            )
            hub.publish(  # another table's: not this one's business
                "tabletop/tournament/table/table-3",
                json.dumps({**ASSIGNMENT, "board": "table-3"}).encode(),
                retain=True,
            )
            config = Config(
                store=StoreConfig(path=str(tmp_path / "games.sqlite3")),
                broker=BrokerConfig(url=hall.url),
                game=GameConfig(board_id="table-2"),
            )
            heard: list[Any] = []
            arrived = threading.Event()

            def on_assignment(assignment: Any) -> None:
                heard.append(assignment)
                arrived.set()

            with Streaming(config, display_port=0, local=True) as streaming:
                streaming.follow_assignments(on_assignment)
                for _ in range(100):  # told at once when it had come, else when it comes
                    if heard and heard[-1] is not None:
                        break
                    arrived.wait(0.1)
                    arrived.clear()
                assert heard[-1] is not None and heard[-1].names == ("Cy", "Bo")
                assert all(h is None or h.names == ("Cy", "Bo") for h in heard)
                count = len(heard)
                arrived.clear()
                hub.publish("tabletop/tournament/table/table-2", b"", retain=True)  # taken back
                assert arrived.wait(10)
                assert heard[-1] is None and len(heard) == count + 1
        finally:
            hub.close()
