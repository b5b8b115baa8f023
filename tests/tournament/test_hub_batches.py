"""The hub records everything it has heard in one go and publishes once, only what changed;
results heard while another command wrote the event file are matched against the file as
it stands. Without a broker (a listener's queue and a publisher that keeps what it is
given), but for the last test: after a broker restart, nothing the hub published is lost."""

from __future__ import annotations

import hashlib
import json
import logging
import queue
from pathlib import Path
from typing import Any, cast

import pytest

from companion.publish.mosquitto import Mosquitto, find_mosquitto
from companion.publish.publisher import Publisher
from companion.publish.wire import Message, encode, result_payload
from companion.tournament.event_store import EventStore
from companion.tournament.hub import Hub, ResultListener
from companion.tournament.model import Outcome, Pairing
from companion.tournament.rounds import next_round
from tests.tournament.tables import PREFIX, Retained, running_hub, wait_until

HUB = "hub"
PLAYERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
BOARDS = ["table-1", "table-2", "table-3", "table-4"]


class Kept:
    """A publisher that keeps what it is given."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    def publish(self, message: Message) -> None:
        self.messages.append(message)

    def topics(self) -> list[str]:
        return [m.topic for m in self.messages]

    def payloads(self, kind: str) -> list[dict[str, Any]]:
        return [json.loads(m.payload) for m in self.messages if m.kind == kind]

    def take(self) -> list[Message]:
        taken, self.messages = self.messages, []
        return taken


class Heard:
    """A listener's queue, filled by the test."""

    def __init__(self) -> None:
        self.heard: queue.Queue[tuple[str, bytes]] = queue.Queue()

    def hear(self, board: str, payload: bytes) -> None:
        self.heard.put((f"{PREFIX}/{board}/result", payload))


def make_event(path: Path) -> None:
    with EventStore.create(path, name="Club night", hub=HUB) as store:
        for name in PLAYERS:
            store.add_player(name, "Open")
        store.set_division("Open", game="memwars", rounds=3)
        store.add_round(next_round(store.event(), "Open"))


def result(pairing: Pairing, scores: tuple[int, int], *, tag: str = "") -> bytes:
    """The result message the pairing's table publishes: the first seat wins if it
    scored more."""
    assert pairing.board is not None
    payload = result_payload(
        board=pairing.board,
        t=600.0,
        game="memwars",
        game_id=1,
        title="",
        names=list(pairing.seats),
        scores=[float(s) for s in scores],
        winners=[0 if scores[0] > scores[1] else 1],
        reason="complete",
        record_hash=hashlib.sha256(f"{pairing.board}{tag}".encode()).hexdigest(),
        ended="2026-03-14T16:02:11Z",
    )
    return encode(payload)


def played(standings: dict[str, Any]) -> int:
    """Games counted in the standings."""
    return int(sum(row["played"] for row in standings["standings"])) // 2


@pytest.fixture
def hub(tmp_path: Path) -> Any:
    path = tmp_path / "event.sqlite3"
    make_event(path)
    with EventStore.open(path) as store:
        hub = Hub(store, cast(Publisher, Kept()), cast(ResultListener, Heard()), PREFIX)
        hub.publish_all()
        yield hub


def kept(hub: Hub) -> Kept:
    return cast(Kept, hub.publisher)


def heard(hub: Hub) -> Heard:
    return cast(Heard, hub.listener)


