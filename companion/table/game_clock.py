"""A refereed game's clock: recorded input by input, following whose decision it is, and
telling the game when someone's time runs out.

    referee = Referee.start(store, "memwars", setup, deck, game_clock={"controls": ["-!30"] * 2})
    clock = GameClock.attach(referee)          # also after a crash: it comes back paused
    referee.submit(...)                        # the clock follows the rules' expectation
    clock.tick()                               # call often: flags, move limits, checkpoints

Every clock input is committed to the store before the clock changes and before anyone is
told (durability before publicity), so a game's clock replays from its record to the
nanosecond. While it runs, a checkpoint is recorded at least once a second: after a crash
the clock resumes paused, with every player's time as of the last checkpoint, so at most a
second of anyone's time is at stake. Ticks and checkpoints are recorded SETTLE_NS in the
past, where no press can still arrive from: a press stamped before a flag that is on its
way from the button is recorded at its own stamp, and wins.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

from companion.clock import model
from companion.clock.display import ClockDisplay
from companion.clock.inputs import apply_input, clock_from_spec, replay_inputs
from companion.clock.model import SETTLE_NS, Clock, Events, FlagFell, MoveLimitExpired
from companion.clock.presses import ButtonPress
from companion.clock.runner import Listener, tell
from companion.games.contract import Action
from companion.session import Notification, Referee

log = logging.getLogger(__name__)

CHECKPOINT_NS = 1_000_000_000


class GameClock:
    def __init__(self, referee: Referee, clock: Clock, inputs: int, last_ns: int) -> None:
        self.referee = referee
        self._clock = clock
        self._n = inputs
        self._last_ns = last_ns
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        expectation = referee.expected()
        self._move = expectation.move if expectation is not None else None
        """The decision the clock last followed (Expectation.move)."""
        self.time_out: Callable[[Action], None] | None = None
        """Who plays a `time_expired` when a player's time runs out; the referee when None.
        Remote play puts its link here: a flag on the other table's time is played there."""
        self._unsubscribe = referee.subscribe(self._after_action)

    @classmethod
    def attach(cls, referee: Referee) -> GameClock | None:
        """The clock of the referee's game (None if the game has none), rebuilt from the
        store. A clock that was running when the companion stopped resumes paused at its
        last recorded instant; that is logged."""
        store, game_id = referee.store, referee.game_id
        spec = store.header(game_id).clock
        if spec is None:
            return None
        recorded = store.clock_inputs(game_id)
        clock = replay_inputs(clock_from_spec(spec), (data for _, _, data in recorded))
        last_ns = recorded[-1][1] if recorded else 0
        game_clock = cls(referee, clock, len(recorded), last_ns)
        if clock.running is not None and not clock.paused:
            game_clock._record({"type": "pause", "t_ns": last_ns})
            log.info(
                "game %d: clock resumed paused at %.3f s (its last checkpoint)",
                game_id,
                last_ns / 1e9,
            )
        elif not recorded:
            game_clock.follow()
        return game_clock

    # -- reading ---------------------------------------------------------------------------

    @property
    def clock(self) -> Clock:
        return self._clock

    @property
    def inputs(self) -> int:
        """How many inputs have been recorded."""
        return self._n

    def now_ns(self) -> int:
        """The game's time now, in nanoseconds; never before the last recorded input."""
        return max(self._last_ns, round(self.referee.elapsed() * 1e9))

    def display(self) -> ClockDisplay:
        return model.display(self._clock, self.now_ns())

    def game_ns(self, monotonic_ns: int) -> int:
        """A button's timestamp (the referee's monotonic clock, in ns) on the game's timeline."""
        return monotonic_ns - round(self.referee.t_zero * 1e9)

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    # -- changes ---------------------------------------------------------------------------

    def follow(self, t_ns: int | None = None) -> Events:
        """Runs the clock of the side the rules wait on, or pauses it when they wait on
        nobody's time (a setup step, a card being checked, the end of the game). A new
        decision of the same side (Expectation.move) is a new move: its limit starts again."""
        t = max(self._last_ns, t_ns if t_ns is not None else self.now_ns())
        expectation = self.referee.expected()
        timed = expectation.timed if expectation is not None else None
        move = expectation.move if expectation is not None else None
        new_move, self._move = move != self._move, move
        clock = self._clock
        events: tuple[Any, ...] = ()
        if timed is None:
            if clock.running is not None and not clock.paused:
                events += self._record({"type": "pause", "t_ns": t})
            return events
        if clock.running is None:
            return self._record({"type": "start", "player": timed, "t_ns": t})
        if clock.paused:
            events += self._record({"type": "resume", "t_ns": t})
        if self._clock.running != timed or new_move:
            events += self._record({"type": "switch", "player": timed, "t_ns": t})
        return events

    def press(self, press: ButtonPress) -> Events:
        """A physical button: a player's press ends their move, the pause button toggles."""
        t = max(self._last_ns, self.game_ns(press.t_ns))
        if press.kind == "pause":
            return (
                self.resume() if self._clock.paused else self._record({"type": "pause", "t_ns": t})
            )
        return self._record({"type": "press", "player": press.player, "t_ns": t})

    def pause(self) -> Events:
        return self._record({"type": "pause", "t_ns": self.now_ns()})

    def resume(self) -> Events:
        return self._record({"type": "resume", "t_ns": self.now_ns()})

    def adjust(self, player: int, delta_ns: int) -> Events:
        return self._record(
            {"type": "adjust", "player": player, "delta_ns": delta_ns, "t_ns": self.now_ns()}
        )

    def set_time(self, player: int, ns: int) -> Events:
        return self._record({"type": "set", "player": player, "ns": ns, "t_ns": self.now_ns()})

    def undo(self) -> Events:
        return self._record({"type": "undo", "t_ns": self.now_ns()})

    def tick(self) -> Events:
        """Announces a fallen flag or an expired move limit (and tells the game), or records
        a checkpoint when a second has passed since the last input while time runs."""
        now = self.now_ns()
        # Nothing a press could still arrive from before is recorded: the record's times
        # never go back, so a press is never recorded before the last input.
        settled = max(self._last_ns, now - SETTLE_NS)
        with self._lock:
            _, events = model.tick(self._clock, now, SETTLE_NS)
            if events:
                # Announcing at `now` with the settle time is announcing at `now - settle`
                # without it: that is what is recorded, so a replay announces the same.
                events = self._record({"type": "tick", "t_ns": settled})
            elif (
                self._clock.running is not None
                and not self._clock.paused
                and now - self._last_ns >= CHECKPOINT_NS
            ):
                self._record({"type": "checkpoint", "t_ns": settled})
        for event in events:
            if isinstance(event, FlagFell | MoveLimitExpired):
                self._time_ran_out(event.player)
        return events

    def close(self) -> None:
        self._unsubscribe()

    def _record(self, data: Mapping[str, Any]) -> Events:
        with self._lock:
            clock, events = apply_input(self._clock, data)
            n = self._n + 1
            t_ns = int(data["t_ns"])
            self.referee.store.append_clock(self.referee.game_id, n, t_ns, data)
            self._clock, self._n, self._last_ns = clock, n, max(self._last_ns, t_ns)
            shown = model.display(clock, t_ns)
        log.debug("game %d: clock input %d: %s", self.referee.game_id, n, data)
        tell(self._listeners, events, shown)
        return events

    def _after_action(self, notification: Notification) -> None:
        self.follow(round(notification.t * 1e9))

    def _time_ran_out(self, player: int) -> None:
        """Tells the game, when its rules are waiting on that player's time."""
        expectation = self.referee.expected()
        if expectation is None or expectation.timed != player:
            return
        if "time_expired" not in expectation.actions:
            return
        action = self.referee.engine.action_from_dict({"type": "time_expired", "side": player})
        if self.time_out is not None:
            self.time_out(action)
        else:
            self.referee.submit(action)
