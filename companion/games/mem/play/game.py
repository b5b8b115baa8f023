"""A MeM game being played on the touchscreen: the referee, the stone picked up, the hint
and the takeback being asked, brought together into one picture for the screen. Nothing
here imports Kivy.

    play = MemPlay(referee, title="Ada vs Bo, Mini-MEM, deal 7", hints=True)
    play.tap_square(12)          # pick up the stone on square 12
    play.tap_cell(0, (0, 0))     # put it at cell (0, 0) of Ada's space: a Move
    play.press("end_turn")       # a button: ask, capture, allow, end_turn, pass, hint, ...
    play.view()                  # everything the screen shows, as plain data

Every action reaches the game only through the referee (the store first, then everyone
else); a refusal is shown with its rule and changes nothing. Hints are searched on a thread
of their own, so the screen stays responsive; `call_soon` carries the answer back to the
thread that plays the game.

With a camera over the board (`camera=True`), every board it commits is compared with the
rules' board (companion/games/mem/table.py): a stone lifted off the board is picked up
exactly as a tap on it would be, and the player then taps the cell of their playing space
(the spaces are not in the camera's view). Anything else is an alert naming the square and
the rule; the game is held (no cell or button moves it on) until the table matches the
rules again or a player overrides the alert.

    play.table_seen({"0": ("white",), ...})   # the camera committed a board
    play.table_unsure(frozenset({"7"}))       # squares it cannot name the stone of
    play.press("override")                    # the camera is wrong: go on

With the companion playing a side (`companion_side`), `step()` (called a few times a second)
starts its search when the rules wait on that side: its moves and captures, the end of its
turn, and its block or allow when the other player's move is held for it. It searches on a
thread of its own and its action comes back through `call_soon`; an action searched for a
position the game has left (a takeback, the game put down) is dropped.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.games.contract import Action, IllegalAction
from companion.games.mem.palette import side_rgb
from companion.games.mem.patterns import Cell
from companion.games.mem.play.opponent import (
    DEFAULT_STRENGTH,
    STRENGTHS,
    Strength,
    companion_action,
)
from companion.games.mem.play.touch import (
    ButtonSpec,
    CellXY,
    Guidance,
    HintMarks,
    Marks,
    button_pressed,
    cell_tapped,
    describe_action,
    describe_event,
    hint_marks,
    how_to,
    marks,
    offered_buttons,
    square_tapped,
)
from companion.games.mem.solver import best_action
from companion.games.mem.state import State
from companion.games.mem.table import (
    StoneAlert,
    TableCheck,
    changed_squares,
    check_table,
    rules_board,
)
from companion.session import Notification, Referee
from companion.store import replayed
from companion.table.listeners import Listeners
from companion.table.searching import search_aside
from companion.table.views import NO_CAMERA, WATCHING, AlertView, CameraStatus, EndView

log = logging.getLogger(__name__)

HINT_BUDGET = 600
"""Search nodes for a hint: about half a second on a Pi 4 (docs/mem-rules.md, Solver)."""
EVENTS_SHOWN = 4

CallSoon = Callable[[Callable[[], None]], None]
Alerted = Callable[[tuple[AlertView, ...]], None]
Board = Mapping[str, Sequence[str]]
HELD = "Put the board right first, or override the alert."
COMPANION_DECIDES = "The companion is deciding: wait for its move."


@dataclass(frozen=True, slots=True)
class TakebackAsk:
    """A takeback being asked: it happens when `agrees` (the side that did not make the
    action) agrees."""

    what: str
    agrees: int


@dataclass(frozen=True)
class MemView:
    """What the MeM screen shows, as plain data (the screen only draws it)."""

    title: str
    board: tuple[int, ...]
    """32 colour ids in square order, 0 for an empty square."""
    align: str
    """House rule mem.board.align: where the short rows sit."""
    names: tuple[str, ...]
    patterns: tuple[tuple[Cell, ...], ...]
    """Each side's playing space: (row, col, colour) in the board's frame."""
    scores: tuple[int, ...]
    piles: tuple[int, ...]
    notes: tuple[str, ...]
    """Per side: '', or 'locked', 'dead', 'out' (comma-separated)."""
    turn: int
    actor: int | None
    """Whose decision the rules wait for; None once the game is over."""
    prompt: str
    how: str
    """What a touch does now, in one line."""
    message: str
    """The last refusal (with its rule) or notice."""
    selected: int | None
    marks: Marks
    pending: int | None
    """A held move's or question's square, waiting for a block or allow."""
    barred: tuple[int, ...]
    buttons: tuple[ButtonSpec, ...]
    hints: bool
    hint: HintMarks | None
    hinting: bool
    events: tuple[str, ...]
    """The last few things that happened, oldest first."""
    takeback: TakebackAsk | None
    can_take_back: bool
    over: bool
    seq: int
    history: tuple[tuple[int, ...], ...] = field(default=())
    """Every side's stones after each action, for the end screen's plot."""
    alerts: tuple[AlertView, ...] = ()
    """Where the camera's board and the rules' disagree: zone is the square's number, seen
    what the camera sees there."""
    held: bool = False
    """True while the table must be put right before the game goes on."""
    camera: CameraStatus = NO_CAMERA
    """'watching', 'off' (no camera in this game) or 'lost: <why>'."""
    companion: int | None = None
    """The side the companion plays, if it plays one."""
    thinking: bool = False
    """The companion is searching for its action."""


@dataclass
class _Table:
    seen: dict[str, tuple[str, ...]] = field(default_factory=dict)
    unsure: frozenset[str] = frozenset()
    overridden: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Square -> the camera's reading a player chose to ignore; it counts as the rules'
    stone until the camera reads something else there."""
    check: TableCheck = field(default_factory=TableCheck)
    last_action: str | None = None
    changed: tuple[int, ...] = ()
    lifted: int | None = None
    """The stone the camera saw picked up, while it is the one picked up."""


