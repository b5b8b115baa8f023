"""What every game engine offers the referee, the UI, the record and the stream.

An engine is pure: a frozen state, typed actions and events, and functions between them.
Nothing here touches a clock, a file or a random source other than the seed in the state.

    engine = find_engine("memwars")
    state = engine.new_game(setup)  # or: state, events = engine.start(setup)
    state, events = engine.apply(state, action)
    engine.expected(state)          # whose decision, which actions, which places
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol, TypeVar

JSON = dict[str, Any]

TABLE = -1
"""The actor for decisions nobody at the table owns alone: a judge checking a card, a roll."""

Viewer = int | Literal["spectator", "table"]
"""A side index sees what that side may see; 'spectator' sees public facts only; 'table' is
the referee's own view (everything, including face-down values)."""


class IllegalAction(Exception):
    """An action the rules forbid. `rule` is the rule's id, e.g. ``MW-CH3``."""

    def __init__(self, rule: str, explanation: str) -> None:
        self.rule = rule
        self.explanation = explanation
        super().__init__(f"{rule}: {explanation}")


class BadSetup(ValueError):
    """A game setup that cannot start a game; names the field at fault."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class BadData(ValueError):
    """A serialised action, event or state that does not parse; names the field at fault."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. Subclasses are frozen dataclasses with a `kind` name."""

    kind: ClassVar[str] = "action"


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event. Events carry only what every viewer may know."""

    kind: ClassVar[str] = "event"


@dataclass(frozen=True, slots=True)
class Expectation:
    """What the rules wait for next.

    `actor` is the side whose decision it is, or TABLE for a judge or a roll; `actions` are
    the action kinds accepted; `places` the places an action may name (empty when the action
    names none); `prompt` one sentence for a screen; `timed` whose clock runs meanwhile.
    """

    actor: int
    actions: tuple[str, ...]
    places: tuple[int, ...] = ()
    prompt: str = ""
    timed: int | None = None
    """Whose game clock runs while the rules wait, or None for nobody's (setup steps, a card
    being checked). Engines whose games use clocks accept a `time_expired` action with a
    `side` field for the side whose time ran out."""
    cards: tuple[int, ...] = ()
    """The cards the rules expect to be shown now (a card presented, a card to check), so a
    card reader's scan can be checked against them; empty when no card is expected."""
    move: int = 0
    """Which of the timed side's decisions this is, for games that time each decision
    rather than each turn (MnemoGame's 30 s a guess): when it changes while the same side's
    time runs, a new move begins and a per-move limit starts again. Games that time turns
    leave it 0."""

    def to_dict(self) -> JSON:
        return {
            "actor": self.actor,
            "actions": list(self.actions),
            "places": list(self.places),
            "prompt": self.prompt,
            "timed": self.timed,
            "cards": list(self.cards),
        }


StateT = TypeVar("StateT")


class GameEngine(Protocol[StateT]):
    """The contract. One instance per game; it holds no game state itself."""

    name: str
    title: str

    def new_game(self, setup: Mapping[str, Any]) -> StateT:
        """A fresh game from a JSON-safe setup; raises BadSetup."""
        ...

    def start(self, setup: Mapping[str, Any]) -> tuple[StateT, tuple[Event, ...]]:
        """new_game, and what happened on the way to the first decision (play starting, the
        first turn, a card presented): a replay lists these before action 1's."""
        ...

    def apply(self, state: StateT, action: Action) -> tuple[StateT, tuple[Event, ...]]:
        """The state after `action`, and what happened; raises IllegalAction."""
        ...

    def expected(self, state: StateT) -> Expectation | None:
        """What the rules wait for next; None once the game is over."""
        ...

    def implied(self, state: StateT, action: Action) -> Action | None:
        """An action a hand-written record may leave out before `action`, or None.

        Only the record reader asks: when it returns an action, the reader applies it and
        asks again before applying `action`. What it returns must be legal in `state`, and
        must not depend on house rules, so that a record that leaves it out replays to
        exactly the game of one that writes it (MemWars: the decline of a challenge that
        the next line shows was not made)."""
        ...

    def is_over(self, state: StateT) -> bool: ...

    def view(self, state: StateT, viewer: Viewer) -> JSON:
        """What `viewer` may see, JSON-safe, hidden information removed."""
        ...

    def state_to_dict(self, state: StateT) -> JSON: ...

    def state_from_dict(self, data: Mapping[str, Any]) -> StateT: ...

    def setup_of(self, state: StateT) -> JSON:
        """The setup that started this game, as given to new_game (normalised)."""
        ...

    def action_to_dict(self, action: Action) -> JSON: ...

    def action_from_dict(self, data: Mapping[str, Any]) -> Action:
        """Parses one action; raises BadData naming the field."""
        ...

    def event_to_dict(self, event: Event) -> JSON: ...

    def summary(self, state: StateT) -> JSON:
        """Scores and result so far, JSON-safe, public."""
        ...
