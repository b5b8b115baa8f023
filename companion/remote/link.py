"""The link between two companions sharing a game: each records its own sides' moves and
sends them, and takes in the other's through its own referee.

A move of one of this companion's sides is submitted here (`submit`), then sent with its seq,
its time and the chain's link after it. A move of the other's is submitted to this
companion's referee only once it is the next seq, when the rules wait on one of the other's
sides, when it chains onto this store's chain to the same link the other companion's store
gave it, and when this companion's own engine accepts it; otherwise the link stops as a
disagreement, one log line saying why, and nothing of it is recorded.

Nothing is lost when the link drops: each companion says where it is (`at`, retained: its
last seq and link, sent again at every reconnection); one that is behind asks for the moves
it lacks (`want`), and one that sees the other behind sends them again from its store. A
move heard twice is checked against the chain and otherwise ignored.

One thread drives the referee and calls `pump` and `submit`; the broker's messages wait on a
queue for it.
"""

from __future__ import annotations

import logging
import queue
import time
from collections.abc import Iterable
from typing import Any

from companion.games import find_plugin
from companion.games.contract import TABLE, Action, BadData, Event, IllegalAction
from companion.publish import wire
from companion.publish.listener import Listener
from companion.publish.publisher import Publisher, client_id_of
from companion.publish.wire import REMOTE_PREFIX, RemoteKind, RemoteTopics, Role, WireError
from companion.remote.errors import RemoteError
from companion.remote.shared import Invitation
from companion.remote.state import LinkState
from companion.session import Notification, Referee, TakenBack
from companion.store import StoreError, chain_link
from companion.table.game_clock import GameClock
from vision.common.closing import Closing

log = logging.getLogger(__name__)


