"""A game played by touch on its drawn board, for any game that gives touch rules
(companion/games/touch.py): the referee, the taps so far, the companion's moves, a hint and
a takeback, brought together into one picture for the screen. Nothing here imports Kivy.

    play = TouchPlay(referee, rules, title="Ada vs Bo", companion_side=1)
    play.tap("p7")               # a point of the drawing
    play.press("Bring in two")   # a button the taps so far offer, or hint, take_back, ...
    play.step()                  # the companion's move, when the rules wait on it
    play.view()                  # everything the screen shows, as plain data

Every action reaches the game only through the referee (the store first, then everyone
else); a refusal is shown with its rule and changes nothing. The companion's moves and
hints are searched on a thread of their own, so the screen stays responsive; `call_soon`
carries the answer back to the thread that plays the game.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.games import find_plugin
from companion.games.contract import Action, IllegalAction
from companion.games.drawing import Drawing
from companion.games.touch import (
    DONE,
    Hint,
    Options,
    Press,
    Tap,
    TouchRules,
    TouchStep,
    next_taps,
    only_spots,
    options_of,
)
from companion.session import Notification, Referee
from companion.table.listeners import Listeners
from companion.table.searching import search_aside
from companion.table.views import EndView, TakebackView, names_in

log = logging.getLogger(__name__)

CallSoon = Callable[[Callable[[], None]], None]
EVENTS_SHOWN = 4

HINT = "Hint"
TAKE_BACK = "Take back"
AGREE = "Agree"
REFUSE = "Refuse"
CLEAR = "Clear"


@dataclass(frozen=True)
class TouchView:
    """What the touch screen shows, as plain data (the screen only draws it)."""

    title: str
    drawing: Drawing
    prompt: str
    actor: str
    """Whose decision it is: a side's name, or '' once the game is over."""
    names: tuple[str, ...]
    """Each side's name, in seating order."""
    buttons: tuple[str, ...]
    """What the taps so far may go on with, then the screen's own (hint, take back)."""
    side_lines: tuple[str, ...]
    message: str
    events: tuple[str, ...]
    """The last few events, in words, oldest first."""
    thinking: bool
    """The companion is searching its move (or a hint)."""
    takeback: TakebackView | None
    over: bool
    result: str
    seq: int


Listener = Callable[[TouchView], None]


