"""A simulated memento ludis player: any legal action at random, for demos and tests.

action = random_action(state, random.Random(7))
"""

from __future__ import annotations

import random

from companion.games.contract import Action
from companion.games.memento.legal import legal_actions
from companion.games.memento.state import State


def random_action(state: State, rng: random.Random) -> Action:
    """A legal action of the player on turn, each kind of action equally likely first (so
    the many ways to bring in or split do not crowd out moves and turns)."""
    actions = legal_actions(state)
    if not actions:
        raise ValueError("the game is over: nobody has an action to take")
    kinds = sorted({a.kind for a in actions})
    kind = rng.choice(kinds)
    return rng.choice([a for a in actions if a.kind == kind])
