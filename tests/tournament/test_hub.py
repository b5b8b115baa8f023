"""The hub against a real mosquitto, with simulated tables playing real games."""

from __future__ import annotations

import json
import logging
from functools import partial
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion.publish.mosquitto import Mosquitto, find_mosquitto
from companion.publish.wire import validate
from companion.store import Store, verify_game
from companion.tournament.event_store import EventStore
from companion.tournament.model import Outcome
from companion.tournament.ratings import MODEL
from companion.tournament.rounds import next_round
from tests.tournament.tables import PREFIX, Retained, play_table, running_hub, wait_until

pytestmark = pytest.mark.skipif(find_mosquitto() is None, reason="mosquitto is not installed")

PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
HUB = "hub"

EXPECTED_ROUNDS = [
    # (board, seats in order, scores, winner's seat)
    [
        ("table-1", ("Ann", "Ed"), (12, 13), 1),
        ("table-2", ("Bo", "Flo"), (11, 14), 1),
        ("table-3", ("Cy", "Gus"), (12, 13), 1),
        ("table-4", ("Di", "Hal"), (13, 12), 0),
    ],
    [
        ("table-1", ("Flo", "Ed"), (13, 12), 0),
        ("table-2", ("Gus", "Di"), (15, 10), 0),
        ("table-3", ("Hal", "Ann"), (12, 13), 1),
        ("table-4", ("Cy", "Bo"), (14, 11), 0),
    ],
    [
        ("table-1", ("Gus", "Flo"), (14, 11), 0),
        ("table-2", ("Ed", "Di"), (12, 13), 1),
        ("table-3", ("Ann", "Cy"), (12, 13), 1),
        ("table-4", ("Bo", "Hal"), (13, 12), 0),
    ],
    [
        ("table-1", ("Ed", "Gus"), (13, 12), 0),
        ("table-2", ("Di", "Cy"), (13, 12), 0),
        ("table-3", ("Flo", "Hal"), (8, 17), 1),
        ("table-4", ("Bo", "Ann"), (14, 11), 0),
    ],
]

EXPECTED_STANDINGS = [
    # name, points, Buchholz, Sonneborn-Berger, score
    ("Gus", 3, 9, 7, 54),
    ("Di", 3, 8, 5, 49),
    ("Ed", 2, 9, 4, 50),
    ("Cy", 2, 9, 3, 51),
    ("Flo", 2, 8, 4, 46),
    ("Bo", 2, 6, 2, 49),
    ("Hal", 1, 8, 2, 53),
    ("Ann", 1, 7, 1, 48),
]


def paired(latest: dict[str, Any], boards: list[str], number: int) -> bool:
    """Every board has been told its game of round `number`."""
    return all(
        (latest.get(f"{PREFIX}/{HUB}/table/{b}") or {}).get("round") == number for b in boards
    )


