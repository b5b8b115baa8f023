"""Remote play at the table: one companion's end of a shared game (`RemoteLink`) wired to
the game taken up at this table (companion/table/play.py).

- Every decision made here (a touch, what the camera reads, the game clock, a simulated
  player) reaches the referee, whose gate (`Referee.gate`) refuses it, one line, unless the
  link is connected, the rules wait on a side played here, and the other table's moves are
  on this board. Those it lets through the link sends to the other table.
- A move of the other table is recorded as soon as the link has checked it. The players
  here are then told what to lay (the play's `mirror_instruction`, or else the move
  narrated), and the game waits until the camera sees the board as the rules have it (the
  play's `table_matches`) or, with no camera watching, until a player touches Done
  (`confirm_mirrored`).
- `pump`, on the game's thread (the controller's tick), takes in the other table's moves;
  at the host, whose game clock is the game's, it also sends the clock's reading while the
  clock runs, for the other table to show.

    table = host_table(referee, play, broker, match="ada-basil", host_sides={0},
                       guest_sides={1}, game_clock=clock)
    table.pump()             # often
    table.view().line        # 'Remote: connected to Basil's table'
    table.view().instruction # 'Basil claims place 12: put a red crystal on place 12.'

Nothing here names a game.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.config import BrokerConfig, Login
from companion.games import find_plugin
from companion.games.contract import Action, IllegalAction
from companion.publish.wire import REMOTE_PREFIX, RemoteTopics
from companion.remote.errors import RemoteError
from companion.remote.link import RemoteLink
from companion.remote.shared import Invitation, fetch_invitation, invitation_for
from companion.remote.state import LinkState
from companion.session import Notification, Referee, TakenBack
from companion.table.game_clock import GameClock
from companion.table.play import Mirrors, Play

log = logging.getLogger(__name__)

REMOTE_RULE = "remote play"
"""What a refusal by the link quotes in place of a rule id."""

CLOCK_EVERY_S = 1.0
"""How often the host sends the running clock's reading."""


@dataclass(frozen=True, kw_only=True)
class RemoteBroker:
    """The broker both companions reach, and this companion's login on it."""

    url: str
    credentials: BrokerConfig = field(default_factory=BrokerConfig)
    """Whose login and TLS files it is reached with (its URL aside)."""
    prefix: str = REMOTE_PREFIX

    @classmethod
    def of(cls, broker: BrokerConfig, url: str | None = None) -> RemoteBroker:
        """The config's [broker] (its URL, login and TLS files), reached at `url` when one
        is given. RemoteError when there is no URL: the embedded broker is this
        companion's alone."""
        url = url if url is not None else broker.url
        if not url:
            raise RemoteError(
                "remote play needs a broker both companions reach: set [broker] url, or "
                "give --broker URL"
            )
        return cls(url=url, credentials=broker)

    def login(self) -> Login:
        return self.credentials.login()


@dataclass(frozen=True, kw_only=True)
class RemoteChoice:
    """What `companion remote` asks of the app: host a game (a new one from New game, or
    one of the store resumed), or join one."""

    role: str
    """'host' or 'join'."""
    match: str
    broker: str | None = None
    """The broker's URL; None for the config's [broker] url."""
    sides: tuple[int, ...] = ()
    """The host's sides; the guest's are the rest."""
    resume: int | None = None
    """The host shares this game of its store, taken up again."""
    timeout_s: float = 30.0
    """How long the guest waits for the invitation."""


@dataclass(frozen=True)
class RemoteView:
    """What a screen shows of remote play."""

    state: LinkState
    line: str
    """The link in one line: 'Remote: connected to Basil's table', 'Remote link lost: the
    game is paused', 'The tables disagree: ...'."""
    instruction: str
    """What to lay at this table for the other table's moves before play goes on; ''."""
    confirm: bool
    """The players say the pieces are laid by a touch (Done): no camera checks them."""