def test_a_batch_of_results_is_all_recorded_and_published_once(
    hub: Hub, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="companion.tournament.hub")
    assert sorted(kept(hub).topics()) == sorted(
        [f"{PREFIX}/{HUB}/standings/Open", f"{PREFIX}/{HUB}/pairings/Open"]
        + [f"{PREFIX}/{HUB}/table/{b}" for b in BOARDS]
    )
    kept(hub).take()
    pairings = hub.store.event().pairings_of("Open", 1)
    for pairing in pairings:
        heard(hub).hear(pairing.board or "", result(pairing, (14, 11)))
    first = pairings[0]
    heard(hub).hear("table-1", result(first, (14, 11)))  # heard again: the same game
    heard(hub).hear("table-1", result(first, (9, 16), tag="again"))  # another game there
    heard(hub).hear("table-2", b"not a result")
    heard(hub).hear("table-3", b"")  # a retained result cleared

    hub.step(0)

    # Every result in the file, on disk: another connection reads them.
    with EventStore.open(hub.store.path) as other:
        event = other.event()
    assert all(p.result is not None for p in event.pairings_of("Open", 1))
    assert [p.result.outcome for p in event.pairings_of("Open", 1) if p.result] == [
        Outcome((14.0, 11.0), (0,))
    ] * 4
    assert hub.recorded == 4
    # Published once, counting all of them.
    [standings] = kept(hub).payloads("standings")
    assert played(standings) == 4
    [round_one] = kept(hub).payloads("pairings")
    assert all(table["result"] is not None for table in round_one["tables"])
    assignments = kept(hub).payloads("assignment")
    assert sorted(a["board"] for a in assignments) == BOARDS
    assert all(a["played"] for a in assignments)
    lines = [r.getMessage() for r in caplog.records]
    assert sum("result recorded" in line for line in lines) == 4
    assert any("table-1: game 1's result is already recorded" in line for line in lines)
    assert any("table-1: its game of round 1 already has a result" in line for line in lines)
    assert any("table-2/result: not a result" in line for line in lines)

    # Nothing new heard: nothing published.
    kept(hub).take()
    hub.step(0)
    assert kept(hub).messages == []


def test_an_unchanged_topic_is_not_published_again(hub: Hub) -> None:
    kept(hub).take()
    hub.publish_all()
    assert kept(hub).messages == []  # nothing changed, nothing sent, whatever the time

    first = hub.store.event().pairings_of("Open", 1)[0]
    heard(hub).hear("table-1", result(first, (10, 15)))
    hub.step(0)
    assert sorted(kept(hub).topics()) == [
        f"{PREFIX}/{HUB}/pairings/Open",
        f"{PREFIX}/{HUB}/standings/Open",
        f"{PREFIX}/{HUB}/table/table-1",
    ]
    [table_1] = kept(hub).payloads("assignment")
    assert table_1["played"] and table_1["updated"]

    # Another command changes the file: only what it changed is published.
    kept(hub).take()
    with EventStore.open(hub.store.path) as desk:
        desk.add_player("Ivy", "Juniors")
    hub.step(0)
    assert sorted(kept(hub).topics()) == [
        f"{PREFIX}/{HUB}/pairings/Juniors",
        f"{PREFIX}/{HUB}/standings/Juniors",
    ]


def test_results_heard_while_another_command_wrote_the_file_are_still_handled(
    hub: Hub, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="companion.tournament.hub")
    pairings = hub.store.event().pairings_of("Open", 1)
    for pairing in pairings:
        heard(hub).hear(pairing.board or "", result(pairing, (14, 11)))
    kept(hub).take()
    # Before the hub handles them, the desk types table-2's result and adds a player.
    with EventStore.open(hub.store.path) as desk:
        desk.add_result(pairings[1].id, Outcome((9.0, 16.0), (1,)), source="hand")
        desk.add_player("Ivy", "Juniors")

    hub.step(0)

    event = hub.store.event()
    results = [p.result for p in event.pairings_of("Open", 1)]
    assert [r.source for r in results if r] == ["table", "hand", "table", "table"]
    assert hub.recorded == 3
    lines = [r.getMessage() for r in caplog.records]
    assert any("table-2: its game of round 1 already has a result" in line for line in lines)
    [standings] = [p for p in kept(hub).payloads("standings") if p["division"] == "Open"]
    assert played(standings) == 4
    [round_one] = kept(hub).payloads("pairings")[:1]
    assert [t["result"]["source"] for t in round_one["tables"]] == [
        "table",
        "hand",
        "table",
        "table",
    ]
    assert f"{PREFIX}/{HUB}/standings/Juniors" in kept(hub).topics()


