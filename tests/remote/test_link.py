"""Two companions play one game over a real mosquitto on loopback: each table makes only its
own sides' decisions, every move crosses the broker, and both stores end with the same
chain."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from companion.clock.model import MoveLimitExpired
from companion.games import find_plugin
from companion.publish import wire
from companion.publish.mosquitto import Mosquitto
from companion.remote.errors import RemoteError
from companion.remote.state import LinkState
from companion.store import chain_link, verify_game
from tests.publish.gate import Gate
from tests.remote.conftest import (
    DEADLINE_S,
    Companion,
    agree,
    close,
    connected,
    forge,
    play,
    pump_until,
    share,
)

MEMWARS = find_plugin("memwars").example_setups()[2]
"""A short game in which both sides and the table decide."""


def over(host: Companion, guest: Companion) -> bool:
    return host.referee.is_over and guest.referee.is_over


def assert_same_game(host: Companion, guest: Companion) -> None:
    game_id = host.referee.game_id
    assert guest.referee.game_id == game_id
    assert host.store.head(game_id) == guest.store.head(game_id)
    assert host.store.actions(game_id) == guest.store.actions(game_id)
    assert verify_game(host.store, game_id).ok and verify_game(guest.store, game_id).ok
    assert host.replayed() == guest.replayed()


def finish(host: Companion, guest: Companion) -> None:
    """Both tables play on to the game's end; both stores then hold the same game."""
    play(host, guest, lambda: over(host, guest))
    pump_until((host, guest), agree(host, guest))
    assert_same_game(host, guest)


def test_a_whole_memwars_game_played_by_two_companions(tmp_path: Path, broker: Mosquitto) -> None:
    host, guest = share(tmp_path, broker.url, "memwars", MEMWARS)
    try:
        pump_until((host, guest), connected(host, guest))
        play(host, guest, lambda: over(host, guest))
        pump_until((host, guest), agree(host, guest))
        assert host.referee.seq > 20
        assert_same_game(host, guest)
        assert host.store.game(host.referee.game_id).status == "finished"
        assert host.link.state is guest.link.state is LinkState.CONNECTED
        # Each table made its own decisions only: the guest never the table's.
        assert not guest.link.owns(-1) and host.link.owns(-1)
    finally:
        close(host, guest)


def test_a_decision_of_the_other_table_is_refused(tmp_path: Path, broker: Mosquitto) -> None:
    host, guest = share(tmp_path, broker.url, "memwars", MEMWARS)
    try:
        pump_until((host, guest), connected(host, guest))
        assert host.link.local_turn() and not guest.link.local_turn()  # a roll: the table's
        plugin = find_plugin("memwars")
        with pytest.raises(RemoteError, match="other companion's decision"):
            guest.link.submit(plugin.random_action(guest.referee.state, guest.rng))
        assert guest.referee.seq == 0
    finally:
        close(host, guest)


def test_a_broker_outage_mid_game_loses_nothing(tmp_path: Path, broker: Mosquitto) -> None:
    host, guest = share(tmp_path, broker.url, "memwars", MEMWARS)
    try:
        pump_until((host, guest), connected(host, guest))
        play(host, guest, lambda: host.referee.seq >= 10 and host.link.local_turn())
        pump_until((host, guest), agree(host, guest))
        before = host.referee.seq

        broker.stop()
        pump_until((host, guest), lambda: host.link.paused and guest.link.paused)
        while host.link.local_turn():  # the host's table plays on while the link is down
            host.move()
        assert host.referee.seq > before == guest.referee.seq
        assert host.link.paused and guest.link.paused

        broker.start()
        pump_until((host, guest), connected(host, guest))
        pump_until((host, guest), agree(host, guest))
        assert guest.store.actions(guest.referee.game_id) == host.store.actions(
            host.referee.game_id
        )
        finish(host, guest)
    finally:
        close(host, guest)


def test_a_cut_link_pauses_both_and_the_guest_moves_meanwhile(
    tmp_path: Path, broker: Mosquitto
) -> None:
    """The guest's own connection is cut (its Last Will tells the host): both tables show
    the game paused and the host's clock, the game's, stops; the guest's moves made
    meanwhile reach the host once the link is back."""
    with Gate(broker.port) as gate:
        gate.open()
        host, guest = share(
            tmp_path,
            broker.url,
            "memwars",
            MEMWARS,
            guest_url=gate.url,
            game_clock={"controls": ["300+5", "300+5"], "order": [0, 1]},
        )
        try:
            assert host.clock is not None
            pump_until((host, guest), connected(host, guest))
            play(host, guest, lambda: guest.link.local_turn() and host.referee.seq >= 8)
            pump_until((host, guest), agree(host, guest))
            pump_until((guest,), lambda: guest.link.clock_reading() is not None)
            assert host.clock.clock.running == 1 and not host.clock.clock.paused
            before = guest.referee.seq

            gate.shut()
            pump_until((host, guest), lambda: host.link.paused and guest.link.paused)
            assert host.clock.clock.paused
            while guest.link.local_turn():
                guest.move()
            assert guest.referee.seq > before == host.referee.seq
            assert host.clock.clock.paused  # the clock follows the rules, not the guest's moves

            gate.open()
            pump_until((host, guest), connected(host, guest))
            pump_until((host, guest), agree(host, guest))
            assert not host.clock.clock.paused or host.referee.expected() is None
            finish(host, guest)
            reading = guest.link.clock_reading()
            assert reading is not None and len(reading["players"]) == 2
        finally:
            close(host, guest)