class TouchPlay:
    def __init__(
        self,
        referee: Referee,
        rules: TouchRules,
        *,
        title: str,
        companion_side: int | None = None,
        strength: int | None = None,
        hints: bool = True,
        call_soon: CallSoon | None = None,
    ) -> None:
        self.referee = referee
        self.rules = rules
        self.title = title
        self.companion_side = companion_side
        self.strength = rules.strengths[1] if strength is None else strength
        self.hints = hints
        self._call_soon: CallSoon = call_soon or (lambda job: job())
        self._listeners = Listeners[TouchView]("touch screen")
        self._taps: tuple[Tap, ...] = ()
        self._message = ""
        self._position = 0
        """Counts the changes to the game, so that a move searched for one position is never
        played on another."""
        self._thinking: int | None = None
        self._hint: Hint | None = None
        self._takeback: TakebackView | None = None
        self._options: Options | None = None
        self._narrate = find_plugin(referee.engine.name).narrator(referee.state)
        self._events: list[str] = []
        self._standing = self._count_standing()
        """The actions that stand (taken back ones do not): what a takeback may undo."""
        self._unsubscribe = referee.subscribe(self._committed)

    @property
    def state(self) -> Any:
        return self.referee.state

    # -- touches ---------------------------------------------------------------------------

    def tap(self, key: str) -> None:
        """A tap on the spot `key` of the drawing."""
        self._touch(key)

    def press(self, label: str) -> None:
        """A button: one the taps offer, or the screen's own (Hint, Take back, Agree, ...)."""
        if label == HINT:
            self.ask_hint()
        elif label == TAKE_BACK:
            self.ask_take_back()
        elif label == AGREE:
            self._agree()
        elif label == REFUSE:
            self._takeback = None
            self._refuse("The takeback was refused.")
        elif label == CLEAR:
            self._taps = ()
            self._message = ""
            self._tell()
        elif label == DONE:
            ready = self._step().ready
            if ready is not None:
                self._submit(ready)
        else:
            self._touch(Press(label))

    def _touch(self, tap: Tap) -> None:
        if self.referee.is_over:
            self._refuse("The game is over.")
            return
        if self._takeback is not None:
            self._refuse("A takeback is being asked: agree to it or refuse it first.")
            return
        if not self._players_turn():
            self._refuse("The companion is to move.")
            return
        taps = (*self._taps, tap)
        step = next_taps(self._current_options(), taps)
        if step.dead:
            # A tap that continues nothing starts a new action, if it can.
            fresh = next_taps(self._current_options(), (tap,))
            if fresh.dead:
                self._taps = ()
                self._refuse("That is not a move now: tap a marked point or a button.")
                return
            taps, step = (tap,), fresh
        self._taps = taps
        self._message = ""
        if step.complete is not None:
            self._submit(step.complete)
            return
        self._tell()

    # -- the companion ---------------------------------------------------------------------

    def step(self) -> bool:
        """Starts the companion's search when the rules wait on its side; True when it did."""
        if (
            self.companion_side is None
            or self.referee.is_over
            or self._thinking == self._position
            or self._players_turn()
        ):
            return False
        position, state, strength = self._position, self.state, self.strength
        self._thinking = position
        rng = random.Random(f"{self.referee.game_id}:{self.referee.seq}")
        self._tell()

        search_aside(
            lambda: self.rules.opponent_move(state, strength, rng),
            lambda action: self._companion_moved(position, action),
            self._call_soon,
            "companion-move",
            failed=None,
        )
        return True

    def _companion_moved(self, position: int, action: Action | None) -> None:
        if self._thinking == position:
            self._thinking = None
        if position != self._position or action is None:
            self._tell()
            return
        self._submit(action)

    def ask_hint(self) -> None:
        if not self.hints:
            self._refuse("No hints in this game.")
            return
        if self.referee.is_over or not self._players_turn() or self._thinking is not None:
            return
        position, state = self._position, self.state
        self._thinking = position

        self._tell()
        search_aside(
            lambda: self.rules.hint(state),
            lambda found: self._hinted(position, found),
            self._call_soon,
            "hint",
            failed=None,
        )

    def _hinted(self, position: int, hint: Hint | None) -> None:
        if self._thinking == position:
            self._thinking = None
        if position == self._position:
            self._hint = hint
            self._message = "No hint: the search failed." if hint is None else f"Hint: {hint.why}"
        self._tell()

    # -- takebacks -------------------------------------------------------------------------

    def ask_take_back(self) -> None:
        """The last action back: at once against the companion (it always agrees), else once
        another player agrees."""
        if self.referee.is_over or self._standing == 0:
            self._refuse("There is no action to take back.")
            return
        if self.companion_side is not None:
            self._take_back(twice=self._last_was_companions())
            return
        names = tuple(names_in(self.referee.engine.view(self.state, "table")))
        others = tuple(i for i in range(len(names)) if i != self._last_actor())
        self._takeback = TakebackView("the last move", agreed=(), waiting=others[:1])
        self._message = ""
        self._tell()

    def _agree(self) -> None:
        if self._takeback is None:
            self._refuse("No takeback is being asked.")
            return
        self._takeback = None
        self._take_back(twice=False)

    def _take_back(self, twice: bool) -> None:
        # Against the companion, its reply goes too: the player gets their own move back.
        for _ in range(2 if twice and self._standing >= 2 else 1):
            try:
                self.referee.take_back()
            except IllegalAction as refused:
                self._refuse(f"{refused.explanation} ({refused.rule})")
                return

    def _count_standing(self) -> int:
        return len(self.referee.store.actions(self.referee.game_id))

    def _last_actor(self) -> int:
        actions = self.referee.store.actions(self.referee.game_id)
        side = actions[-1][2].get("side", -1) if actions else -1
        return side if isinstance(side, int) else -1

    def _last_was_companions(self) -> bool:
        return self._last_actor() == self.companion_side

    # -- what it shows ---------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._listeners.add(listener)

    def view(self) -> TouchView:
        engine = self.referee.engine
        state = self.state
        board_view = engine.view(state, "table")
        expectation = self.referee.expected()
        names = tuple(names_in(board_view))
        over = self.referee.is_over
        step = self._step() if not over and self._players_turn() else None
        chosen = only_spots(self._taps)
        offered = step.spots if step is not None else frozenset()
        if self._hint is not None and not self._taps:
            paths = self.rules.paths(state, self._hint.action)
            chosen = only_spots(paths[0]) if paths else ()
        buttons: tuple[str, ...] = step.buttons if step is not None else ()
        if self._takeback is not None:
            buttons = (AGREE, REFUSE)
        else:
            if self._taps:
                buttons = (*buttons, CLEAR)
            if self.hints and not over and self._players_turn():
                buttons = (*buttons, HINT)
            if not over and self._standing > 0:
                buttons = (*buttons, TAKE_BACK)
        actor = ""
        if expectation is not None and 0 <= expectation.actor < len(names):
            actor = names[expectation.actor]
        summary = engine.summary(state)
        return TouchView(
            title=self.title,
            drawing=self.rules.drawing(board_view, chosen, offered),
            prompt=expectation.prompt if expectation is not None else "The game is over.",
            actor=actor,
            names=names,
            buttons=buttons,
            side_lines=self.rules.side_lines(board_view),
            message=self._message,
            events=tuple(self._events[-EVENTS_SHOWN:]),
            thinking=self._thinking is not None,
            takeback=self._takeback,
            over=over,
            result=_result(summary) if over else "",
            seq=self.referee.seq,
        )

    def end_view(self) -> EndView:
        """The game's end: its result, each side's line, the final board."""
        view = self.view()
        return EndView(
            result=view.result or "The game is over.",
            names=view.side_lines,
            drawing=view.drawing,
        )

    def close(self) -> None:
        """Stops following the referee (the game stays in the store). A move or a hint still
        being searched for is dropped when it comes: the game was put down."""
        self._position += 1
        self._unsubscribe()
        self._listeners.clear()

    # -- inside ----------------------------------------------------------------------------

    def _players_turn(self) -> bool:
        expectation = self.referee.expected()
        return expectation is not None and expectation.actor != self.companion_side

    def _current_options(self) -> Options:
        if self._options is None:
            self._options = options_of(self.rules, self.state)
        return self._options

    def _step(self) -> TouchStep:
        return next_taps(self._current_options(), self._taps)

    def _submit(self, action: Action) -> None:
        self._taps = ()
        try:
            self.referee.submit(action)
        except IllegalAction as refused:
            self._refuse(f"{refused.explanation} ({refused.rule})")

    def _committed(self, note: Notification) -> None:
        self._position += 1
        self._taps = ()
        self._hint = None
        self._takeback = None
        self._options = None
        self._standing = self._count_standing()
        if note.action.kind == "takeback":
            self._message = "The last move was taken back."
        else:
            self._message = ""
            for event in note.events:
                line = self._narrate(event)
                if line:
                    self._events.append(line)
        self._tell()

    def _refuse(self, why: str) -> None:
        self._message = why[:1].upper() + why[1:]
        self._tell()

    def _tell(self) -> None:
        self._listeners.tell(self.view())


def _result(summary: dict[str, Any]) -> str:
    """The summary's last line says how the game ended (every engine's summary ends so)."""
    lines = summary.get("lines")
    return str(lines[-1]) if isinstance(lines, list) and lines else "The game is over."
