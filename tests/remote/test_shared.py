"""The shared game without a broker: the guest's copy starts its chain where the host's
does, an id already used is refused, a restart takes the game up again."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.games import find_plugin
from companion.publish import wire
from companion.remote.errors import RemoteError
from companion.remote.shared import Invitation, invitation_for, join
from companion.session import Referee
from companion.store import Store, StoreError, chain_link

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
            # The guest's store has a game of its own: the shared one keeps the host's id.
            Referee.start(guest_store, "memwars", SETUP, {})
            invitation = over_the_wire(invitation_for(referee, {0}, {1}))
            joined = join(guest_store, invitation)
            game_id = referee.game_id
            assert joined.game_id == game_id == 2
            assert guest_store.chain_hash(game_id, 0) == host_store.chain_hash(game_id, 0)
            assert guest_store.head(game_id) == host_store.head(game_id)
            # The same action at the same time chains to the same link in both.
            action = find_plugin("memwars").random_action(referee.state, random.Random(1))
            referee.submit(action, t=1.5)
            joined.submit(action, t=1.5)
            assert joined.last_t == 1.5 and joined.elapsed() >= 1.5
            data = referee.engine.action_to_dict(action)
            link = chain_link(host_store.chain_hash(game_id, 0), 1, 1.5, data)
            assert link == host_store.chain_hash(game_id, 1) == guest_store.chain_hash(game_id, 1)
            assert guest_store.head(game_id) == host_store.head(game_id)
            # Joined again after a restart: taken up where it was.
            assert join(guest_store, invitation).seq == 1
            # The next game of the guest's own comes after the shared one.
            assert Referee.start(guest_store, "memwars", SETUP, {}).game_id == 3


def test_an_id_used_by_another_game_is_refused(tmp_path: Path) -> None:
    host_store, referee = hosted(tmp_path)
    with host_store, Store.open(tmp_path / "guest.sqlite3") as guest_store:
        Referee.start(guest_store, "memwars", SETUP, {}, title="Another")
        with pytest.raises(RemoteError, match="another game"):
            join(guest_store, invitation_for(referee, {0}, {1}))
        guest_store.delete_game(1)
        with pytest.raises(StoreError, match="already used"):
            join(guest_store, invitation_for(referee, {0}, {1}))


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
