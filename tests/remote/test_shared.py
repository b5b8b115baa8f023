"""The shared game without a broker: the guest's copy starts its chain where the host's
does whatever id it gets there, a restart takes the game up again."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from companion.games import find_plugin
from companion.publish import wire
from companion.remote.errors import RemoteError
from companion.remote.shared import Invitation, invitation_for, join
from companion.session import Referee
from companion.store import Store, StoreError, chain_link, verify_game

SETUP = find_plugin("memwars").example_setups()[2]


def hosted(tmp_path: Path) -> tuple[Store, Referee]:
    store = Store.open(tmp_path / "host.sqlite3")
    return store, Referee.start(store, "memwars", SETUP, {"id": "d"}, title="Shared")


def over_the_wire(invitation: Invitation) -> Invitation:
    return Invitation.from_payload(wire.encode(invitation.to_payload()))


def test_the_joined_chain_starts_where_the_hosts_does(tmp_path: Path) -> None:
    with Store.open(tmp_path / "host.sqlite3") as host_store:
        Referee.start(host_store, "memwars", SETUP, {})
        referee = Referee.start(host_store, "memwars", SETUP, {"id": "d"}, title="Shared")
        with Store.open(tmp_path / "guest.sqlite3") as guest_store:
            # The guest's store has games of its own, one with the host's id: the shared game
            # gets an id of the guest's, its chain starting from the host's.
            for _ in range(3):
                Referee.start(guest_store, "memwars", SETUP, {})
            invitation = over_the_wire(invitation_for(referee, {0}, {1}))
            assert invitation.game_id == referee.game_id == 2
            joined = join(guest_store, invitation)
            host_id, guest_id = referee.game_id, joined.game_id
            assert guest_id == 4 and guest_store.chain_id(guest_id) == host_id
            assert guest_store.shared_as(host_id) == [host_id, guest_id]
            assert guest_store.chain_hash(guest_id, 0) == host_store.chain_hash(host_id, 0)
            assert guest_store.chain_hash(host_id, 0) != host_store.chain_hash(host_id, 0)
            assert guest_store.head(guest_id) == host_store.head(host_id)
            # The same action at the same time chains to the same link in both.
            action = find_plugin("memwars").random_action(referee.state, random.Random(1))
            referee.submit(action, t=1.5)
            joined.submit(action, t=1.5)
            assert joined.last_t == 1.5 and joined.elapsed() >= 1.5
            data = referee.engine.action_to_dict(action)
            link = chain_link(host_store.chain_hash(host_id, 0), 1, 1.5, data)
            assert link == host_store.chain_hash(host_id, 1) == guest_store.chain_hash(guest_id, 1)
            assert guest_store.head(guest_id) == host_store.head(host_id)
            assert verify_game(guest_store, guest_id).ok and verify_game(host_store, host_id).ok
            # Joined again after a restart: taken up where it was.
            again = join(guest_store, invitation)
            assert (again.game_id, again.seq) == (guest_id, 1)
            # The next game of the guest's own comes after the shared one.
            assert Referee.start(guest_store, "memwars", SETUP, {}).game_id == 5


def test_a_game_joined_is_hosted_again_under_the_first_hosts_id(tmp_path: Path) -> None:
    """A guest's copy shared on (the guest hosting it after a restart) keeps its chain."""
    host_store, referee = hosted(tmp_path)
    with host_store, Store.open(tmp_path / "guest.sqlite3") as guest_store:
        Referee.start(guest_store, "memwars", SETUP, {})
        joined = join(guest_store, invitation_for(referee, {0}, {1}))
        onward = invitation_for(joined, {1}, {0})
        assert onward.game_id == referee.game_id != joined.game_id
        assert join(host_store, onward).game_id == referee.game_id


def test_a_shared_game_is_never_read_as_another(tmp_path: Path) -> None:
    """The chain id is part of the chain: changed in the file, the game reads as damaged."""
    host_store, referee = hosted(tmp_path)
    path = tmp_path / "guest.sqlite3"
    with host_store, Store.open(path) as guest_store:
        Referee.start(guest_store, "memwars", SETUP, {})
        guest_id = join(guest_store, invitation_for(referee, {0}, {1})).game_id
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DROP TRIGGER games_fixed")
        conn.execute("UPDATE games SET chain_id = 5 WHERE id = ?", (guest_id,))
    conn.close()
    with Store.open(path) as guest_store:
        check = verify_game(guest_store, guest_id)
        assert not check.ok and "damaged" in str(check.damage)


def test_a_game_shared_under_an_id_that_is_not_one_is_refused(tmp_path: Path) -> None:
    store, referee = hosted(tmp_path)
    with store, pytest.raises(StoreError, match="not a game id"):
        store.create_game(store.header(referee.game_id), chain_id=0)


def test_each_companion_plays_its_own_sides(tmp_path: Path) -> None:
    store, referee = hosted(tmp_path)
    with store:
        for host, guest in (({0}, {0, 1}), (set(), {1}), ({0}, set())):
            with pytest.raises(RemoteError, match="its own sides"):
                invitation_for(referee, host, guest)


@pytest.mark.parametrize(
    ("payload", "problem"),
    [
        (b"not json", "not JSON"),
        (b'{"schema": 1}', "'game_id' is missing"),
        (
            b'{"schema": 1, "game_id": 1, "created": "", "title": "", "header": {},'
            b' "host_sides": [0], "guest_sides": [1]}',
            "header",
        ),
    ],
)
def test_a_bad_invitation_is_one_line(payload: bytes, problem: str) -> None:
    with pytest.raises(RemoteError, match=problem):
        Invitation.from_payload(payload)