@pytest.mark.parametrize("forgery", ["illegal", "wrong hash"])
def test_a_forged_action_is_refused_and_nothing_applied(
    tmp_path: Path, broker: Mosquitto, forgery: str
) -> None:
    host, guest = share(tmp_path, broker.url, "memwars", MEMWARS)
    try:
        pump_until((host, guest), connected(host, guest))
        play(host, guest, lambda: host.referee.seq >= 5 and host.link.local_turn())
        pump_until((host, guest), agree(host, guest))
        game_id, seq = guest.referee.game_id, guest.referee.seq
        head = guest.store.head(game_id)
        engine = guest.referee.engine
        expected = guest.referee.expected()
        assert expected is not None
        if forgery == "illegal":
            # An action the rules do not wait for now, chained correctly.
            action = next(
                a for _, _, a in guest.store.actions(game_id) if a["type"] not in expected.actions
            )
            t = guest.referee.last_t + 1.0
            chain = chain_link(guest.store.chain_hash(game_id, seq), seq + 1, t, action)
        else:
            legal = find_plugin("memwars").random_action(guest.referee.state, host.rng)
            action = engine.action_to_dict(legal)
            t = guest.referee.last_t + 1.0
            chain = "0" * 64
        payload = wire.move_payload(game_id=game_id, seq=seq + 1, t=t, action=action, chain=chain)
        forge(broker.port, host.link.topics.topic("host", "move"), payload)
        pump_until((guest,), lambda: guest.link.state is LinkState.DISAGREED)
        assert guest.referee.seq == seq and guest.store.last_seq(game_id) == seq
        assert guest.store.head(game_id) == head
        reason = guest.link.disagreement or ""
        assert ("refuse" in reason) if forgery == "illegal" else ("does not chain" in reason)
        with pytest.raises(RemoteError, match="remote play stopped"):
            guest.link.submit(find_plugin("memwars").random_action(guest.referee.state, guest.rng))
    finally:
        close(host, guest)


def test_mem_goes_through_the_same_link(tmp_path: Path, broker: Mosquitto) -> None:
    setup = find_plugin("mem").example_setups()[1]
    host, guest = share(tmp_path, broker.url, "mem", setup)
    try:
        pump_until((host, guest), connected(host, guest))
        finish(host, guest)
    finally:
        close(host, guest)


TIMED = {**MEMWARS, "timer": True}
"""The short game with MemWars' move timer: a side out of time passes (MW-A33)."""
PER_MOVE = {"controls": ["-!2", "-!2"], "order": [0, 1]}
"""Two seconds a move for each side."""


def to_the_guests_turn(host: Companion, guest: Companion) -> None:
    """A few actions played, up to where the rules wait on the guest's side, whose time the
    host's clock runs; both tables agree."""
    assert host.clock is not None

    def guest_waits() -> bool:
        expected = guest.referee.expected()
        return guest.link.local_turn() and expected is not None and expected.timed == 1

    pump_until((host, guest), connected(host, guest))
    play(host, guest, lambda: guest_waits() and host.referee.seq >= 3)
    pump_until((host, guest), agree(host, guest))


def timed_out(companion: Companion) -> list[dict[str, Any]]:
    game_id = companion.referee.game_id
    return [a for _, _, a in companion.store.actions(game_id) if a["type"] == "time_expired"]


def test_the_hosts_clock_runs_out_on_the_guest_and_the_guest_plays_it(
    tmp_path: Path, broker: Mosquitto
) -> None:
    """The host's clock is the game's: when it runs out on a side played at the guest's
    table, the guest records that side's time_expired and both games go on as one."""
    host, guest = share(tmp_path, broker.url, "memwars", TIMED, game_clock=PER_MOVE)
    try:
        to_the_guests_turn(host, guest)
        before = guest.referee.seq
        clock = host.clock
        assert clock is not None

        def flagged() -> bool:
            clock.tick()
            return len(timed_out(guest)) > 0

        pump_until((host, guest), flagged)  # nobody moves at the guest's table
        assert timed_out(guest)[0]["side"] == 1
        assert guest.referee.seq == before + 1
        pump_until((host, guest), agree(host, guest))
        finish(host, guest)
    finally:
        close(host, guest)


def test_a_move_the_guest_made_before_it_heard_the_flag_stands(
    tmp_path: Path, broker: Mosquitto
) -> None:
    host, guest = share(tmp_path, broker.url, "memwars", TIMED, game_clock=PER_MOVE)
    try:
        to_the_guests_turn(host, guest)
        clock = host.clock
        assert clock is not None
        deadline = time.monotonic() + DEADLINE_S
        while not any(isinstance(e, MoveLimitExpired) for e in clock.tick()):
            assert time.monotonic() < deadline, "the move limit did not run out"
            host.link.pump(0.05)  # the host hears nothing new; the guest does not listen
        guest.move()  # on its way before the flag is heard
        moved = guest.referee.seq
        pump_until((host, guest), lambda: host.referee.seq >= moved)
        pump_until((host, guest), agree(host, guest))
        assert not timed_out(guest) and not timed_out(host)
        assert host.link.state is guest.link.state is LinkState.CONNECTED
        assert_same_game(host, guest)
    finally:
        close(host, guest)
