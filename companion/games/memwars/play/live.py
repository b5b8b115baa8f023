"""A game being played at the table: the referee, the camera's view of the board and the
players' touches, brought together into one picture for the touchscreen.

    live = LiveGame(referee, colours, on_alert=buzzer.alert)
    live.table_seen({"17": ("red",)})    # the camera committed a change: maybe a claim
    live.counters_seen({"33": (None,)})  # the topology counters it committed
    live.decide("challenge")             # a touch; None, or why it was refused
    live.override("17")                  # the camera is wrong about place 17: go on
    live.view()                          # everything a screen shows, as plain data

Every move reaches the game only through the referee (store first, then everyone else).
While the table does not match the rules, the game is held: touches that would move the
game on are refused until the pieces are put right or a player overrides the alert. When
the camera fails, `camera_lost` says so once and the game goes on by touch alone.

Topology counters are checked once the camera has reported any (a camera that reads none
says nothing of them): a counter taken, turned or laid against the rules holds the game
like a crystal, and counters the rules gave a won place's holder are table work. Where an
answer must locate its card's place, the crystal the answerer puts down locates it: the
Right and Wrong touches then need no place.

The view is the table's own (the touchscreen beside the board): the stream and the display
page get the spectator's view from the engine instead.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from companion.decks.model import Deck
from companion.games.contract import TABLE, Action, IllegalAction
from companion.games.memwars import events as E
from companion.games.memwars.board_pieces import (
    PieceColours,
    counters_on_board,
    crystals_on_board,
)
from companion.games.memwars.decisions import Decision, decisions
from companion.games.memwars.narrate import narrate
from companion.games.memwars.palette import colour_rgb
from companion.games.memwars.scoring import score
from companion.games.memwars.state import State
from companion.games.memwars.table import (
    CounterBoard,
    TableAlert,
    TableCheck,
    changed_counters,
    changed_zones,
    check_table,
)
from companion.games.zone_check import zone_name
from companion.session import Notification, Referee
from companion.store import replayed
from companion.table.listeners import Listeners
from companion.table.observations import ScanVerdict
from companion.table.views import (
    NO_CAMERA,
    WATCHING,
    AlertView,
    Button,
    CameraStatus,
    EndView,
    TakebackView,
)

log = logging.getLogger(__name__)

Board = Mapping[str, Sequence[str]]
Counters = dict[str, tuple[int | None, ...]]


@dataclass(frozen=True, slots=True)
class CardCheck:
    """A card the table must check now, with its answers down to the depth that counts."""

    number: int
    place: int
    answers: tuple[str, ...]
    """Level 1 (the name) first; as deep as the claim was made."""


@dataclass(frozen=True, slots=True)
class LiveView:
    """What the touchscreen shows, as plain data (the UI only draws it)."""

    title: str
    prompt: str
    actor: str
    """Who must decide: a side's name, or 'the table'."""
    buttons: tuple[Button, ...]
    places: tuple[int, ...]
    """The places the awaited move may name: highlighted on the board (the one a crystal
    located, once one has)."""
    board: Mapping[str, tuple[str, ...]]
    """The crystals the rules have on each place, by place number."""
    side_names: tuple[str, ...]
    side_colours: tuple[str, ...]
    scores: tuple[int, ...]
    alerts: tuple[AlertView, ...]
    held: bool
    """True while the table must be put right before the game goes on."""
    camera: CameraStatus
    """'watching', 'off' (no camera in this game) or 'lost: <why>'."""
    waiting_for: str
    """A move the table is part way through, e.g. 'challenge', or ''."""
    message: str
    """The last refusal or notice, for a line under the buttons."""
    over: bool
    history: tuple[tuple[int, ...], ...]
    """Every side's score after each committed move, for the end screen's plot."""
    seq: int
    takeback: TakebackView | None = None
    card_front: str = ""
    """The front of the card being presented, when the rules show it to everyone (Basic
    play, lightning rounds): 'Card 17: ...'."""
    check: CardCheck | None = None
    """Only while the table judges a card: its answers, for the verifier panel. Hidden
    information: the screen shows it only on request, and it is never logged or streamed."""
    said: str = ""
    """What the last move did, in plain words (the roll, who took which piece, whose turn
    is lost, who won the quadrant): public events only, kept while the next decision is
    asked."""
    out_of_play: frozenset[int] = frozenset()
    """The places of the quadrants not agreed on (an abbreviated game): drawn faded."""
    located: int = 0
    """The place the crystal put down gives the answer awaited: the verdict's touch needs
    no other. 0 when none."""


