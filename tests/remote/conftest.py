"""Two companions sharing a game on a real mosquitto on loopback: each with its own store,
referee and link, driven by one test thread."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.games import find_plugin
from companion.publish import wire
from companion.remote.link import RemoteLink
from companion.remote.shared import fetch_invitation, invitation_for, join
from companion.remote.state import LinkState
from companion.session import Referee
from companion.store import Store, load_game
from companion.table.game_clock import GameClock

DEADLINE_S = 60.0
"""How long a condition may take to come true; a broker restart and the listeners' backoff
included, on a loaded machine. A passing test waits only as long as it needs."""


class Login(TypedDict, total=False):
    """A link's credentials and TLS files, as a companion's [broker] gives them."""

    username: str
    password: str
    ca_file: str


@dataclass
class Companion:
    """One table: its store, its referee, its link and a simulated player for its sides."""

    store: Store
    link: RemoteLink
    clock: GameClock | None = None
    rng: random.Random = field(default_factory=lambda: random.Random(7))

    @property
    def referee(self) -> Referee:
        return self.link.referee

    def move(self) -> None:
        """Plays the decision the rules wait on here, as a player at this table would."""
        plugin = find_plugin(self.referee.engine.name)
        self.link.submit(plugin.random_action(self.referee.state, self.rng))

    def replayed(self) -> Any:
        engine, state, _ = load_game(self.store, self.referee.game_id)
        return engine.state_to_dict(state)


def share(
    tmp_path: Path,
    url: str,
    game: str,
    setup: dict[str, Any],
    *,
    match: str = "m1",
    guest_url: str | None = None,
    host_login: Login | None = None,
    guest_login: Login | None = None,
    host_sides: frozenset[int] = frozenset({0}),
    guest_sides: frozenset[int] = frozenset({1}),
    **options: Any,
) -> tuple[Companion, Companion]:
    """A game created at the host, its invitation fetched and joined at the guest, both
    linked: (host, guest), not yet pumped. The host keeps the game clock, if the game has
    one; the guest reaches the broker at `guest_url` if given. `host_login`, `guest_login`:
    each link's credentials and TLS files (username, password, ca_file)."""
    host_store = Store.open(tmp_path / "host.sqlite3")
    guest_store = Store.open(tmp_path / "guest.sqlite3")
    referee = Referee.start(host_store, game, setup, {}, title="Shared", **options)
    invitation = invitation_for(referee, host_sides, guest_sides)
    clock = GameClock.attach(referee)
    host = RemoteLink(
        referee,
        url=url,
        match=match,
        role="host",
        sides=host_sides,
        invitation=invitation,
        game_clock=clock,
        **(host_login or {}),
    )
    topics = wire.RemoteTopics(wire.REMOTE_PREFIX, match)
    guest_url = guest_url or url
    heard = fetch_invitation(guest_url, topics, DEADLINE_S, **(guest_login or {}))
    guest = RemoteLink(
        join(guest_store, heard),
        url=guest_url,
        match=match,
        role="guest",
        sides=heard.guest_sides,
        **(guest_login or {}),
    )
    return Companion(host_store, host, clock), Companion(guest_store, guest)


def pump_until(companions: tuple[Companion, ...], done: Callable[[], bool]) -> None:
    """Pumps every link until `done()`; fails at the deadline."""
    deadline = time.monotonic() + DEADLINE_S
    while not done():
        assert time.monotonic() < deadline, "the condition did not come true in time"
        for companion in companions:
            companion.link.pump(0.01)


def connected(*companions: Companion) -> Callable[[], bool]:
    return lambda: all(c.link.state is LinkState.CONNECTED for c in companions)


def agree(*companions: Companion) -> Callable[[], bool]:
    """Both at the same seq, and each has heard the other say so."""
    return lambda: (
        len({c.referee.seq for c in companions}) == 1
        and all(c.link.peer_seq == c.referee.seq for c in companions)
    )


def play(host: Companion, guest: Companion, until: Callable[[], bool]) -> None:
    """Each table makes the decisions the rules wait on there, until `until()`."""
    pair = (host, guest)
    deadline = time.monotonic() + DEADLINE_S * 4
    while not until():
        assert time.monotonic() < deadline, "the game did not go on in time"
        assert not (host.referee.is_over and guest.referee.is_over), "the game ended first"
        for companion in pair:
            companion.link.pump(0.01)
            if companion.link.local_turn() and not until():
                companion.move()


def close(*companions: Companion) -> None:
    for companion in companions:
        companion.link.close()
        if companion.clock is not None:
            companion.clock.close()
        companion.store.close()


def forge(port: int, topic: str, payload: dict[str, Any]) -> None:
    """Publishes `payload` on `topic` as an impostor would, and waits for the broker."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="impostor")
    client.connect("127.0.0.1", port)
    client.loop_start()
    try:
        client.publish(topic, wire.encode(payload), qos=1).wait_for_publish(DEADLINE_S)
    finally:
        client.disconnect()
        client.loop_stop()