class RemoteTable:
    """A game taken up at this table and shared with another through `link`."""

    def __init__(self, link: RemoteLink, play: Play, *, monotonic: Any = time.monotonic) -> None:
        self.link = link
        self.play = play
        self._monotonic = monotonic
        referee = link.referee
        self._before: Any = referee.state
        self._instructions: list[str] = []
        self.peer = _table_of(_names(referee, lambda side: not link.owns(side)))
        """The other table, for people: "Basil's table"."""
        self._clock_sent = -CLOCK_EVERY_S
        self._reading: dict[str, Any] | None = None
        self._reading_at = 0.0
        self._unsubscribe = referee.subscribe(self._after_action)
        referee.gate = self._gate

    @property
    def referee(self) -> Referee:
        return self.link.referee

    @property
    def state(self) -> LinkState:
        return self.link.state

    # -- on the game's thread -----------------------------------------------------------------

    def pump(self, timeout: float = 0.0) -> int:
        """Takes in the other table's moves; sends the host's clock; returns how many
        messages came."""
        handled = self.link.pump(timeout)
        self._check_mirrored()
        reading = self.link.clock_reading()
        if reading is not self._reading:
            self._reading, self._reading_at = reading, self._monotonic()
        now = self._monotonic()
        if (
            self.link.role == "host"
            and self.link.state is LinkState.CONNECTED
            and now - self._clock_sent >= CLOCK_EVERY_S
        ):
            self._clock_sent = now
            self.link.publish_clock()
        return handled

    def refusal(self, action: Action | None = None) -> str | None:
        """Why a decision cannot be made at this table now, one line; None when it can."""
        if isinstance(action, TakenBack):
            return "a move cannot be taken back in remote play: the other table keeps it"
        link = self.link
        if link.state is LinkState.DISAGREED:
            return self.view().line
        if self.referee.expected() is not None:
            if link.state is LinkState.WAITING:
                return f"{self.peer} has not joined yet: the game waits for it"
            if link.state is LinkState.PAUSED:
                return "the remote link is lost: the game is paused until it is back"
        why = link.refusal()
        if why is not None:
            return why
        if action is not None and action.kind == "time_expired":
            return None  # the game clock's verdict: a player's time runs while laying
        self._check_mirrored()
        if self._instructions:
            return f"the move of {self.peer} is to be laid here first: {self.instruction}"
        return None

    @property
    def instruction(self) -> str:
        """What to lay at this table for the other's moves; '' once it is laid."""
        self._check_mirrored()
        return " ".join(self._instructions)

    @property
    def mirroring(self) -> bool:
        """The game waits for the other table's pieces to be laid here."""
        return bool(self.instruction)

    def confirm_mirrored(self) -> str | None:
        """A touch (Done): the other table's pieces are laid. None, or why not (a camera
        checks them, or nothing is to be laid)."""
        if not self._instructions:
            return "There is nothing to lay for the other table."
        if self._watched():
            return "The camera checks the pieces: lay them as the rules have them."
        log.info("game %d: the other table's move laid (by touch)", self.referee.game_id)
        self._instructions.clear()
        return None

    def view(self) -> RemoteView:
        link = self.link
        state = link.state
        if state is LinkState.DISAGREED:
            line = f"The tables disagree: {link.disagreement}"
        elif state is LinkState.PAUSED:
            line = "Remote link lost: the game is paused"
        elif state is LinkState.WAITING:
            line = f"Remote: waiting for {self.peer} to join"
        else:
            line = f"Remote: connected to {self.peer}"
        instruction = self.instruction
        return RemoteView(state, line, instruction, bool(instruction) and not self._watched())

    def clock_reading(self) -> tuple[dict[str, Any], float] | None:
        """The host's latest clock reading and how many seconds ago it came (at the guest);
        None before the first."""
        if self._reading is None:
            return None
        return self._reading, self._monotonic() - self._reading_at

    def close(self) -> None:
        """Leaves the broker; the game stays in the store."""
        self._unsubscribe()
        if self.referee.gate == self._gate:
            self.referee.gate = None
        self.link.close()

    # -- inside ------------------------------------------------------------------------------

    def _gate(self, action: Action) -> None:
        why = self.refusal(action)
        if why is not None:
            ending = "" if why.endswith((".", "!", "?")) else "."
            raise IllegalAction(REMOTE_RULE, why[:1].upper() + why[1:] + ending)

    def _after_action(self, note: Notification) -> None:
        before, self._before = self._before, note.state
        if not note.elsewhere or isinstance(note.action, TakenBack):
            return
        play = self.play
        if isinstance(play, Mirrors):
            text = play.mirror_instruction(before, note)
        else:
            text = self._narrated(note)
            text = f"{text} Lay it at this table, then touch Done." if text else ""
        if text:
            log.info("game %d: action %d to lay here", self.referee.game_id, note.seq)
            self._instructions.append(text)

    def _narrated(self, note: Notification) -> str:
        say = find_plugin(self.referee.engine.name).narrator(note.state)
        return " ".join(s for s in (say(event) for event in note.events) if s)

    def _watched(self) -> bool:
        return isinstance(self.play, Mirrors) and self.play.table_matches() is not None

    def _check_mirrored(self) -> None:
        if not self._instructions or not isinstance(self.play, Mirrors):
            return
        if self.play.table_matches():
            log.info("game %d: the other table's move is laid here", self.referee.game_id)
            self._instructions.clear()


