"""A tiny two-player game that implements the whole engine contract, for testing the store
and the referee without MemWars.

Sides 0 and 1 take turns taking 1 to 3 tokens from a pile; the tokens taken are points.
Instead of taking, a side may once place a face-down counter worth 0 to 9 (hidden until the
end). After every tenth take the table rolls a die (from the seed in the state) and adds
that many tokens to the pile. The game ends when the pile is empty; counters then count.

Importing this module registers it as "toy".
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from companion.games import register_engine
from companion.games.codec import Codec
from companion.games.contract import (
    JSON,
    TABLE,
    Action,
    BadData,
    BadSetup,
    Event,
    Expectation,
    IllegalAction,
    Viewer,
)

ROLL_EVERY = 10
_MASK = 2**64 - 1


@dataclass(frozen=True, slots=True)
class Take(Action):
    kind: ClassVar[str] = "take"
    side: int
    count: int


@dataclass(frozen=True, slots=True)
class Hide(Action):
    kind: ClassVar[str] = "hide"
    side: int
    value: int
    """Face-down: only the table and its owner may know it before the end."""


@dataclass(frozen=True, slots=True)
class Roll(Action):
    kind: ClassVar[str] = "roll"


@dataclass(frozen=True, slots=True)
class Took(Event):
    kind: ClassVar[str] = "took"
    side: int
    count: int
    pile: int


@dataclass(frozen=True, slots=True)
class Hid(Event):
    kind: ClassVar[str] = "hid"
    side: int


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    kind: ClassVar[str] = "rolled"
    value: int
    pile: int


@dataclass(frozen=True, slots=True)
class Finished(Event):
    kind: ClassVar[str] = "finished"
    winner: int | None
    totals: tuple[int, int]


ACTIONS: Codec[Action] = Codec("action", [Take, Hide, Roll])
EVENTS: Codec[Event] = Codec("event", [Took, Hid, Rolled, Finished])


@dataclass(frozen=True, slots=True)
class ToyState:
    start_pile: int
    seed: int
    rng: int
    pile: int
    turn: int = 0
    scores: tuple[int, int] = (0, 0)
    hidden: tuple[int | None, int | None] = (None, None)
    takes: int = 0
    roll_due: bool = False


def _next_rng(rng: int) -> int:
    return (rng * 6364136223846793005 + 1442695040888963407) & _MASK


def _totals(state: ToyState) -> tuple[int, int]:
    return (
        state.scores[0] + (state.hidden[0] or 0),
        state.scores[1] + (state.hidden[1] or 0),
    )


class ToyEngine:
    name = "toy"
    title = "Toy Nim"

    def new_game(self, setup: Mapping[str, Any]) -> ToyState:
        unknown = set(setup) - {"pile", "seed"}
        if unknown:
            raise BadSetup(sorted(unknown)[0], "is not a setup field")
        pile, seed = setup.get("pile", 20), setup.get("seed", 0)
        if isinstance(pile, bool) or not isinstance(pile, int) or pile < 1:
            raise BadSetup("pile", f"must be a whole number of at least 1, got {pile!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK:
            raise BadSetup("seed", f"must be a whole number from 0 to 2**64-1, got {seed!r}")
        return ToyState(start_pile=pile, seed=seed, rng=seed, pile=pile)

    def start(self, setup: Mapping[str, Any]) -> tuple[ToyState, tuple[Event, ...]]:
        return self.new_game(setup), ()

    def implied(self, state: ToyState, action: Action) -> Action | None:
        return None

    def apply(self, state: ToyState, action: Action) -> tuple[ToyState, tuple[Event, ...]]:
        if self.is_over(state):
            raise IllegalAction("TOY-OVER", "the game is over")
        if isinstance(action, Roll):
            if not state.roll_due:
                raise IllegalAction("TOY-ROLL", "no roll is due")
            rng = _next_rng(state.rng)
            value = (rng >> 33) % 6 + 1
            after = replace(state, rng=rng, pile=state.pile + value, roll_due=False)
            return after, (Rolled(value=value, pile=after.pile),)
        if not isinstance(action, Take | Hide):
            raise IllegalAction("TOY-KIND", f"{action.kind!r} is not an action of this game")
        if state.roll_due:
            raise IllegalAction("TOY-ROLL", "the table must roll first")
        if action.side != state.turn:
            raise IllegalAction("TOY-TURN", f"it is side {state.turn}'s turn")
        other = 1 - state.turn
        if isinstance(action, Hide):
            if state.hidden[action.side] is not None:
                raise IllegalAction("TOY-HIDE", "a side places one counter per game")
            if not 0 <= action.value <= 9:
                raise IllegalAction("TOY-HIDE", "a counter is worth 0 to 9")
            hidden = list(state.hidden)
            hidden[action.side] = action.value
            after = replace(state, hidden=(hidden[0], hidden[1]), turn=other)
            return after, (Hid(side=action.side),)
        if not 1 <= action.count <= min(3, state.pile):
            raise IllegalAction("TOY-TAKE", f"take 1 to {min(3, state.pile)} tokens")
        scores = list(state.scores)
        scores[action.side] += action.count
        pile, takes = state.pile - action.count, state.takes + 1
        after = replace(
            state,
            pile=pile,
            turn=other,
            scores=(scores[0], scores[1]),
            takes=takes,
            roll_due=pile > 0 and takes % ROLL_EVERY == 0,
        )
        events: tuple[Event, ...] = (Took(side=action.side, count=action.count, pile=pile),)
        if pile == 0:
            totals = _totals(after)
            winner = None if totals[0] == totals[1] else int(totals[1] > totals[0])
            events += (Finished(winner=winner, totals=totals),)
        return after, events

    def expected(self, state: ToyState) -> Expectation | None:
        if self.is_over(state):
            return None
        if state.roll_due:
            return Expectation(actor=TABLE, actions=("roll",), prompt="The table rolls.")
        kinds = ("take",) if state.hidden[state.turn] is not None else ("take", "hide")
        return Expectation(actor=state.turn, actions=kinds, prompt=f"Side {state.turn} moves.")

    def is_over(self, state: ToyState) -> bool:
        return state.pile == 0

    def view(self, state: ToyState, viewer: Viewer) -> JSON:
        data = self.state_to_dict(state)
        del data["rng"]  # knowing it would tell the next roll
        if viewer != "table" and not self.is_over(state):
            data["hidden"] = [
                value if viewer == side else (None if value is None else "face-down")
                for side, value in enumerate(state.hidden)
            ]
        return data

    def state_to_dict(self, state: ToyState) -> JSON:
        return {
            "start_pile": state.start_pile,
            "seed": state.seed,
            "rng": state.rng,
            "pile": state.pile,
            "turn": state.turn,
            "scores": list(state.scores),
            "hidden": list(state.hidden),
            "takes": state.takes,
            "roll_due": state.roll_due,
        }

    def state_from_dict(self, data: Mapping[str, Any]) -> ToyState:
        try:
            scores, hidden = data["scores"], data["hidden"]
            return ToyState(
                start_pile=int(data["start_pile"]),
                seed=int(data["seed"]),
                rng=int(data["rng"]),
                pile=int(data["pile"]),
                turn=int(data["turn"]),
                scores=(int(scores[0]), int(scores[1])),
                hidden=(hidden[0], hidden[1]),
                takes=int(data["takes"]),
                roll_due=bool(data["roll_due"]),
            )
        except (KeyError, IndexError, TypeError, ValueError) as err:
            raise BadData("state", str(err)) from None

    def setup_of(self, state: ToyState) -> JSON:
        return {"pile": state.start_pile, "seed": state.seed}

    def action_to_dict(self, action: Action) -> JSON:
        return ACTIONS.to_dict(action)

    def action_from_dict(self, data: Mapping[str, Any]) -> Action:
        return ACTIONS.from_dict(data)

    def event_to_dict(self, event: Event) -> JSON:
        return EVENTS.to_dict(event)

    def summary(self, state: ToyState) -> JSON:
        over = self.is_over(state)
        totals = _totals(state) if over else state.scores
        winner = None if not over or totals[0] == totals[1] else int(totals[1] > totals[0])
        return {"scores": list(totals), "pile": state.pile, "over": over, "winner": winner}


register_engine("toy", ToyEngine)


def scripted_game(setup: Mapping[str, Any], policy_seed: int = 0) -> list[JSON]:
    """A complete, legal game from `setup`, as action dicts: both sides play at random."""
    engine = ToyEngine()
    choose = random.Random(policy_seed)
    state = engine.new_game(setup)
    script: list[JSON] = []
    while (expected := engine.expected(state)) is not None:
        action: Action
        if expected.actor == TABLE:
            action = Roll()
        elif "hide" in expected.actions and choose.random() < 0.02:
            action = Hide(side=expected.actor, value=choose.randint(0, 9))
        else:
            action = Take(side=expected.actor, count=choose.randint(1, min(3, state.pile)))
        state, _ = engine.apply(state, action)
        script.append(engine.action_to_dict(action))
    return script