def test_a_simulated_swiss_event_runs_end_to_end(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A simulated 8-player, 4-round Swiss event of simulated tables runs end to end:
    pairings, results from real game records, standings and ratings match a hand-checked
    expectation.

    Each game is a one-quadrant Basic MemWars game between simulated players (seed 100 x
    round + table index), refereed into the table's own store and streamed as a table
    streams it; the hub hears each result message and records it. The games came out as
    EXPECTED_ROUNDS says; the pairings are checked by hand from the rules
    (docs/tournament.md):

    - Round 1, everyone on 0, by name: top half against bottom half: Ann-Ed, Bo-Flo,
      Cy-Gus, Di-Hal (the higher-ranked sits first).
    - Round 2. Winners Ed, Flo, Gus, Di (1 point; Buchholz and Sonneborn-Berger 0; by score
      Flo 14, then Di, Ed, Gus on 13 by name): Flo-Ed, Di-Gus. Losers (scores Ann, Cy, Hal
      12, Bo 11): Ann-Hal, Cy-Bo. Seats: Flo and Ed both sat second, Flo ranks higher and
      sits first; Gus sat second and Di first: Gus first; Hal before Ann likewise; Cy and
      Bo both sat first in round 1 (Cy ranked higher).
    - Round 3. Flo and Gus on 2 meet. On 1: Ed (Buchholz Ann 1 + Flo 2 = 3), Cy and Di
      (2; Sonneborn-Berger 0 each; scores Cy 26, Di 23), Ann (1): Ed-Di (1 v 3), Cy-Ann.
      On 0: Bo-Hal.
    - Round 4. Gus (3) has met Cy, Di and Flo, every player on 2: he meets the top of the
      1-point group, Ed (Buchholz 5, Bo 4, Ann 3). Cy-Flo would leave Hal (who has met Di,
      Ann and Bo) nobody: Cy-Di, Flo-Hal, Bo-Ann.

    Standings after round 4, from those games:

    - Points: Gus W W W L = 3, Di W L W W = 3, Ed W L L W, Cy L W W L, Flo W W L L,
      Bo L L W W = 2 each, Hal L L L W, Ann L W L L = 1 each (16 in all: 16 games).
    - Buchholz: Gus: Cy 2 + Di 3 + Flo 2 + Ed 2 = 9; Di: Hal 1 + Gus 3 + Ed 2 + Cy 2 = 8;
      Ed: Ann 1 + Flo 2 + Di 3 + Gus 3 = 9; Cy: Gus 3 + Bo 2 + Ann 1 + Di 3 = 9;
      Flo: Bo 2 + Ed 2 + Gus 3 + Hal 1 = 8; Bo: Flo 2 + Cy 2 + Hal 1 + Ann 1 = 6;
      Hal: Di 3 + Ann 1 + Bo 2 + Flo 2 = 8; Ann: Ed 2 + Hal 1 + Cy 2 + Bo 2 = 7.
    - Sonneborn-Berger (the points of those beaten): Gus: Cy 2 + Di 3 + Flo 2 = 7;
      Di: Hal 1 + Ed 2 + Cy 2 = 5; Ed: Ann 1 + Gus 3 = 4; Cy: Bo 2 + Ann 1 = 3;
      Flo: Bo 2 + Ed 2 = 4; Bo: Hal 1 + Ann 1 = 2; Hal: Flo 2; Ann: Hal 1.
    - Scores: Gus 13+15+14+12 = 54, Di 13+10+13+13 = 49, Ed 13+12+12+13 = 50,
      Cy 12+14+13+12 = 51, Flo 14+13+11+8 = 46, Bo 11+11+13+14 = 49, Hal 12+12+12+17 = 53,
      Ann 12+13+12+11 = 48.
    - Order: on 3, Gus (Buchholz 9) before Di (8); on 2, Ed and Cy (9; Sonneborn-Berger 4
      before 3), Flo (8), Bo (6); on 1, Hal (8) before Ann (7).

    Ratings: openskill's Plackett-Luce, fed the same games one at a time in the order
    they were recorded, gives what the hub publishes.
    """
    caplog.set_level(logging.INFO, logger="companion.tournament.hub")
    path = tmp_path / "event.sqlite3"
    games = tmp_path / "tables"
    games.mkdir()
    with EventStore.create(path, name="Club night", hub=HUB) as store:
        for name in PLAYERS:
            store.add_player(name, "Open")
        store.set_division("Open", game="memwars", setup="Club rapid", rounds=4)
    with Mosquitto() as broker, EventStore.open(path) as store:
        with running_hub(path, broker.url) as hub:
            wall = Retained(broker.port, f"{PREFIX}/{HUB}/#")
            try:
                for number, expected in enumerate(EXPECTED_ROUNDS, start=1):
                    planned = next_round(store.event(), "Open")
                    store.add_round(planned)
                    assert [(b, s) for b, s, _, _ in expected] == list(planned.tables)
                    # The hub notices the new round (another connection wrote it) and tells
                    # each table its game.
                    boards = [board for board, *_ in expected]
                    assert wall.wait_for(partial(paired, boards=boards, number=number))
                    table_1 = wall.latest[f"{PREFIX}/{HUB}/table/table-1"]
                    seats = expected[0][1]
                    assert table_1["text"] == (
                        f"Round {number}: {seats[0]} vs {seats[1]}, MemWars, Club rapid setup"
                    )
                    for index, (board, seats, _, _) in enumerate(expected):
                        play_table(games, broker.url, board, seats, 100 * number + index)
                    assert wait_until(
                        lambda: not any(p.is_open for p in store.event().current_pairings())
                    ), "the hub did not record every result of the round"
                event = store.event()
                assert wall.wait_for(
                    lambda latest: all(
                        (latest.get(f"{PREFIX}/{HUB}/table/{b}") or {}).get("played")
                        for b, *_ in EXPECTED_ROUNDS[-1]
                    )
                )

                # Results from the tables' real records: the hash is the game's chain in the
                # table's store, which still verifies.
                for pairing in event.pairings:
                    expected_game = EXPECTED_ROUNDS[pairing.round - 1][
                        [b for b, *_ in EXPECTED_ROUNDS[pairing.round - 1]].index(
                            pairing.board or ""
                        )
                    ]
                    assert pairing.result is not None
                    scores = tuple(float(s) for s in expected_game[2])
                    assert pairing.result.outcome == Outcome(scores, (expected_game[3],))
                    assert pairing.result.source == "table"
                    with Store.open(games / f"{pairing.board}.sqlite3") as table_store:
                        assert pairing.result.game_id == pairing.round
                        assert verify_game(table_store, pairing.round).ok
                        assert table_store.head(pairing.round) == pairing.result.record_hash

                # What a wall that reloads gets at once: retained, schema-valid, as expected.
                late = Retained(broker.port, f"{PREFIX}/{HUB}/#")
                try:
                    assert late.wait_for(lambda latest: len(latest) >= 6)
                    standings = late.latest[f"{PREFIX}/{HUB}/standings/Open"]
                    pairings = late.latest[f"{PREFIX}/{HUB}/pairings/Open"]
                finally:
                    late.close()
                validate("standings", standings)
                validate("pairings", pairings)
                for board in ("table-1", "table-2", "table-3", "table-4"):
                    validate("assignment", wall.latest[f"{PREFIX}/{HUB}/table/{board}"])
                got = [
                    (r["name"], r["points"], r["buchholz"], r["sonneborn_berger"], r["score"])
                    for r in standings["standings"]
                ]
                assert got == EXPECTED_STANDINGS
                assert standings["round"] == 4 and standings["rounds"] == 4
                assert [t["names"] for t in pairings["tables"]] == [
                    list(s) for _, s, _, _ in EXPECTED_ROUNDS[-1]
                ]

                # Ratings: openskill itself, one game at a time, in the order recorded.
                ratings = {name: MODEL.rating() for name in PLAYERS}
                for pairing in event.results("Open"):
                    assert pairing.result is not None
                    a, b = pairing.seats
                    winner = pairing.result.outcome.winners[0]
                    [[ra], [rb]] = MODEL.rate(
                        [[ratings[a]], [ratings[b]]], ranks=[1, 2] if winner == 0 else [2, 1]
                    )
                    ratings[a], ratings[b] = ra, rb
                for row in standings["standings"]:
                    rating = ratings[row["name"]]
                    assert row["rating"]["mu"] == round(rating.mu, 3)
                    assert row["rating"]["sigma"] == round(rating.sigma, 3)
                top = max(standings["standings"], key=lambda r: r["rating"]["mu"])
                assert top["name"] in ("Gus", "Di")

                # A result for no pairing, a duplicate, a stranger's message: one line each,
                # at info, and nothing recorded.
                recorded = len(event.results("Open"))
                caplog.clear()
                sender = mqtt.Client(CallbackAPIVersion.VERSION2)
                sender.connect("127.0.0.1", broker.port)
                sender.loop_start()
                last = event.pairings_of("Open", 4)[0]
                assert last.result is not None
                again = {
                    "schema": 1,
                    "board": last.board,
                    "t": 100.0,
                    "game": "memwars",
                    "game_id": 4,
                    "title": "",
                    "names": list(last.seats),
                    "scores": [13, 12],
                    "winners": [0],
                    "reason": "complete",
                    "hash": last.result.record_hash,
                    "ended": "2026-03-14T16:02:11Z",
                }
                elsewhere = {**again, "board": "table-9", "hash": "0" * 64}
                for topic, payload in (
                    (f"{PREFIX}/table-1/result", json.dumps(again)),
                    (f"{PREFIX}/table-9/result", json.dumps(elsewhere)),
                    (f"{PREFIX}/table-2/result", "not a result"),
                ):
                    sender.publish(topic, payload, qos=1).wait_for_publish(5)
                sender.loop_stop()
                sender.disconnect()
                assert wait_until(lambda: len(caplog.records) >= 3, 10), caplog.text
                lines = [r.getMessage() for r in caplog.records]
                assert all(r.levelno == logging.INFO for r in caplog.records)
                assert any("table-1: game 4's result is already recorded" in line for line in lines)
                assert any("table-9: no pairing in the current round" in line for line in lines)
                assert any("table-2/result: not a result" in line for line in lines)
                assert all("\n" not in line for line in lines)
                assert len(store.event().results("Open")) == recorded
                assert hub().recorded == 16
                assert wall.latest[f"{PREFIX}/{HUB}/hub/status"] == "online"
                assert f"{PREFIX}/{HUB}/status" not in wall.latest
            finally:
                wall.close()

        # The hub started again (a restart): the broker hands it every board's retained
        # result, each the last game of its board, already recorded: nothing is doubled.
        caplog.clear()
        with running_hub(path, broker.url) as restarted:
            assert wait_until(
                lambda: sum("already recorded" in r.getMessage() for r in caplog.records) >= 4,
                10,
            ), caplog.text
            assert restarted().recorded == 0
        assert len(store.event().results("Open")) == 16