Listener = Callable[[MemView], None]


class MemPlay:
    def __init__(
        self,
        referee: Referee,
        *,
        title: str,
        hints: bool,
        call_soon: CallSoon | None = None,
        hint_budget: int = HINT_BUDGET,
        camera: bool = False,
        on_alert: Alerted | None = None,
        companion_side: int | None = None,
        strength: str = DEFAULT_STRENGTH,
    ) -> None:
        """With `camera`, the table's stones come from `table_seen`; `on_alert` hears every
        new alert (the buzzer, the stream). With `companion_side`, the companion plays that
        side at `strength` (a key of STRENGTHS)."""
        self.referee = referee
        self.companion_side = companion_side
        self.strength: Strength = STRENGTHS[strength]
        self.title = title
        self.hints = hints
        self.hint_budget = hint_budget
        self._call_soon: CallSoon = call_soon or (lambda job: job())
        self._listeners = Listeners[MemView]("MeM screen")
        self._selected: int | None = None
        self._message = ""
        self._hint: HintMarks | None = None
        self._position = 0
        """Counts the changes to the game (a takeback too, which leaves the referee's seq
        where it was), so that a hint searched for one position is never shown on another."""
        self._hinting: int | None = None
        """The position a hint is being searched for, or None."""
        self._thinking: int | None = None
        """The position the companion is searching its action for, or None."""
        self._stuck: int | None = None
        """A position the companion's search found nothing for: not searched again."""
        self._takeback: TakebackAsk | None = None
        self._history, self._events = self._replay()
        self._camera = WATCHING if camera else NO_CAMERA
        self._on_alert = on_alert
        self._table = _Table()
        if camera:
            # Until the camera says otherwise, the table holds what the rules say.
            self._table.seen = self._rules_seen()
        self._previous = self.state
        self._unsubscribe = referee.subscribe(self._committed)

    @property
    def state(self) -> State:
        state: State = self.referee.state
        return state

    # -- touches ---------------------------------------------------------------------------

    def tap_square(self, square: int) -> None:
        """A tap on a square of the board: picks its stone up (or puts it down)."""
        self._selected = square_tapped(self.state, self._selected, square)
        self._message = ""
        self._tell()

    def tap_cell(self, owner: int, cell: CellXY) -> None:
        """A tap on cell `cell` (board frame) of `owner`'s playing space."""
        if self._takeback is not None:
            self._refuse("A takeback is being asked: agree to it or refuse it first.")
            return
        if self.held:
            self._refuse(HELD)
            return
        if self.companions_turn():
            self._refuse(COMPANION_DECIDES)
            return
        outcome = cell_tapped(self.state, self.referee.expected(), self._selected, owner, cell)
        self._act(outcome)

    def press(self, key: str) -> None:
        """A button: one of the expected actions' (ask, capture, allow, end_turn, pass), or
        hint, take_back, agree, refuse."""
        if key == "hint":
            self.ask_hint()
        elif key == "take_back":
            self.ask_take_back()
        elif key == "agree":
            self.agree_take_back()
        elif key == "refuse":
            self._takeback = None
            self._refuse("The takeback was refused.")
        elif key == "override":
            self.override_all()
        elif self._takeback is not None:
            self._refuse("A takeback is being asked: agree to it or refuse it first.")
        elif self.held:
            self._refuse(HELD)
        elif self.companions_turn():
            self._refuse(COMPANION_DECIDES)
        else:
            self._act(button_pressed(self.state, self.referee.expected(), self._selected, key))

    # -- the camera ------------------------------------------------------------------------

    def table_seen(self, board: Board) -> None:
        """The camera committed a new reading of the whole board."""
        if not self._camera.watching:
            return
        table = self._table
        table.seen = {z: tuple(sorted(c)) for z, c in board.items() if c}
        for zone, held in list(table.overridden.items()):
            if table.seen.get(zone, ()) != held:
                del table.overridden[zone]
        self._recheck()

    def table_unsure(self, zones: frozenset[str]) -> None:
        """The squares whose stone the camera cannot name now: never an alert."""
        if not self._camera.watching or zones == self._table.unsure:
            return
        self._table.unsure = zones
        self._recheck()

    def camera_lost(self, why: str) -> None:
        """The camera stopped: say so once; from now on stones are picked up by touch."""
        if self._camera.lost:
            return
        self._camera = CameraStatus("lost", why)
        self._table = _Table()
        log.warning("game %d: camera lost (%s); moves by touch", self.referee.game_id, why)
        self._message = f"The camera stopped ({why}). Pick stones up by touch."
        if self._on_alert is not None:
            self._on_alert((AlertView("camera", self._message, "camera", put_right=False),))
        self._tell()

    def override_all(self) -> None:
        """A player says the camera is wrong where it alerts: its reading is ignored there
        until it reads something else."""
        table = self._table
        for alert in table.check.alerts:
            zone = str(alert.square)
            table.overridden[zone] = table.seen.get(zone, ())
            log.info("game %d: square %s overridden by a player", self.referee.game_id, zone)
        self._recheck()

    @property
    def held(self) -> bool:
        return bool(self._table.check.alerts)

    def _rules_seen(self) -> dict[str, tuple[str, ...]]:
        return {str(s): (colour,) for s, colour in rules_board(self.state).items()}

    def _seen_with_overrides(self) -> dict[str, tuple[str, ...]]:
        table = self._table
        rules = self._rules_seen()
        seen = dict(table.seen)
        for zone in table.overridden:
            seen[zone] = rules.get(zone, ())
        return {z: c for z, c in seen.items() if c}

    def _recheck(self) -> None:
        if not self._camera.watching:
            self._tell()
            return
        table = self._table
        before = table.check.alerts
        check = check_table(
            self.state,
            self._seen_with_overrides(),
            unsure=table.unsure,
            last_action=table.last_action,
            changed=table.changed,
        )
        table.check = check
        if check.taken is not None:
            if table.lifted != check.taken:
                # A stone lifted off the board is picked up, as a tap on it would be.
                table.lifted = check.taken
                self._selected = check.taken
                self._message = ""
        elif table.lifted is not None:
            if self._selected == table.lifted:
                self._selected = None  # put back: put down
            table.lifted = None
        if before and not check.alerts and self._message == HELD:
            self._message = ""  # put right: nothing to say any more
        new = [a for a in check.alerts if a not in before]
        if new:
            for alert in new:
                log.info(
                    "game %d: table alert on square %d (%s)",
                    self.referee.game_id,
                    alert.square,
                    alert.rule,
                )
            if self._on_alert is not None:
                self._on_alert(tuple(_alert_view(a) for a in new))
        self._tell()

    # -- the companion ---------------------------------------------------------------------

    def companions_turn(self) -> bool:
        """The rules wait on the side the companion plays."""
        if self.companion_side is None:
            return False
        expectation = self.referee.expected()
        return expectation is not None and expectation.actor == self.companion_side

    def step(self) -> bool:
        """Starts the companion's search when the rules wait on its side (and the table
        matches the rules, and no takeback is being asked); True when it started one."""
        position = self._position
        if (
            self._thinking == position
            or self._stuck == position
            or self._takeback is not None
            or self.held
            or self.referee.is_over
            or not self.companions_turn()
        ):
            return False
        state, strength = self.state, self.strength
        # The same game and position give the same move, replayed or not.
        rng = random.Random(f"mem-companion:{state.setup.seed}:{self.referee.seq}")
        self._thinking = position
        self._tell()

        search_aside(
            lambda: companion_action(state, strength, rng),
            lambda action: self._companion_moved(position, action),
            self._call_soon,
            "companion-move",
            failed=None,
        )
        return True

    def _companion_moved(self, position: int, action: Action | None) -> None:
        if self._thinking == position:
            self._thinking = None
        if position != self._position:
            return  # the game moved on, or was put down, while the search ran
        if action is None:
            self._stuck = position
            self._refuse("The companion found no action to take.")
            return
        try:
            self.referee.submit(action)
        except IllegalAction as refused:
            self._stuck = position
            log.warning("game %d: the companion's %s was refused", self.referee.game_id, action)
            self._refuse(f"The companion's move was refused: {refused.explanation}")

    # -- hints -----------------------------------------------------------------------------

    def ask_hint(self) -> None:
        """Searches the best action for whoever must decide, on a thread of its own."""
        if not self.hints:
            self._refuse("No hints in a rated game.")
            return
        if self.referee.is_over or self._hinting == self._position:
            return
        if self.companions_turn():
            self._refuse(COMPANION_DECIDES)
            return
        position, state, budget = self._position, self.state, self.hint_budget
        self._hinting = position
        self._hint = None
        self._tell()

        search_aside(
            lambda: hint_marks(state, best_action(state, budget=budget).action),
            lambda found: self._hinted(position, found),
            self._call_soon,
            "hint",
            failed=HintMarks("No hint: the search failed."),
        )

    def _hinted(self, position: int, found: HintMarks) -> None:
        if self._hinting == position:
            self._hinting = None
        if position != self._position:
            self._tell()
            return  # the game moved on while the search ran
        self._hint = found
        self._tell()

    # -- takebacks -------------------------------------------------------------------------

    def ask_take_back(self) -> None:
        """The last action back: at once in a solitaire game, else once the player who did
        not make it agrees."""
        actions = self.referee.store.actions(self.referee.game_id)
        if self.referee.is_over or not actions:
            self._refuse("There is no action to take back.")
            return
        last = actions[-1][2]
        if len(self.state.sides) == 1:
            self._take_back()
            return
        if self.companion_side is not None:
            self._take_back_from_companion()
            return
        side = last.get("side", 0)
        agrees = 1 - side if side in (0, 1) else 0
        self._takeback = TakebackAsk(describe_action(last, self.state.setup.names), agrees)
        self._message = ""
        self._tell()

    def agree_take_back(self) -> None:
        if self._takeback is None:
            self._refuse("No takeback is being asked.")
            return
        self._takeback = None
        self._take_back()

    def _take_back_from_companion(self) -> None:
        """The companion agrees to a takeback at once: the companion's actions since the
        player's last one go back, and that one too, so that the player decides again."""
        store, game_id = self.referee.store, self.referee.game_id
        while True:
            actions = store.actions(game_id)
            if not actions:
                return
            side = actions[-1][2].get("side")
            try:
                self.referee.take_back()
            except IllegalAction as refused:
                self._refuse(f"{refused.explanation} ({refused.rule})")
                return
            if side != self.companion_side:
                return

    def _take_back(self) -> None:
        try:
            self.referee.take_back()
        except IllegalAction as refused:
            self._refuse(f"{refused.explanation} ({refused.rule})")

    # -- what it shows ---------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._listeners.add(listener)

    def view(self) -> MemView:
        state = self.state
        expectation = self.referee.expected()
        summary = self.referee.engine.summary(state)
        sides = summary["scores"]["sides"]
        notes = tuple(
            ", ".join(
                word
                for word, on in (
                    ("locked", side.lock is not None),
                    ("dead", bool(sides[i]["dead"])),
                    ("out", side.out),
                )
                if on
            )
            for i, side in enumerate(state.sides)
        )
        selected = self._selected
        if selected is not None and not state.board[selected]:
            selected = None  # taken back, or taken by the other player
        # One score line per action that counts: none, nothing to take back.
        takeback_possible = not self.referee.is_over and bool(self._history)
        return MemView(
            title=self.title,
            board=state.board,
            align=state.setup.rules.board_align,
            names=state.setup.names,
            patterns=tuple(side.pattern for side in state.sides),
            scores=tuple(int(s["total"]) for s in sides),
            piles=tuple(side.pile for side in state.sides),
            notes=notes,
            turn=state.turn,
            actor=expectation.actor if expectation is not None else None,
            prompt=expectation.prompt if expectation is not None else "The game is over.",
            how=how_to(expectation),
            message=self._message,
            selected=selected,
            marks=marks(state, expectation, selected),
            pending=state.pending.square if state.pending is not None else None,
            barred=state.barred,
            buttons=offered_buttons(expectation),
            hints=self.hints,
            hint=self._hint,
            hinting=self._hinting is not None,
            events=tuple(self._events[-EVENTS_SHOWN:]),
            takeback=self._takeback,
            can_take_back=takeback_possible,
            over=self.referee.is_over,
            seq=self.referee.seq,
            history=tuple(self._history),
            alerts=tuple(_alert_view(a) for a in self._table.check.alerts),
            held=self.held,
            camera=self._camera,
            companion=self.companion_side,
            thinking=self._thinking is not None,
        )

    def end_view(self) -> EndView:
        """The game's end: the engine's result line, each player's stones (pattern and
        captured pile), and their stones after every action."""
        summary = self.referee.engine.summary(self.state)
        lines: list[str] = summary.get("lines", [])
        sides = summary["scores"]["sides"]
        names = self.state.setup.names
        return EndView(
            result=lines[-1] if lines else "The game is over.",
            names=tuple(names),
            rows=(
                ("Pattern", tuple(str(s["pattern"]) for s in sides)),
                ("Captured pile", tuple(str(s["pile"]) for s in sides)),
                ("Total", tuple(str(s["total"]) for s in sides)),
            ),
            history=tuple(self._history),
            colours=tuple(side_rgb(i) for i in range(len(names))),
        )

    def close(self) -> None:
        """Stops following the referee (the game stays in the store). A move or a hint still
        being searched for is dropped when it comes: the game was put down."""
        self._position += 1
        self._unsubscribe()
        self._listeners.clear()

    # -- inside ----------------------------------------------------------------------------

    def _act(self, outcome: Action | Guidance) -> None:
        if isinstance(outcome, Guidance):
            self._refuse(outcome.text)
            return
        try:
            self.referee.submit(outcome)
        except IllegalAction as refused:
            self._refuse(f"{refused.explanation} ({refused.rule})")

    def _committed(self, note: Notification) -> None:
        self._position += 1
        self._selected = None
        self._hint = None
        self._takeback = None
        if note.action.kind == "takeback":
            self._history, self._events = self._replay()
            self._message = "The last action was taken back."
        else:
            self._message = ""
            self._history.append(_totals(note.state))
            names = self.state.setup.names
            engine = self.referee.engine
            for event in note.events:
                line = describe_event(engine.event_to_dict(event), names)
                if line:
                    self._events.append(line)
        table = self._table
        table.last_action = note.action.kind
        table.changed = changed_squares(self._previous, note.state)
        table.lifted = None
        self._previous = note.state
        self._recheck()

    def _refuse(self, why: str) -> None:
        self._message = why[:1].upper() + why[1:]
        self._tell()

    def _tell(self) -> None:
        self._listeners.tell(self.view())

    def _replay(self) -> tuple[list[tuple[int, ...]], list[str]]:
        """Every side's stones after each action and the events in words, from the store
        (a resumed game shows them from its start)."""
        store, game_id = self.referee.store, self.referee.game_id
        history = [_totals(state) for _engine, seq, state in replayed(store, game_id) if seq]
        names = self.state.setup.names
        lines = [describe_event(event, names) for _seq, _idx, event in store.events(game_id)]
        return history, [line for line in lines if line]


def _alert_view(alert: StoneAlert) -> AlertView:
    seen = (alert.seen,) if alert.seen else ()
    return AlertView(str(alert.square), alert.text(), alert.rule, alert.put_right, seen)


def _totals(state: Any) -> tuple[int, ...]:
    return tuple(side.pile + len(side.pattern) for side in state.sides)
