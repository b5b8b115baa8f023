"""The referee loop: the one place where an action becomes part of a game.

    referee = Referee.start(store, "memwars", setup, deck_info)   # or Referee.resume(store, id)
    unsubscribe = referee.subscribe(on_action)
    events = referee.submit(action)      # IllegalAction: nothing happened

`submit` asks the engine, commits the action and its events to the store, then moves the
in-memory state on, then tells subscribers, in that order: nobody ever hears of an action
that a crash could take back.

Observations (a camera frame, a card read) will not be actions: a reader turns what it saw
into an action for `expected()` and hands it to `submit`, so that the store stays the only
way into a game and every observation-driven change is replayable from the record.

One thread drives a referee; subscribers are called on that thread.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.games import find_engine
from companion.games.contract import Action, Event, Expectation, GameEngine, IllegalAction
from companion.record import header_for
from companion.store import Store, load_game, utc_now

log = logging.getLogger(__name__)

Clock = Callable[[], float]


@dataclass(frozen=True)
class Notification:
    """What a subscriber hears after an action is committed."""

    seq: int
    action: Action
    events: tuple[Event, ...]
    state: Any
    """The state after the action: the full table view, hidden values included."""
    t: float
    """Seconds since the game started, as recorded."""
    elsewhere: bool = False
    """The action was recorded first by another companion sharing the game (remote play,
    companion/remote): its pieces are not on this table until a player here lays them."""


@dataclass(frozen=True, slots=True)
class TakenBack(Action):
    """What subscribers hear as the action of a takeback: `seq` no longer counts, and the
    state is the one before it."""

    kind: ClassVar[str] = "takeback"
    seq: int


Subscriber = Callable[[Notification], None]
Gate = Callable[[Action], None]
"""Refuses a decision made at this table (IllegalAction) before it is played, or lets it
through."""


class Referee:
    """Holds one game's engine, state and last seq, and keeps them in step with the store."""

    def __init__(self, store: Store, game_id: int, clock: Clock = time.monotonic) -> None:
        """Takes up game `game_id` where the store left it (see `resume`)."""
        self.store = store
        self.game_id = game_id
        self.engine: GameEngine[Any]
        self.engine, self._state, self._seq = load_game(store, game_id)
        self._subscribers: list[Subscriber] = []
        self.gate: Gate | None = None
        """Asked before a decision made at this table is played (a move or a takeback; not
        an action recorded elsewhere, whose `t` is given): raises IllegalAction to refuse
        it. Remote play refuses the other table's decisions, and any while the game waits
        on the link or on the other table's pieces (companion/remote/at_table.py)."""
        self._clock = clock
        row = store.game(game_id)
        # t continues from the last recorded action: the time the companion was off does
        # not count, and t never goes backwards (the store would refuse it).
        # Clock checkpoints may be later than the last action: time goes on from the later.
        self._last_t = max(row.last_t, store.last_t(game_id), store.last_clock_ns(game_id) / 1e9)
        self._t_zero = clock() - self._last_t
        if self.engine.is_over(self._state) and row.status == "playing":
            # A crash between the last commit and marking the game finished.
            store.set_status(game_id, "finished")

    @classmethod
    def start(
        cls,
        store: Store,
        engine_name: str,
        setup: Mapping[str, Any],
        deck_info: Mapping[str, Any],
        clock: Clock = time.monotonic,
        *,
        title: str = "",
        game_clock: Mapping[str, Any] | None = None,
    ) -> Referee:
        """Records a new game (BadSetup if the engine refuses `setup`) and referees it.

        `game_clock` describes a game clock ({"controls": [one per side], "order": [...]});
        companion.table.game_clock.GameClock runs it.
        """
        engine = find_engine(engine_name)
        state = engine.new_game(setup)
        header = header_for(engine, state, deck_info, started=utc_now(), clock=game_clock)
        game_id = store.create_game(header, title=title)
        log.info("game %d: started %s", game_id, engine_name)
        return cls(store, game_id, clock=clock)

    @classmethod
    def resume(cls, store: Store, game_id: int, clock: Clock = time.monotonic) -> Referee:
        """Rebuilds game `game_id` by replaying its committed actions."""
        referee = cls(store, game_id, clock=clock)
        log.info("game %d: resumed at action %d", game_id, referee.seq)
        return referee

    # -- the game --------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self._state

    @property
    def seq(self) -> int:
        """The seq of the last committed action; 0 before the first."""
        return self._seq

    @property
    def last_t(self) -> float:
        return self._last_t

    @property
    def is_over(self) -> bool:
        return self.engine.is_over(self._state)

    def expected(self) -> Expectation | None:
        return self.engine.expected(self._state)

    @property
    def t_zero(self) -> float:
        """The reading of this referee's clock at which the game's time was 0."""
        return self._t_zero

    def elapsed(self) -> float:
        """Seconds since the game started, by this referee's clock (never less than last_t)."""
        t = self._clock() - self._t_zero
        return t if t >= self._last_t and math.isfinite(t) else self._last_t

    def submit(self, action: Action, *, t: float | None = None) -> tuple[Event, ...]:
        """Plays `action`: IllegalAction (and any store error) leaves everything as it was.

        `t`: the game time the action was recorded at by another companion sharing the
        game (companion/remote), instead of this referee's clock; this referee's time goes
        on from it. The store refuses a time before the last action's."""
        given = t is not None
        if self.gate is not None and not given:
            self.gate(action)
        state, events = self.engine.apply(self._state, action)
        seq = self._seq + 1
        t = float(t) if t is not None else self.elapsed()
        action_dict = self.engine.action_to_dict(action)
        # Payloads only at DEBUG: an action may carry a face-down value.
        log.debug("game %d: action %d at %.3f: %s", self.game_id, seq, t, action_dict)
        self.store.append(
            self.game_id, seq, t, action_dict, [self.engine.event_to_dict(e) for e in events]
        )
        self._state, self._seq, self._last_t = state, seq, t
        if given:
            # A time given from elsewhere may be ahead of this referee's clock: it catches up.
            self._t_zero = min(self._t_zero, self._clock() - t)
        log.info("game %d: action %d (%s) committed", self.game_id, seq, action.kind)
        if self.engine.is_over(state):
            self._mark_finished()
        self._notify(
            Notification(seq=seq, action=action, events=events, state=state, t=t, elsewhere=given)
        )
        return events

    def take_back(self) -> int:
        """Takes the last move back (the players have agreed): recorded in the store first,
        then the state is rebuilt without it and subscribers hear a TakenBack. Returns the
        seq taken back; IllegalAction when there is nothing to take back."""
        live = self.store.actions(self.game_id)
        if not live or self.engine.is_over(self._state):
            raise IllegalAction("takeback", "there is no move to take back")
        seq = live[-1][0]
        if self.gate is not None:
            self.gate(TakenBack(seq))
        t = self.elapsed()
        self.store.take_back(self.game_id, seq, t)
        self.engine, self._state, self._seq = load_game(self.store, self.game_id)
        self._last_t = t
        log.info("game %d: action %d taken back", self.game_id, seq)
        self._notify(
            Notification(seq=seq, action=TakenBack(seq), events=(), state=self._state, t=t)
        )
        return seq

    def _mark_finished(self) -> None:
        try:
            self.store.set_status(self.game_id, "finished")
        except Exception:
            # The action is committed and the game is over either way; resume repairs the
            # status, so this must not make a committed action look like a failed one.
            log.warning("game %d: could not mark the game finished", self.game_id, exc_info=True)
        else:
            log.info("game %d: finished after %d actions", self.game_id, self._seq)

    # -- subscribers -----------------------------------------------------------------------

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Calls `callback` after every committed action; returns the way to stop."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    def _notify(self, notification: Notification) -> None:
        # A copy: a subscriber may unsubscribe (itself or another) while being notified.
        for callback in list(self._subscribers):
            try:
                callback(notification)
            except Exception:
                log.warning(
                    "game %d: subscriber %r failed on action %d",
                    self.game_id,
                    callback,
                    notification.seq,
                    exc_info=True,
                )