def host_table(
    referee: Referee,
    play: Play,
    broker: RemoteBroker,
    *,
    match: str,
    host_sides: Iterable[int],
    guest_sides: Iterable[int],
    game_clock: GameClock | None = None,
) -> RemoteTable:
    """The game taken up here, shared as the host: its invitation published, its clock
    (`game_clock`) the game's."""
    invitation = invitation_for(referee, host_sides, guest_sides)
    link = RemoteLink(
        referee,
        url=broker.url,
        match=match,
        role="host",
        sides=invitation.host_sides,
        prefix=broker.prefix,
        invitation=invitation,
        game_clock=game_clock,
        **broker.login(),
    )
    return RemoteTable(link, play)


def invitation_of(broker: RemoteBroker, *, match: str, timeout_s: float) -> Invitation:
    """The host's invitation to `match`, for the guest to `join` (RemoteError when none
    comes within `timeout_s`)."""
    return fetch_invitation(
        broker.url, RemoteTopics(broker.prefix, match), timeout_s, **broker.login()
    )


def guest_table(
    play: Play, broker: RemoteBroker, *, match: str, invitation: Invitation
) -> RemoteTable:
    """The game taken up here (from `guest_referee`), shared as the guest."""
    link = RemoteLink(
        play.referee,
        url=broker.url,
        match=match,
        role="guest",
        sides=invitation.guest_sides,
        prefix=broker.prefix,
        **broker.login(),
    )
    return RemoteTable(link, play)


def _names(referee: Referee, chosen: Callable[[int], bool]) -> tuple[str, ...]:
    """The names of the sides `chosen(side)` picks, from the setup's "sides" where it names
    them ('side N' otherwise)."""
    sides = referee.store.header(referee.game_id).setup.get("sides")
    if not isinstance(sides, list):
        return ()
    names = []
    for i, side in enumerate(sides):
        if not chosen(i):
            continue
        name = side.get("name") if isinstance(side, dict) else None
        names.append(name.strip() if isinstance(name, str) and name.strip() else f"side {i + 1}")
    return tuple(names)


def _table_of(names: tuple[str, ...]) -> str:
    if not names:
        return "the other table"
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{who}'s table"


def side_count(referee: Referee) -> int:
    """How many sides the game has, from its setup's "sides" (two when it does not list
    them)."""
    sides = referee.store.header(referee.game_id).setup.get("sides")
    return len(sides) if isinstance(sides, list) else 2
