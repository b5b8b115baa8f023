"""A companion opponent for memento ludis: a shallow "paranoid" search (every other player
is assumed to play against the companion) over a beam of the most promising actions, with
an evaluation of material and of progress towards the two positional wins (ML-W1).

Deterministic: ties are broken by a random order drawn from the opponent's seed and the
number of actions played, so the same position and seed give the same choice.

    opponent = Opponent(strength=3, seed=7)
    action = opponent.choose(state)
    hint(state).explanation     # 'This beats Bo's Double on point 6, ...'

Strength 1 picks among the better actions at random; 2 looks one action ahead; 3 (the
default) answers each of its best 12 actions with the next player's best reply; 4 widens
that to 24; 5 looks three actions ahead over a narrower beam.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.games.contract import Action
from companion.games.memento import actions as A
from companion.games.memento.board import MIDDLE, TRIANGLES
from companion.games.memento.engine import perform
from companion.games.memento.legal import legal_actions
from companion.games.memento.state import EMPTY, FIGURES, State

WIN = 10_000.0
DEFAULT_STRENGTH = 3

_BEAMS: dict[int, tuple[int, ...]] = {
    # Actions kept at each level below the root; () is a one-action look-ahead.
    1: (),
    2: (),
    3: (12,),
    4: (24,),
    5: (8, 6),
}


def score(state: State, side: int) -> float:
    """How well `side` stands: material, middles held, and median points beside a held
    middle (a middle and its three medians win, ML-W1 (2))."""
    if state.out[side]:
        return -WIN
    owners, stones = state.owners, state.stones
    board = state.setup.board
    total = 0.0
    for p, owner in enumerate(owners):
        if owner == side:
            total += 1.0 + stones[p]
    middles = 0
    for t, tri in enumerate(board.triangles):
        if owners[tri[MIDDLE]] != side:
            continue
        middles += 1
        held = sum(1 for p in board.median_points(t) if owners[p] == side)
        total += 2.0 * held + 1.5 * held * held
    total += 3.0 * middles + 1.0 * middles * middles
    return total


def evaluate(state: State, side: int) -> float:
    """`side`'s standing against the strongest other player still in."""
    if state.outcome is not None:
        return WIN if state.outcome.winner == side else -WIN
    others = [score(state, o) for o in range(state.setup.side_count) if o != side]
    best_other = max((s for s in others if s > -WIN), default=0.0)
    return score(state, side) - best_other


@dataclass(frozen=True, slots=True)
class Hint:
    action: Action
    explanation: str


class Opponent:
    """Chooses actions for the player on turn."""

    def __init__(self, strength: int = DEFAULT_STRENGTH, seed: int = 0) -> None:
        if strength not in _BEAMS:
            raise ValueError(f"strength must be 1 to 5, got {strength}")
        self.strength = strength
        self.seed = seed

    def choose(self, state: State) -> Action:
        return self._search(state)[0]

    def _search(self, state: State) -> tuple[Action, float]:
        side = state.turn
        rng = random.Random(f"memento:opponent:{self.seed}:{state.actions}")
        children = _children(state, rng)
        if not children:
            raise ValueError("the game is over: there is nothing to choose")
        for action, after in children:
            if after.outcome is not None and after.outcome.winner == side:
                return action, WIN
        ranked = sorted(children, key=lambda c: -evaluate(c[1], side))
        if self.strength == 1:
            # A casual player: any of the few best-looking actions.
            action, after = rng.choice(ranked[:4])
            return action, evaluate(after, side)
        beams = _BEAMS[self.strength]
        if not beams:
            return ranked[0][0], evaluate(ranked[0][1], side)
        best_action, best_value = ranked[0][0], -2 * WIN
        for action, after in ranked[: beams[0]]:
            value = _value(after, side, beams[1:], rng)
            if value > best_value:
                best_action, best_value = action, value
        return best_action, best_value


def _children(state: State, rng: random.Random) -> list[tuple[Action, State]]:
    actions = legal_actions(state)
    rng.shuffle(actions)
    return [(a, perform(state, a)[0]) for a in actions]


def _value(state: State, me: int, beams: tuple[int, ...], rng: random.Random) -> float:
    """The value for `me` after the player on turn replies: they maximise their own
    standing unless it is `me` (paranoid search); at the last level, a static evaluation."""
    if state.outcome is not None:
        return evaluate(state, me)
    children = _children(state, rng)
    mover = state.turn
    if not beams:
        values = [evaluate(after, me) for _, after in children]
        return max(values) if mover == me else min(values)
    ranked = sorted(children, key=lambda c: -evaluate(c[1], mover))[: beams[0]]
    values = [_value(after, me, beams[1:], rng) for _, after in ranked]
    return max(values) if mover == me else min(values)


def hint(state: State, strength: int = DEFAULT_STRENGTH) -> Hint:
    """The action the opponent would take in the player's place, and why, in a sentence."""
    action, value = Opponent(strength)._search(state)
    return Hint(action, _explain(state, action, value))


def _explain(state: State, action: Action, value: float) -> str:
    names = state.setup.names
    board = state.setup.board
    after = perform(state, action)[0]
    if after.outcome is not None and after.outcome.winner == state.turn:
        return "This wins the game at once."
    if value <= -WIN:
        return "Every action loses against best play; this one holds out longest."
    if isinstance(action, A.Move):
        beaten = state.owners[action.target]
        if beaten != EMPTY:
            whose = "your own" if beaten == state.turn else f"{names[beaten]}'s"
            figure = FIGURES[state.stones[action.target]]
            return f"This beats {whose} {figure} on point {action.target}."
        if action.target in board.middles:
            t = board.middles.index(action.target)
            return f"This takes the {TRIANGLES[t]} triangle's middle, on the way to a win."
        if board.kinds[action.target] == "median":
            return "This adds a median point beside a middle, on the way to a triangle win."
        return "This moves a figure where it does the most good."
    if isinstance(action, A.BringIn):
        return "This brings in two new figures: more figures, more ways to act."
    if isinstance(action, A.Split):
        return "This splits a figure to spread over more points."
    if isinstance(action, A.Turn):
        return f"This turns the {TRIANGLES[action.triangle]} triangle to a better layout."
    if isinstance(action, A.Place):
        return "This opens on a strong point."
    return "There is nothing else to do."