def test_a_correction_or_a_withdrawal_at_the_desk_is_published(hub: Hub) -> None:
    """The desk corrects a table's result and withdraws a player while the hub runs: the
    hub publishes what each changed, and only that."""
    first = hub.store.event().pairings_of("Open", 1)[0]
    heard(hub).hear("table-1", result(first, (14, 11)))
    hub.step(0)
    kept(hub).take()
    with EventStore.open(hub.store.path) as desk:
        desk.correct(first.id, Outcome((11.0, 14.0), (1,)), why="scores swapped")
    hub.step(0)
    assert sorted(kept(hub).topics()) == [
        f"{PREFIX}/{HUB}/pairings/Open",
        f"{PREFIX}/{HUB}/standings/Open",
    ]
    [standings] = kept(hub).payloads("standings")
    winner = first.seats[1]
    assert standings["standings"][0]["name"] == winner
    assert standings["standings"][0]["rating"]["mu"] > 25
    [pairings] = kept(hub).payloads("pairings")
    table_1 = pairings["tables"][0]["result"]
    assert table_1["winners"] == [1] and table_1["source"] == "table"
    assert table_1["hash"] == hashlib.sha256(b"table-1").hexdigest()
    assert table_1["corrected"]["why"] == "scores swapped"

    # A withdrawal changes the standings only (marked), until the next round is paired.
    kept(hub).take()
    with EventStore.open(hub.store.path) as desk:
        desk.withdraw("Hal")
    hub.step(0)
    assert kept(hub).topics() == [f"{PREFIX}/{HUB}/standings/Open"]
    [standings] = kept(hub).payloads("standings")
    assert {r["name"]: r["withdrawn"] for r in standings["standings"]}["Hal"] == 2

    # The table's result heard again (the broker resends it retained): ignored, the
    # correction stands.
    kept(hub).take()
    heard(hub).hear("table-1", result(first, (14, 11)))
    hub.step(0)
    assert kept(hub).messages == []
    corrected = hub.store.event().pairings_of("Open", 1)[0].result
    assert corrected is not None and corrected.outcome.winners == (1,)


@pytest.mark.skipif(find_mosquitto() is None, reason="mosquitto is not installed")
def test_every_topic_is_there_again_after_the_broker_restarts(tmp_path: Path) -> None:
    """Topics the hub published once, and not again since (unchanged), are sent again
    when the broker comes back without what it retained."""
    path = tmp_path / "event.sqlite3"
    make_event(path)
    everything = [
        f"{PREFIX}/{HUB}/{topic}"
        for topic in ("standings/Open", "pairings/Open", *(f"table/{b}" for b in BOARDS))
    ]
    with (
        Mosquitto() as broker,
        EventStore.open(path) as store,
        running_hub(path, broker.url) as running,
    ):
        first = store.event().pairings_of("Open", 1)[0]
        sender = Publisher(broker.url, board_id="table-1", prefix=PREFIX)
        try:
            sender.publish(
                Message("result", f"{PREFIX}/table-1/result", result(first, (14, 11)), 1, True)
            )
            assert sender.wait_idle(10)
        finally:
            sender.close()
        assert wait_until(lambda: running().recorded == 1)
        wall = Retained(broker.port, f"{PREFIX}/{HUB}/#")
        try:
            assert wall.wait_for(
                lambda latest: (
                    all(t in latest for t in everything) and played(latest[everything[0]]) == 1
                )
            )
            before = {t: wall.latest[t] for t in everything}
        finally:
            wall.close()

        broker.stop()
        broker.start()

        assert wait_until(lambda: running().publisher.stats().connections >= 2)
        late = Retained(broker.port, f"{PREFIX}/{HUB}/#")
        try:
            assert late.wait_for(lambda latest: all(t in latest for t in everything))
            assert {t: late.latest[t] for t in everything} == before
            assert late.latest[f"{PREFIX}/{HUB}/hub/status"] == "online"
        finally:
            late.close()
