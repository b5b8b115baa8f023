"""Brokers, subscribers and simulated games for the stream's tests."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion.decks import find_deck
from companion.decks.model import Deck
from companion.games.memwars.play.simulation import demo_setup as simulation_setup
from companion.publish.mosquitto import find_mosquitto
from companion.session import Referee
from companion.store import Store

DECK = "mythologies-of-earth"
# The 60 s outage the streaming requirements name runs in every suite run; a developer in a
# hurry can leave it out with COMPANION_QUICK_TESTS=1 (never set in CI).
SLOW = os.environ.get("COMPANION_QUICK_TESTS") != "1"
slow = pytest.mark.skipif(not SLOW, reason="left out: COMPANION_QUICK_TESTS=1")

needs_mosquitto = pytest.mark.skipif(find_mosquitto() is None, reason="mosquitto is not installed")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a minute long; COMPANION_QUICK_TESTS=1 skips it")


SOCKET_CALLS = ("connect", "connect_ex", "send", "sendall", "recv", "recv_into")


@contextlib.contextmanager
def network_calls(port: int) -> Iterator[list[str]]:
    """The socket calls (connect, send, receive) this thread makes to 127.0.0.1:`port`
    inside the block. Code that makes none cannot wait on the broker there, however slow it
    or the machine is: what `publish returns at once` means, said without a stopwatch.
    (paho wakes its own thread through a socket pair of its own: not the broker's port.)"""
    caller = threading.current_thread()
    made: list[str] = []

    def to_port(sock: socket.socket, args: tuple[Any, ...]) -> bool:
        if args and isinstance(args[0], tuple):
            return bool(args[0][1] == port)
        try:
            return bool(sock.getpeername()[1] == port)
        except OSError:
            return False

    def watched(name: str) -> Callable[..., Any]:
        original = getattr(socket.socket, name)

        def call(self: socket.socket, *args: Any, **kwargs: Any) -> Any:
            if threading.current_thread() is caller and to_port(self, args):
                made.append(name)
            return original(self, *args, **kwargs)

        return call

    patched = {name: watched(name) for name in SOCKET_CALLS}
    for name, call in patched.items():
        setattr(socket.socket, name, call)
    try:
        yield made
    finally:
        for name in patched:
            delattr(socket.socket, name)


@dataclass
class Received:
    topic: str
    payload: bytes
    retain: bool
    at: float


@dataclass
class Collector:
    """A paho subscriber that keeps every message it hears, in order."""

    port: int
    topic: str = "#"
    client_id: str = ""
    username: str | None = None
    password: str | None = None
    messages: list[Received] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._cond = threading.Condition()
        self.subscriptions = 0
        """Subscriptions acknowledged: one more after every reconnection."""
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=self.client_id)
        if self.username:
            self.client.username_pw_set(self.username, self.password)
        self.client.reconnect_delay_set(1, 1)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_subscribe = self._on_subscribe

    def start(self, timeout: float = 5.0) -> Collector:
        self.client.connect("127.0.0.1", self.port, keepalive=10)
        self.client.loop_start()
        assert self.wait_subscribed(1, timeout), "the subscriber did not subscribe"
        return self

    def wait_subscribed(self, count: int, timeout: float = 10.0) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self.subscriptions >= count, timeout)

    def _on_subscribe(self, *args: Any) -> None:
        with self._cond:
            self.subscriptions += 1
            self._cond.notify_all()

    def _on_connect(self, client: mqtt.Client, *args: Any) -> None:
        client.subscribe(self.topic, qos=1)

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._cond:
            self.messages.append(
                Received(message.topic, bytes(message.payload), message.retain, time.monotonic())
            )
            self._cond.notify_all()

    def on(self, suffix: str) -> list[Received]:
        with self._cond:
            return [m for m in self.messages if m.topic.endswith(suffix)]

    def wait_for(self, test: Callable[[list[Received]], bool], timeout: float = 10.0) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: test(self.messages), timeout)

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture()
def collector_factory() -> Iterator[Callable[..., Collector]]:
    made: list[Collector] = []

    def make(port: int, **options: Any) -> Collector:
        collector = Collector(port, **options).start()
        made.append(collector)
        return collector

    yield make
    for collector in made:
        collector.stop()


class MosquittoSub:
    """A real `mosquitto_sub -v` in a subprocess; its lines are read on a thread."""

    def __init__(self, port: int, topic: str, *extra: str) -> None:
        self.process = subprocess.Popen(
            ["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-t", topic, "-v", *extra],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []
        self._cond = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._cond:
                self.lines.append(line.rstrip("\n"))
                self._cond.notify_all()

    def wait_for(self, test: Callable[[str], bool], timeout: float = 10.0) -> str | None:
        found: list[str] = []

        def seen() -> bool:
            found[:] = [line for line in self.lines if test(line)]
            return bool(found)

        with self._cond:
            return found[0] if self._cond.wait_for(seen, timeout) else None

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(5)
        for stream in (self.process.stdout, self.process.stderr):
            if stream is not None:
                stream.close()


@pytest.fixture(scope="session")
def deck() -> Deck:
    return find_deck(DECK)


def start_game(store: Store, deck: Deck, seed: int = 16, **options: Any) -> Referee:
    """A simulated Standard MemWars game (competitive topology) on the bundled deck."""
    setup = simulation_setup(deck.board_map(), list(deck.quadrants), deck.depth, "standard", seed)
    return Referee.start(
        store,
        "memwars",
        setup,
        {"id": deck.id, "hash": deck.hash, "title": deck.title},
        title=f"Simulated game, seed {seed}",
        **options,
    )


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "games.sqlite3") as opened:
        yield opened
