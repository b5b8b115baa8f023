"""The live stream of one game: what the referee, the game clock and the scan desk say,
published through a Publisher in the wire format (companion/publish/wire.py).

    publisher = Publisher.from_config(config.broker, board_id, url=embedded.url)
    stream = GameStream(referee, publisher, board_id=board_id, clock=clock, scans=desk)
    ...                                   # referee.submit(...), clock presses, card scans
    stream.refused(err, action)           # the app reports a refused action
    stream.close(); publisher.close()

After every committed action: one `event` message per event, then the retained `state`;
when the action ends the game, then the retained `result` (scores, winners, the end of the
game's hash chain in the store), which a tournament hub records.
On every change of the clock: a `clock` message, and about once a second while it runs;
when the clock starts, stops or switches between actions, the state is republished (within
a fifth of a second) so that the retained copy of the clock is right. A scanned card that
is not accepted becomes an `alert` that never says which card it was.

Only public information goes out: the engine's spectator view, events (public by design)
with their narration, clock readings, and alert texts that the caller vouches for. Actions
are never published: an action may carry a face-down value.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Final

from companion.clock import model
from companion.clock.display import ClockDisplay
from companion.clock.model import Events
from companion.games import find_plugin, plugin_names
from companion.games.contract import Action, GameEngine, IllegalAction
from companion.games.plugin import GamePlugin, Narrator
from companion.publish import wire
from companion.publish.homeassistant import discovery_messages
from companion.publish.publisher import Publisher
from companion.session import Notification, Referee
from companion.store import utc_now
from companion.table.game_clock import GameClock
from companion.table.observations import ScanDesk, ScanOutcome, ScanVerdict
from companion.table.views import names_in
from vision.common.closing import Closing

log = logging.getLogger(__name__)

CLOCK_EVERY_S: Final = 1.0
"""A running clock is published at least this often."""
TICK_S: Final = 0.2
"""How often the stream's own thread looks at the clock."""

SCAN_ALERTS: Final[Mapping[ScanOutcome, str]] = {
    ScanOutcome.NOT_EXPECTED: wire.SCAN_NOT_EXPECTED,
    ScanOutcome.NOT_NOW: wire.SCAN_NOT_NOW,
    ScanOutcome.OTHER_DECK: wire.SCAN_OTHER_DECK,
    ScanOutcome.UNKNOWN_TAG: wire.SCAN_UNKNOWN,
}

REFUSED_SECRET: Final = "that move was refused"


def _plugin(engine: GameEngine[Any]) -> GamePlugin | None:
    """The plugin of the engine's game; None for a bare engine (a test double)."""
    return find_plugin(engine.name) if engine.name in plugin_names() else None


def narrator_for(engine: GameEngine[Any], state: Any) -> Narrator:
    """A sentence per event for the ticker; empty for events not worth one, and for every
    event of a game the stream has no sentences for."""
    plugin = _plugin(engine)
    return plugin.narrator(state) if plugin is not None else (lambda event: "")


def is_secret(engine: GameEngine[Any], action: Action) -> bool:
    """Whether a refusal of `action` may name a hidden value (MW-T3: "no counter of value 5
    left"), so that the stream gives only its rule. A game without a plugin has not said
    which of its actions are safe, so all of them are taken as secret."""
    plugin = _plugin(engine)
    return plugin is None or action.kind in plugin.secret_actions