class RemoteLink(Closing):
    """One companion's end of a shared game."""

    def __init__(
        self,
        referee: Referee,
        *,
        url: str,
        match: str,
        role: Role,
        sides: Iterable[int],
        table: bool | None = None,
        prefix: str = REMOTE_PREFIX,
        username: str = "",
        password: str = "",
        ca_file: str = "",
        cert_file: str = "",
        key_file: str = "",
        invitation: Invitation | None = None,
        game_clock: GameClock | None = None,
    ) -> None:
        """`sides`: the sides whose decisions are made at this companion's table; `table`:
        whether the decisions nobody's side owns (a roll, a card checked) are made here too,
        by default at the host's. The host passes its `invitation` to publish it, and its
        `game_clock`: the host's clock is the game's, the guest shows its readings."""
        if role not in wire.ROLES:
            raise RemoteError(f"a companion is the host or the guest, not {role!r}")
        self.referee = referee
        self.shared_id = referee.store.chain_id(referee.game_id)
        """The game's id on the link: the host's (the guest's store may know it by another)."""
        self.role: Role = role
        self.peer: Role = wire.other_role(role)
        self.sides = frozenset(sides)
        self.table = role == "host" if table is None else table
        self.topics = RemoteTopics(prefix, match)
        self._secret = find_plugin(referee.engine.name).secret_actions
        self._game_clock = game_clock
        self._inbox: queue.SimpleQueue[tuple[str, bytes]] = queue.SimpleQueue()
        self._pending: dict[int, dict[str, Any]] = {}
        """Moves of the other's heard ahead of the next seq, by seq."""
        self._peer_online: bool | None = None
        self._peer_seq: int | None = None
        self._asked: tuple[int, int] | None = None
        """The last `want` sent (from, the other's seq then): not sent twice over."""
        self._joined = False
        self._state = LinkState.WAITING
        self._disagreement: str | None = None
        self._applying = False
        self._clock_paused = False
        self._reading: dict[str, Any] | None = None
        self._flag: tuple[int, int] | None = None
        """(seq, side): the game clock ran out on a side the guest plays, after action seq.
        At the host: what it sends with every reading while it is still at that seq; at
        the guest: what the host's latest reading said."""
        self._publisher = Publisher(
            url,
            board_id=role,
            prefix=self.topics.base,
            username=username,
            password=password,
            ca_file=ca_file,
            cert_file=cert_file,
            key_file=key_file,
            client_id=client_id_of(f"remote-{match}-{role}", password),
        )
        self._unsubscribe = referee.subscribe(self._after_action)
        if invitation is not None:
            self._publisher.publish(self.topics.invitation(invitation.to_payload()))
        self._publish_at()
        self._clock_unsubscribe = None
        if game_clock is not None and role == "host":
            self._clock_unsubscribe = game_clock.subscribe(
                lambda events, shown: self.publish_clock()
            )
            game_clock.time_out = self._time_ran_out
        self._listener = Listener.start(
            url,
            [self.topics.of(self.peer)],
            self._heard,
            username=username,
            password=password,
            ca_file=ca_file,
            cert_file=cert_file,
            key_file=key_file,
        )
        log.info(
            "game %d: remote play as the %s on %s, playing sides %s",
            referee.game_id,
            role,
            self.topics.base,
            sorted(self.sides),
        )

    # -- reading ---------------------------------------------------------------------------

    @property
    def state(self) -> LinkState:
        return self._state

    @property
    def paused(self) -> bool:
        return self._state is LinkState.PAUSED

    @property
    def disagreement(self) -> str | None:
        """Why the link stopped, one line; None while the games agree."""
        return self._disagreement

    def owns(self, actor: int) -> bool:
        """Whether a decision of `actor` (a side, or TABLE) is made at this table."""
        return self.table if actor == TABLE else actor in self.sides

    def local_turn(self) -> bool:
        """Whether the rules wait on a decision made here."""
        expectation = self.referee.expected()
        return expectation is not None and self.owns(expectation.actor)

    def clock_reading(self) -> dict[str, Any] | None:
        """The latest reading of the game clock the host sent (wire.clock_reading); None
        before the first, and at the host, whose own clock is the game's."""
        return self._reading

    @property
    def peer_seq(self) -> int | None:
        """The seq the other companion last said it was at; None before it said."""
        return self._peer_seq

    # -- playing ---------------------------------------------------------------------------

    def submit(self, action: Action) -> tuple[Event, ...]:
        """Plays a decision of one of this companion's sides (IllegalAction as the referee
        says); RemoteError when the rules wait on the other companion, or the link stopped.
        While the link is down the move is recorded, and sent when it is back."""
        refusal = self.refusal()
        if refusal is not None:
            raise RemoteError(refusal)
        return self.referee.submit(action)

    def refusal(self) -> str | None:
        """Why no decision can be made at this table now (the link stopped, the game is over,
        the rules wait on the other table); None when one can."""
        if self._disagreement is not None:
            return f"remote play stopped: {self._disagreement}"
        expectation = self.referee.expected()
        if expectation is None:
            return "the game is over"
        if not self.owns(expectation.actor):
            return (
                f"this is the other companion's decision ({_who(expectation.actor)}): it is "
                "made at the other table"
            )
        return None

    def pump(self, timeout: float = 0.0) -> int:
        """Takes in what the other companion sent (waiting up to `timeout` for something),
        and updates the state; on the referee's thread. Returns how many messages."""
        handled = 0
        deadline = time.monotonic() + timeout
        while True:
            try:
                wait = max(0.0, deadline - time.monotonic()) if handled == 0 else 0.0
                topic, payload = self._inbox.get(timeout=wait) if wait else self._inbox.get_nowait()
            except queue.Empty:
                break
            handled += 1
            try:
                self._take(topic, payload)
            except StoreError as err:
                self._disagree(f"this companion's store refused the game: {err}")
        self._update_state()
        self._play_flag()
        return handled

    def publish_clock(self) -> None:
        """Sends the game clock's reading (the host's clock is the game's): on every change
        of the clock, and as often as a display needs while it runs."""
        if self.role != "host" or self._game_clock is None:
            return
        reading = wire.clock_reading(self._game_clock.display(), self.referee.elapsed())
        flag = self._flag if self._flag and self._flag[0] == self.referee.seq else None
        payload = wire.remote_clock_payload(game_id=self.shared_id, reading=reading, flag=flag)
        self._publisher.publish(self.topics.message(self.role, "clock", payload))

    def close(self) -> None:
        """Says `offline` and leaves the broker; the game stays in the store, to be taken up
        again with a new link."""
        self._unsubscribe()
        if self._clock_unsubscribe is not None:
            self._clock_unsubscribe()
        if self._game_clock is not None and self._game_clock.time_out == self._time_ran_out:
            self._game_clock.time_out = None
        self._listener.close()
        self._publisher.close()

    # -- the game clock's flag -------------------------------------------------------------

    def _time_ran_out(self, action: Action) -> None:
        """At the host, whose clock is the game's: a player's time ran out. A side played
        here times out at once; one of the guest's is told to the guest (`flag` with the
        clock's readings), whose table plays it if it has not moved meanwhile: a move the
        guest made before it heard is not undone, as an online game's server lets a move
        already on its way stand."""
        expectation = self.referee.expected()
        side = expectation.timed if expectation is not None else None
        if expectation is None or side is None or self.owns(expectation.actor):
            self.referee.submit(action)
            return
        self._flag = (self.referee.seq, side)
        log.info(
            "game %d: %s's time ran out after action %d: the other table plays it",
            self.referee.game_id,
            _who(side),
            self.referee.seq,
        )
        self.publish_clock()

    def _play_flag(self) -> None:
        """At the guest: the host's flag on a side played here, played if this table is still
        where the host's clock ran out."""
        flag, referee = self._flag, self.referee
        if flag is None or self.role != "guest" or self._disagreement is not None:
            return
        seq, side = flag
        expectation = referee.expected()
        if (
            referee.seq != seq
            or expectation is None
            or expectation.timed != side
            or not self.owns(expectation.actor)
            or "time_expired" not in expectation.actions
        ):
            return
        self._flag = None
        action = referee.engine.action_from_dict({"type": "time_expired", "side": side})
        try:
            referee.submit(action)
        except IllegalAction as err:
            log.warning("game %d: the host's flag is not played: %s", referee.game_id, err)

    # -- what the other companion sent ------------------------------------------------------

    def _heard(self, topic: str, payload: bytes) -> None:
        """On the listener's thread: only queued."""
        self._inbox.put((topic, bytes(payload)))

    def _take(self, topic: str, payload: bytes) -> None:
        parsed = self.topics.parse(topic)
        if parsed is None or parsed[0] != self.peer:
            return
        kind: RemoteKind = parsed[1]
        if kind == "status":
            self._peer_online = payload == wire.ONLINE.encode()
            return
        try:
            data = wire.read_remote(kind, payload)
        except WireError as err:
            log.warning("game %d: a message on %s is ignored: %s", self.referee.game_id, topic, err)
            return
        if data["game_id"] != self.shared_id:
            log.warning(
                "game %d: a message on %s is about shared game %d, not %d: ignored",
                self.referee.game_id,
                topic,
                data["game_id"],
                self.shared_id,
            )
            return
        if kind == "clock":
            if self.peer == "host":
                self._reading = data["reading"]
                flag = data.get("flag")
                self._flag = None if flag is None else (flag["seq"], flag["side"])
            return
        if self._disagreement is not None:
            return
        if kind == "at":
            self._heard_at(data)
        elif kind == "move":
            self._heard_move(data)
        elif kind == "want":
            self._send_moves(data["from"])

    def _heard_at(self, data: dict[str, Any]) -> None:
        seq, mine = data["seq"], self.referee.seq
        self._peer_seq = seq
        if seq > mine:
            self._ask(mine + 1)
            return
        if self._link(seq) != data["hash"]:
            where = "from the start" if seq == 0 else f"at action {seq}"
            self._disagree(
                f"the other companion's game differs from this one's {where}: its chain is "
                "not this store's"
            )
        elif seq < mine:
            self._send_moves(seq + 1)

    def _heard_move(self, data: dict[str, Any]) -> None:
        seq = data["seq"]
        if seq < 1:
            self._disagree(f"the other companion sent an action numbered {seq}")
            return
        if seq <= self.referee.seq:
            if self._link(seq) != data["hash"]:
                self._disagree(
                    f"the other companion's action {seq} is not the one recorded here: the "
                    "games differ"
                )
            return
        self._pending[seq] = data
        while self._disagreement is None and self.referee.seq + 1 in self._pending:
            self._apply(self._pending.pop(self.referee.seq + 1))
        if self._pending and self._disagreement is None:
            self._ask(self.referee.seq + 1)

    def _apply(self, data: dict[str, Any]) -> None:
        """The other companion's next action, checked and submitted, or a disagreement."""
        referee, seq = self.referee, data["seq"]
        expectation = referee.expected()
        if expectation is None:
            self._disagree(f"the other companion sent action {seq}; the game is over here")
            return
        if self.owns(expectation.actor):
            self._disagree(
                f"the other companion sent action {seq}, a decision of "
                f"{_who(expectation.actor)}, which is made at this table"
            )
            return
        try:
            action = referee.engine.action_from_dict(data["action"])
        except BadData as err:
            self._disagree(f"the other companion's action {seq} cannot be read: {err}")
            return
        as_recorded = referee.engine.action_to_dict(action)
        if chain_link(self._link(seq - 1), seq, data["t"], as_recorded) != data["hash"]:
            self._disagree(
                f"the other companion's action {seq} ({action.kind}) does not chain onto this "
                "store's game: the games differ, or the action was changed on the way"
            )
            return
        self._applying = True
        try:
            referee.submit(action, t=data["t"])
        except IllegalAction as err:
            # A refusal of a move with a hidden value may name the value: the rule only.
            why = err.rule if action.kind in self._secret else str(err)
            self._disagree(f"this companion's rules refuse the other's action {seq} ({why})")
        except StoreError as err:
            self._disagree(f"the other companion's action {seq} cannot be recorded: {err}")
        finally:
            self._applying = False

    # -- what this companion sends -----------------------------------------------------------

    def _after_action(self, notification: Notification) -> None:
        """A subscriber of the referee: sends this table's actions, and where it is now."""
        if self._disagreement is not None:
            return
        if isinstance(notification.action, TakenBack):
            self._disagree("a move was taken back here: remote play does not share takebacks")
            return
        if not self._applying:
            action = self.referee.engine.action_to_dict(notification.action)
            self._send_move(notification.seq, notification.t, action)
        self._publish_at()
        if self._state is LinkState.PAUSED:
            self._pause_clock()  # the clock followed the action: the game is still paused

    def _send_move(self, seq: int, t: float, action: dict[str, Any]) -> None:
        payload = wire.move_payload(
            game_id=self.shared_id, seq=seq, t=t, action=action, chain=self._link(seq)
        )
        self._publisher.publish(self.topics.message(self.role, "move", payload))

    def _send_moves(self, first: int) -> None:
        """This store's actions from seq `first` on, sent again for the other companion."""
        store, game_id = self.referee.store, self.referee.game_id
        moves = [(seq, t, action) for seq, t, action in store.actions(game_id) if seq >= first]
        if moves:
            log.info("game %d: sending actions %d to %d again", game_id, moves[0][0], moves[-1][0])
        for seq, t, action in moves:
            self._send_move(seq, t, action)

    def _publish_at(self) -> None:
        referee = self.referee
        payload = wire.at_payload(
            game_id=self.shared_id,
            seq=referee.seq,
            chain=self._link(referee.seq),
            head=referee.store.head(referee.game_id),
        )
        self._publisher.publish(self.topics.message(self.role, "at", payload))

    def _ask(self, first: int) -> None:
        asked = (first, self._peer_seq or 0)
        if asked == self._asked:
            return
        self._asked = asked
        payload = wire.want_payload(game_id=self.shared_id, first=first)
        self._publisher.publish(self.topics.message(self.role, "want", payload))

    def _link(self, seq: int) -> str:
        return self.referee.store.chain_hash(self.referee.game_id, seq)

    # -- the link's state --------------------------------------------------------------------

    def _disagree(self, why: str) -> None:
        if self._disagreement is None:
            self._disagreement = why
            log.error("game %d: remote play stopped: %s", self.referee.game_id, why)
        self._pending.clear()
        self._update_state()

    def _update_state(self) -> None:
        both = self._publisher.connected and self._peer_online is True
        self._joined = self._joined or both
        if self._disagreement is not None:
            state = LinkState.DISAGREED
        elif both:
            state = LinkState.CONNECTED
        else:
            state = LinkState.PAUSED if self._joined else LinkState.WAITING
        if state is self._state:
            return
        log.info("game %d: remote play %s", self.referee.game_id, state)
        self._state = state
        if state in (LinkState.PAUSED, LinkState.DISAGREED):
            self._pause_clock()
        elif state is LinkState.CONNECTED:
            self._asked = None  # a want sent while the other was away may have been lost
            self._resume_clock()

    def _pause_clock(self) -> None:
        clock = self._game_clock
        if clock is None or clock.clock.running is None or clock.clock.paused:
            return
        clock.pause()
        self._clock_paused = True

    def _resume_clock(self) -> None:
        if self._game_clock is not None and self._clock_paused:
            self._clock_paused = False
            self._game_clock.follow()


def _who(actor: int) -> str:
    return "the table" if actor == TABLE else f"side {actor}"
