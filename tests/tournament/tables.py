"""Simulated tables for the hub's tests: a real refereed game between simulated players,
stored in the table's own games store and streamed to the broker as a table streams it,
result message included."""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.config import BrokerConfig
from companion.games import find_plugin
from companion.publish.publisher import Publisher
from companion.publish.stream import GameStream
from companion.session import Referee
from companion.store import Store
from companion.tournament.event_store import EventStore
from companion.tournament.hub import Hub

PREFIX = "club"
GAME = "memwars"


def table_setup(seats: tuple[str, ...], seed: int) -> dict[str, Any]:
    """A one-quadrant Basic MemWars game: a few dozen actions."""
    return {"sides": [{"name": n} for n in seats], "mode": "basic", "quadrants": [1], "seed": seed}


def play_table(games: Path, broker_url: str, board: str, seats: tuple[str, ...], seed: int) -> int:
    """Plays a game at `board` between simulated players, streamed; its game id in the
    table's store (games/<board>.sqlite3)."""
    plugin = find_plugin(GAME)
    rng = random.Random(seed)
    with Store.open(games / f"{board}.sqlite3") as store:
        referee = Referee.start(store, GAME, table_setup(seats, seed), {}, title=f"seed {seed}")
        publisher = Publisher(broker_url, board_id=board, prefix=PREFIX)
        stream = GameStream(referee, publisher, board_id=board)
        while not referee.is_over:
            referee.submit(plugin.random_action(referee.state, rng))
        assert publisher.wait_idle(10), "the table could not publish its game"
        stream.close()
        publisher.close()
        return referee.game_id


@contextmanager
def running_hub(path: Path, broker_url: str) -> Iterator[Callable[[], Hub]]:
    """The hub on its own thread (it opens its own connection to the event file, as the
    command does), until the block ends."""
    stopping = threading.Event()
    made: list[Hub] = []
    failed: list[BaseException] = []
    ready = threading.Event()

    def work() -> None:
        try:
            with EventStore.open(path) as store:
                hub = Hub.from_config(BrokerConfig(url=broker_url, prefix=PREFIX), store)
                made.append(hub)
                ready.set()
                try:
                    hub.run(stopping)
                finally:
                    hub.close()
        except BaseException as err:  # reported by the test, not lost on the thread
            failed.append(err)
            ready.set()

    thread = threading.Thread(target=work, name="hub", daemon=True)
    thread.start()
    assert ready.wait(10)
    assert made, failed
    assert made[0].listener.subscribed.wait(10), "the hub did not subscribe"
    try:
        yield lambda: made[0]
    finally:
        stopping.set()
        thread.join(10)
        assert not failed, failed


class Retained:
    """A subscriber keeping the latest payload of every topic under a filter."""

    def __init__(self, port: int, topic_filter: str) -> None:
        self.latest: dict[str, Any] = {}
        self._cond = threading.Condition()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="")
        self.client.on_connect = lambda client, *args: client.subscribe(topic_filter, qos=1)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _on_message(self, client: Any, userdata: Any, message: mqtt.MQTTMessage) -> None:
        payload: Any = bytes(message.payload).decode()
        if message.topic.endswith("/status"):
            pass  # online or offline, plain text
        elif payload:
            payload = json.loads(payload)
        with self._cond:
            self.latest[message.topic] = payload or None
            self._cond.notify_all()

    def wait_for(self, test: Callable[[dict[str, Any]], bool], timeout: float = 15.0) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: test(self.latest), timeout)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def wait_until(test: Callable[[], bool], timeout: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if test():
            return True
        time.sleep(0.05)
    return test()