def board_drawing(engine: GameEngine[Any], view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The board of a spectator view as shapes, when the game's plugin draws it."""
    plugin = _plugin(engine)
    drawing = None if plugin is None else plugin.drawing(dict(view))
    return None if drawing is None else drawing.to_dict()


def final_scores(engine: GameEngine[Any], view: Mapping[str, Any]) -> list[float] | None:
    """Each side's score in a spectator view, for a game whose plugin says its view has
    them (`scores.sides[i].total`); None for a game that keeps no score."""
    plugin = _plugin(engine)
    if plugin is None or not plugin.scored:
        return None
    return [side["total"] for side in view["scores"]["sides"]]


def spectator_view(engine: GameEngine[Any], state: Any) -> dict[str, Any]:
    """What the stream shows: the engine's spectator view, hidden information removed."""
    return engine.view(state, "spectator")


class GameStream(Closing):
    """Publishes one refereed game. Does not close the publisher: whoever made it does."""

    def __init__(
        self,
        referee: Referee,
        publisher: Publisher,
        *,
        board_id: str,
        clock: GameClock | None = None,
        scans: ScanDesk | None = None,
        home_assistant: bool = False,
    ) -> None:
        if board_id != publisher.topics.board:
            raise wire.WireError(
                f"the stream is for board {board_id!r} but the publisher for "
                f"{publisher.topics.board!r}"
            )
        self.referee = referee
        self.publisher = publisher
        self.board_id = board_id
        self.topics = publisher.topics
        self.clock = clock
        self._engine = referee.engine
        self._narrate = narrator_for(self._engine, referee.state)
        self._title = referee.store.game(referee.game_id).title
        self._lock = threading.RLock()
        self._seq = referee.seq
        self._t = referee.last_t
        self._view = spectator_view(self._engine, referee.state)
        self._drawing = board_drawing(self._engine, self._view)
        self._names = names_in(self._view)
        self._last_event: dict[str, Any] | None = None
        self._state_dirty = False
        self._last_clock = -math.inf
        self._closed = False
        self._unsubscribe: list[Callable[[], None]] = [referee.subscribe(self._on_action)]
        if clock is not None:
            self._unsubscribe.append(clock.subscribe(self._on_clock))
        if scans is not None:
            self._unsubscribe.append(scans.subscribe(self._on_scan))
        if home_assistant:
            players = len(clock.display().players) if clock is not None else 0
            for message in discovery_messages(
                self.topics, game=self._engine.name, sides=len(self._names), clocks=players
            ):
                publisher.publish(message)
        with self._lock:
            self._publish_state(self._t)
            if referee.is_over:
                # A finished game taken up again: its result goes out again, in case the
                # hub missed it and the broker forgot it.
                self._publish_result(self._t, referee.state)
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None
        if clock is not None:
            self._ticker = threading.Thread(
                target=self._tick_loop, name=f"stream-{board_id}", daemon=True
            )
            self._ticker.start()

    # -- what is published ------------------------------------------------------------------

    def alert(self, text: str, level: wire.Level = "warning", rule: str | None = None) -> None:
        """Publishes an alert. `text` goes out as it is: it must say nothing hidden."""
        payload = wire.alert_payload(
            board=self.board_id, t=self.referee.elapsed(), level=level, text=text, rule=rule
        )
        self.publisher.publish(self.topics.message("alert", payload))

    def refused(self, err: IllegalAction, action: Action | None = None) -> None:
        """Publishes a refused action: its rule and explanation, or only its rule when the
        action is one that carries a hidden value (or is not given)."""
        public = action is not None and not is_secret(self._engine, action)
        self.alert(err.explanation if public else REFUSED_SECRET, "warning", err.rule)

    def clock_reading(self) -> dict[str, Any] | None:
        """CLOCK now, or None for a game without a clock."""
        if self.clock is None:
            return None
        at_ns = self.clock.now_ns()
        shown: ClockDisplay = model.display(self.clock.clock, at_ns)
        return wire.clock_reading(shown, at_ns / 1e9)

    def _publish_state(self, t: float) -> None:
        """Under the lock: the retained state, with the clock as it reads now."""
        payload = wire.state_payload(
            board=self.board_id,
            t=t,
            game=self._engine.name,
            game_id=self.referee.game_id,
            title=self._title,
            seq=self._seq,
            names=self._names,
            view=self._view,
            drawing=self._drawing,
            clock=self.clock_reading(),
            last=self._last_event,
        )
        self.publisher.publish(self.topics.message("state", payload))
        self._state_dirty = False

    def _publish_result(self, t: float, state: Any) -> None:
        """Under the lock: the retained result of the game, which is over."""
        outcome = self._engine.summary(state).get("outcome") or {}
        payload = wire.result_payload(
            board=self.board_id,
            t=t,
            game=self._engine.name,
            game_id=self.referee.game_id,
            title=self._title,
            names=self._names,
            scores=final_scores(self._engine, self._view),
            winners=list(outcome.get("winners", [])),
            reason=str(outcome.get("reason", "")),
            record_hash=self.referee.store.head(self.referee.game_id),
            ended=utc_now(),
        )
        self.publisher.publish(self.topics.message("result", payload))

    def _publish_clock(self, reading: Mapping[str, Any]) -> None:
        payload = wire.clock_payload(board=self.board_id, reading=reading)
        self.publisher.publish(self.topics.message("clock", payload))
        self._last_clock = time.monotonic()

    # -- what is heard ----------------------------------------------------------------------

    def _on_action(self, notification: Notification) -> None:
        engine = self._engine
        view = spectator_view(engine, notification.state)
        drawing = board_drawing(engine, view)
        with self._lock:
            if self._closed:
                return
            for event in notification.events:
                data = engine.event_to_dict(event)
                text = self._narrate(event)
                payload = wire.event_payload(
                    board=self.board_id,
                    t=notification.t,
                    seq=notification.seq,
                    event=data,
                    text=text,
                )
                self.publisher.publish(self.topics.message("event", payload))
                self._last_event = wire.last_event(data, text)
            self._seq, self._t, self._view = notification.seq, notification.t, view
            self._drawing = drawing
            self._names = names_in(view) or self._names
            self._publish_state(notification.t)
            if engine.is_over(notification.state):
                self._publish_result(notification.t, notification.state)

    def _on_clock(self, events: Events, shown: ClockDisplay) -> None:
        reading = self.clock_reading()
        if reading is None:
            return
        with self._lock:
            if self._closed:
                return
            self._publish_clock(reading)
            if events:
                # Started, switched, paused...: the retained state's copy of the clock is
                # republished by the ticker, unless an action's state comes first.
                self._state_dirty = True

    def _on_scan(self, verdict: ScanVerdict) -> None:
        if verdict.accepted or self._closed:
            return
        self.alert(SCAN_ALERTS.get(verdict.outcome, wire.SCAN_UNKNOWN), "warning")

    def _tick_loop(self) -> None:
        while not self._stop.wait(TICK_S):
            try:
                self.tick()
            except Exception:  # the stream must not stop over one bad reading
                log.warning("the stream's clock tick failed", exc_info=True)

    def tick(self) -> None:
        """Republishes the state if the clock changed since, and the clock if it runs and
        was last published a second ago. The stream's own thread calls it."""
        if self.clock is None:
            return
        with self._lock:
            if self._closed:
                return
            reading = self.clock_reading()
            assert reading is not None
            if self._state_dirty:
                self._publish_state(float(reading["at"]))
            running = reading["running"] is not None
            if running and time.monotonic() - self._last_clock >= CLOCK_EVERY_S:
                self._publish_clock(reading)

    def close(self) -> None:
        """Stops listening and publishing (the publisher stays open)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        self._stop.set()
        if self._ticker is not None and self._ticker is not threading.current_thread():
            self._ticker.join(2 * TICK_S + 1)
        for unsubscribe in self._unsubscribe:
            unsubscribe()