Listener = Callable[[LiveView], None]


@dataclass
class _Table:
    seen: dict[str, tuple[str, ...]] = field(default_factory=dict)
    overridden: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Zone -> the camera's reading a player chose to ignore; it counts as the rules'
    contents until the camera reads something else there."""
    counters: Counters | None = None
    """The topology counters the camera committed; None until it has reported any."""
    overridden_counters: Counters = field(default_factory=dict)
    """Place -> the camera's counters a player chose to ignore, as `overridden`."""
    check: TableCheck = field(default_factory=TableCheck)
    last_move: str | None = None
    changed: tuple[str, ...] = ()
    counters_changed: tuple[str, ...] = ()
    """The places whose counters the last move changed on the rules' board."""
    settling: bool = False
    """After a takeback, until the table matches the rules again: what lies there is put
    right, never taken for a move."""


class LiveGame:
    def __init__(
        self,
        referee: Referee,
        colours: PieceColours,
        *,
        camera: bool = False,
        on_alert: Callable[[tuple[AlertView, ...]], None] | None = None,
        title: str = "",
        deck: Deck | None = None,
    ) -> None:
        """`deck` gives the verifier panel its answers; without it the table checks the
        printed card."""
        self.referee = referee
        self.colours = colours
        self.deck = deck
        self.title = title or referee.store.game(referee.game_id).title
        self._camera = WATCHING if camera else NO_CAMERA
        self._on_alert = on_alert
        self._listeners = Listeners[LiveView]("live game")
        self._table = _Table()
        self._message = ""
        self._said = ""
        self._takeback: set[int] | None = None
        self._card_alert: AlertView | None = None
        """A card scanned that is not the one the rules expect: held until it is, or a
        player overrides."""
        self._history, self._previous_state = self._replay()
        referee.subscribe(self._committed)
        if camera:
            # Until the camera says otherwise, the table holds what the rules say.
            self._table.seen = self._rules_board()

    # -- inputs ----------------------------------------------------------------------------

    def table_seen(self, board: Board) -> None:
        """The camera committed a new reading of the whole board."""
        if not self._camera.watching:
            return
        self._table.seen = {z: tuple(sorted(c)) for z, c in board.items() if c}
        for zone, held in list(self._table.overridden.items()):
            if self._table.seen.get(zone, ()) != held:
                del self._table.overridden[zone]
        self._recheck()

    def counters_seen(self, counters: CounterBoard) -> None:
        """The camera committed a new reading of the topology counters on the board."""
        if not self._camera.watching:
            return
        table = self._table
        table.counters = {z: tuple(v) for z, v in counters.items() if v}
        for zone, held in list(table.overridden_counters.items()):
            if table.counters.get(zone, ()) != held:
                del table.overridden_counters[zone]
        self._recheck()

    def card_scanned(self, verdict: ScanVerdict) -> None:
        """A card reader's scan, checked against what the rules expect (ScanDesk)."""
        if verdict.accepted:
            self._card_alert = None
            self._message = verdict.message.capitalize() + "."
        elif verdict.expected:
            # The rules wait for a card and this is not it: the table must look.
            self._card_alert = AlertView("card", verdict.message, "cards", put_right=False)
            if self._on_alert is not None:
                self._on_alert((self._card_alert,))
        else:
            self._message = verdict.message.capitalize() + "."
        self._tell()

    def camera_lost(self, why: str) -> None:
        """The camera stopped: say so once; from now on moves come by touch only."""
        if self._camera.lost:
            return
        self._camera = CameraStatus("lost", why)
        self._table = _Table(last_move=self._table.last_move)
        log.warning("game %d: camera lost (%s); moves by touch", self.referee.game_id, why)
        self._message = f"The camera stopped ({why}). Enter moves by touch."
        if self._on_alert is not None:
            self._on_alert(
                (AlertView("camera", self._message, "camera", put_right=False),),
            )
        self._tell()

    def decide(self, key: str, place: int = 0) -> str | None:
        """A touch on decision `key` (with a place when it needs one). Returns None when the
        move was committed, else why not, in a sentence."""
        if self._takeback is not None:
            return self._refuse("A takeback is being asked: agree to it or refuse it first.")
        if self.held:
            return self._refuse("Put the board right first, or override the alert.")
        chosen = next((d for d in decisions(self.state) if d.key == key), None)
        if chosen is None:
            return self._refuse("That decision is not awaited now.")
        if chosen.needs_place and not place:
            # The answer's place, read off the table.
            place = self._table.check.located
        if chosen.needs_place and not place:
            return self._refuse("Choose a place on the board first.")
        return self._submit(chosen.action(place))

    # -- takebacks: the last move, with every side's consent ---------------------------------

    def ask_take_back(self) -> str | None:
        """Someone asks to take the last move back; None, or why it cannot be."""
        if self.referee.is_over or not self.referee.store.actions(self.referee.game_id):
            return self._refuse("There is no move to take back.")
        self._takeback = set()
        self._message = ""
        self._tell()
        return None

    def agree_take_back(self, side: int) -> str | None:
        """`side` agrees; once every side has, the move is taken back."""
        if self._takeback is None:
            return self._refuse("No takeback is being asked.")
        self._takeback.add(side)
        if len(self._takeback) < len(self.state.setup.sides):
            self._tell()
            return None
        self._takeback = None
        try:
            self.referee.take_back()
        except IllegalAction as refused:
            return self._refuse(refused.explanation)
        return None

    @property
    def takeback_waiting(self) -> tuple[int, ...]:
        """The sides yet to agree to the takeback being asked; () when none is asked."""
        if self._takeback is None:
            return ()
        return tuple(s for s in range(len(self.state.setup.sides)) if s not in self._takeback)

    def refuse_take_back(self) -> None:
        self._takeback = None
        self._message = "The takeback was refused."
        self._tell()

    def override(self, zone: str) -> None:
        """A player says the camera is wrong about `zone`: its reading is ignored there."""
        self._table.overridden[zone] = self._table.seen.get(zone, ())
        if self._table.counters is not None:
            self._table.overridden_counters[zone] = self._table.counters.get(zone, ())
        log.info("game %d: %s overridden by a player", self.referee.game_id, zone_name(zone))
        self._recheck()

    def override_all(self) -> None:
        if self._card_alert is not None:
            log.info("game %d: a card alert overridden by a player", self.referee.game_id)
            self._card_alert = None
        table = self._table
        for alert in table.check.alerts:
            if alert.counters and table.counters is not None:
                table.overridden_counters[alert.zone] = table.counters.get(alert.zone, ())
            else:
                table.overridden[alert.zone] = table.seen.get(alert.zone, ())
        self._recheck()
        self._tell()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        return self._listeners.add(listener)

    # -- what it shows ---------------------------------------------------------------------

    @property
    def state(self) -> State:
        state: State = self.referee.state
        return state

    @property
    def held(self) -> bool:
        return bool(self._table.check.alerts) or self._card_alert is not None

    def table_matches(self) -> bool | None:
        """Whether the camera sees the board as the rules have it (overrides counting as the
        rules' contents); None when no camera watches it."""
        if not self._camera.watching:
            return None
        return self._table.check.matches

    def view(self) -> LiveView:
        state = self.state
        expectation = self.referee.expected()
        names = tuple(s.name for s in state.setup.sides)
        actor = ""
        if expectation is not None:
            actor = names[expectation.actor] if expectation.actor >= 0 else "the table"
        check = self._table.check
        located = check.located
        buttons = tuple(_button(d) for d in decisions(state))
        if located:
            # The crystal gave the place: the verdict is one touch.
            buttons = tuple(replace(b, needs_place=False) for b in buttons)
        return LiveView(
            title=self.title,
            prompt=_prompt(expectation.prompt if expectation else "The game is over.", located),
            actor=actor,
            buttons=buttons,
            places=(located,) if located else expectation.places if expectation else (),
            board=self._rules_board(),
            side_names=names,
            side_colours=self.colours.sides,
            scores=self._scores(state),
            alerts=tuple(_alert_view(a) for a in check.alerts)
            + ((self._card_alert,) if self._card_alert is not None else ()),
            held=self.held,
            camera=self._camera,
            waiting_for=check.waiting_for.kind if check.waiting_for is not None else "",
            message=self._message,
            over=self.referee.is_over,
            history=tuple(self._history),
            seq=self.referee.seq,
            takeback=self._takeback_view(),
            card_front=self._card_front(state),
            check=self._card_check(state),
            said=self._said,
            out_of_play=frozenset(range(1, 101)) - state.setup.in_play,
            located=located,
        )

    def end_view(self) -> EndView:
        """The game's end: the winners, every side's score by kind, the scores after every
        move."""
        view = self.view()
        summary = self.referee.engine.summary(self.state)
        scores = summary["scores"]
        outcome = summary.get("outcome") or {}
        winners: Sequence[int] = outcome.get("winners", scores.get("leaders", []))
        names = [view.side_names[w] if w >= 0 else "the board" for w in winners]
        sides = scores["sides"]

        def row(title: str, values: Sequence[object]) -> tuple[str, tuple[str, ...]]:
            return (title, tuple(str(v) for v in values))

        return EndView(
            result=("Winner: " if len(names) == 1 else "Tied: ") + ", ".join(names),
            names=view.side_names,
            rows=(
                row("Places", [s["places"] for s in sides]),
                row("Place points", [s["place_points"] for s in sides]),
                row("Counters", [s["counter_points"] for s in sides]),
                row("Quadrant bonus", [s["quadrant_bonus"] for s in sides]),
                row("Captures", [s["capture_points"] for s in sides]),
                row("Patterns", [s["pattern_points"] for s in sides]),
                row("Board penalty", [-s["board_penalty"] for s in sides]),
                row("Total", [s["total"] for s in sides]),
            ),
            history=view.history,
            colours=tuple(colour_rgb(c) for c in view.side_colours),
        )

    def _card_front(self, state: State) -> str:
        if self.deck is None:
            return ""
        # What the whole table may see, as the engine decides it.
        public = self.referee.engine.view(state, "spectator")
        number = public.get("current_card")
        if not number or not public.get("card_front_shown"):
            return ""
        card = self.deck.card(int(number))
        return f"Card {card.number}: {card.front}" if card is not None else ""

    def _takeback_view(self) -> TakebackView | None:
        if self._takeback is None:
            return None
        actions = self.referee.store.actions(self.referee.game_id)
        move = _move_text(actions[-1][2]) if actions else "nothing"
        return TakebackView(move, tuple(sorted(self._takeback)), self.takeback_waiting)

    def _card_check(self, state: State) -> CardCheck | None:
        expectation = self.referee.expected()
        if (
            self.deck is None
            or expectation is None
            or expectation.actor != TABLE
            or not expectation.cards
            or not {"judge", "answer"} & set(expectation.actions)
        ):
            return None
        card = self.deck.card(expectation.cards[0])
        if card is None:
            return None
        # Both the claim and a challenge are judged at the claimant's depth.
        side = state.pending.claimant if state.pending is not None else state.turn
        depth = state.setup.depth_of(side, state.depth) or 1
        levels = range(1, min(depth, card.depth) + 1)
        return CardCheck(card.number, card.place, tuple(card.fact(level) for level in levels))

    # -- inside ----------------------------------------------------------------------------

    def _rules_board(self) -> dict[str, tuple[str, ...]]:
        return {z: tuple(sorted(c)) for z, c in crystals_on_board(self.state, self.colours).items()}

    def _seen_with_overrides(self) -> dict[str, tuple[str, ...]]:
        rules = self._rules_board()
        seen = dict(self._table.seen)
        for zone in self._table.overridden:
            seen[zone] = rules.get(zone, ())
        return {z: c for z, c in seen.items() if c}

    def _counters_with_overrides(self) -> Counters | None:
        if self._table.counters is None:
            return None
        rules = counters_on_board(self.state)
        seen = dict(self._table.counters)
        for zone in self._table.overridden_counters:
            seen[zone] = rules.get(zone, ())
        return {z: v for z, v in seen.items() if v}

    def _recheck(self) -> None:
        if not self._camera.watching:
            return
        before = self._table.check.alerts
        check = check_table(
            self.state,
            self._seen_with_overrides(),
            self.colours,
            last_move=self._table.last_move,
            changed=self._table.changed,
            propose=not self._table.settling,
            counters=self._counters_with_overrides(),
            counters_changed=self._table.counters_changed,
        )
        if check.matches:
            self._table.settling = False
        self._table.check = check
        if check.proposal is not None and not check.alerts:
            self._submit(check.proposal)
            return
        new = [a for a in check.alerts if a not in before]
        if new:
            for alert in new:
                # The zone and rule only: what lies there is public, the rule is public.
                log.info(
                    "game %d: table alert on %s (%s)", self.referee.game_id, alert.zone, alert.rule
                )
            if self._on_alert is not None:
                self._on_alert(tuple(_alert_view(a) for a in new))
        self._tell()

    def _submit(self, action: Action) -> str | None:
        try:
            self.referee.submit(action)
        except IllegalAction as refused:
            return self._refuse(f"{refused.explanation} ({refused.rule})")
        return None

    def _committed(self, note: Notification) -> None:
        self._message = ""
        self._said = _said(note)
        self._card_alert = None  # the rules moved on: another card, or none, is expected
        if note.action.kind == "takeback":
            self._history = self._history[:-1]
            self._message = "The last move was taken back."
        else:
            self._history.append(self._scores(note.state))
        previous = self._previous_state
        self._table.last_move = note.action.kind
        self._table.changed = changed_zones(previous, note.state, self.colours, note.action)
        self._table.counters_changed = changed_counters(previous, note.state)
        self._table.settling = note.action.kind == "takeback"
        self._previous_state = note.state
        if self._camera.watching:
            self._recheck()
        else:
            self._tell()

    def _refuse(self, why: str) -> str:
        self._message = why
        self._tell()
        return why

    def _tell(self) -> None:
        self._listeners.tell(self.view())

    def _scores(self, state: State) -> tuple[int, ...]:
        return tuple(s.total for s in score(state).sides)

    def _replay(self) -> tuple[list[tuple[int, ...]], State]:
        """Every score so far, replayed from the store (a resumed game plots from its start),
        and the state now."""
        history: list[tuple[int, ...]] = []
        for _engine, seq, state in replayed(self.referee.store, self.referee.game_id):
            if seq:
                history.append(self._scores(state))
        return history, state


def _prompt(prompt: str, located: int) -> str:
    if not located:
        return prompt
    return f"{prompt} The crystal on place {located} gives the answer's place."


def _said(note: Notification) -> str:
    """The move's events as sentences; whose move comes next is the prompt's to say. No card
    names: which card lies where may be what a player must find."""
    setup = note.state.setup
    sentences = (
        narrate(event, setup) for event in note.events if not isinstance(event, E.TurnStarted)
    )
    return " ".join(s for s in sentences if s)


def _move_text(action: Mapping[str, object]) -> str:
    """'claim on place 13', 'challenge', 'judge' for an action's dict."""
    kind = str(action.get("type", "move")).replace("_", " ")
    place = action.get("place")
    return f"{kind} on place {place}" if isinstance(place, int) and place else kind


def _button(decision: Decision) -> Button:
    return Button(decision.key, decision.label, decision.needs_place, decision.danger)


def _alert_view(alert: TableAlert) -> AlertView:
    return AlertView(alert.zone, alert.text(), alert.rule, alert.put_right, alert.seen)
