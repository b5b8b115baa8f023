"""The game two companions share: created by one (the host), which invites; joined by the
other (the guest), which starts its copy from the invitation so that both hash chains start
from the same link.

A game's chain starts from its header verbatim, its id, its creation time and its title
(companion/store.py): the guest's copy takes all four from the invitation, so the id must be
free in the guest's store.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.errors import UserError
from companion.games import find_engine
from companion.games.contract import BadSetup
from companion.publish import wire
from companion.publish.listener import Listener
from companion.publish.wire import RemoteTopics
from companion.record import RecordHeader
from companion.remote.errors import RemoteError
from companion.session import Clock, Referee
from companion.store import Store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Invitation:
    """What the host publishes (retained) for the guest to join."""

    game_id: int
    """The game's id at the host, which its chain starts from at both companions."""
    created: str
    title: str
    header: RecordHeader
    host_sides: frozenset[int]
    guest_sides: frozenset[int]

    def to_payload(self) -> dict[str, Any]:
        return wire.invite_payload(
            game_id=self.game_id,
            created=self.created,
            title=self.title,
            header=self.header.to_dict(),
            host_sides=sorted(self.host_sides),
            guest_sides=sorted(self.guest_sides),
        )

    @classmethod
    def from_payload(cls, payload: bytes) -> Invitation:
        """RemoteError naming what is wrong with an invitation."""
        try:
            data = wire.read_remote("invite", payload)
            header = RecordHeader.from_dict(data["header"], where="the invitation's header")
        except UserError as err:
            raise RemoteError(f"the invitation cannot be read: {err}") from None
        host, guest = _sides(data["host_sides"]), _sides(data["guest_sides"])
        return cls(data["game_id"], data["created"], data["title"], header, host, guest)


def _sides(values: Iterable[Any]) -> frozenset[int]:
    values = list(values)
    if not values or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise RemoteError(f"the invitation's sides {values!r} are not side numbers")
    return frozenset(values)


def invitation_for(
    referee: Referee, host_sides: Iterable[int], guest_sides: Iterable[int]
) -> Invitation:
    """The invitation to the game `referee` plays, the host keeping `host_sides`."""
    host, guest = frozenset(host_sides), frozenset(guest_sides)
    if not host or not guest or host & guest:
        raise RemoteError(
            f"each companion plays its own sides: host {sorted(host)}, guest {sorted(guest)}"
        )
    store, game_id = referee.store, referee.game_id
    row = store.game(game_id)
    return Invitation(
        store.chain_id(game_id), row.created, row.title, store.header(game_id), host, guest
    )


def join(store: Store, invitation: Invitation, clock: Clock = time.monotonic) -> Referee:
    """The guest's copy of the game, recorded in `store` with the host's creation time,
    title and header, its chain starting from the host's id (the id here is this store's
    own); taken up where it is when it was joined before (a restart)."""
    for game_id in store.shared_as(invitation.game_id):
        row = store.game(game_id)
        if (
            store.header(game_id).to_dict() == invitation.header.to_dict()
            and row.created == invitation.created
            and row.title == invitation.title
        ):
            return Referee.resume(store, game_id, clock=clock)
    engine = find_engine(invitation.header.game)
    try:
        engine.new_game(invitation.header.setup)
    except BadSetup as err:
        raise RemoteError(f"the invitation's setup is refused here: {err}") from None
    game_id = store.create_game(
        invitation.header,
        title=invitation.title,
        chain_id=invitation.game_id,
        created=invitation.created,
    )
    log.info(
        "game %d: joined (%s), shared as game %d",
        game_id,
        invitation.header.game,
        invitation.game_id,
    )
    return Referee(store, game_id, clock=clock)


def fetch_invitation(
    url: str,
    topics: RemoteTopics,
    timeout_s: float,
    *,
    username: str = "",
    password: str = "",
    ca_file: str = "",
    cert_file: str = "",
    key_file: str = "",
) -> Invitation:
    """The host's invitation on `topics.invite` (retained); RemoteError when none is heard
    within `timeout_s`."""
    heard: list[bytes] = []
    arrived = threading.Event()

    def on_message(topic: str, payload: bytes) -> None:
        if payload:
            heard.append(bytes(payload))
            arrived.set()

    listener = Listener.start(
        url,
        [topics.invite],
        on_message,
        username=username,
        password=password,
        ca_file=ca_file,
        cert_file=cert_file,
        key_file=key_file,
    )
    try:
        if not arrived.wait(timeout_s):
            raise RemoteError(
                f"no invitation on {topics.invite} within {timeout_s:g} s: has the host "
                "started the game, on the same broker and match?"
            )
    finally:
        listener.close()
    return Invitation.from_payload(heard[-1])
