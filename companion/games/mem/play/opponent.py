"""The companion as a MeM opponent: the solver's search (companion/games/mem/solver.py) at
three strengths. It answers every decision the rules give its side: its moves, captures and
the end of its turn, and a block or allow when the other player's move is held for it.

    action = companion_action(state, STRENGTHS["medium"], random.Random(7))

Budgets count search nodes, never seconds, so a move does not depend on the machine; Easy
draws among the moves nearly as good as the best with the random source it is given (the
game's seed and position, so a replayed game gets the same moves).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.games.contract import Action
from companion.games.mem.solver import ranked_actions
from companion.games.mem.state import State


@dataclass(frozen=True, slots=True)
class Strength:
    name: str
    """As the New game screen and the game's title say it."""
    depth: int
    """Engine decisions searched ahead (a move, a capture, a block or allow is one)."""
    budget: int
    """Search nodes, at most."""
    slack: float
    """Draw at random among the actions within this many stones of the best; 0 plays the
    best (the first of equals)."""


STRENGTHS: dict[str, Strength] = {
    "easy": Strength("easy", depth=1, budget=200, slack=1.5),
    "medium": Strength("medium", depth=3, budget=600, slack=0.0),
    "hard": Strength("hard", depth=3, budget=2000, slack=0.0),
}
"""By name, weakest first. Easy looks one decision ahead and plays loosely; Medium searches
as a hint does (companion/games/mem/play/game.py HINT_BUDGET); Hard searches as
`companion mem hint` does by default, about three times as long as a hint."""
DEFAULT_STRENGTH = "medium"


def companion_action(state: State, strength: Strength, rng: random.Random) -> Action | None:
    """The companion's choice for the decision the rules wait on, or None when the game is
    over (or the search finds nothing to do)."""
    ranked = ranked_actions(state, depth=strength.depth, budget=strength.budget)
    if not ranked:
        return None
    best = max(value for _, value in ranked)
    if strength.slack <= 0:
        return next(action for action, value in ranked if value == best)
    good = [action for action, value in ranked if value >= best - strength.slack]
    return rng.choice(good)
