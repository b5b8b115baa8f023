"""A simulated MeM player: any legal action at random, for demos and tests.

action = random_action(state, random.Random(7))
"""

from __future__ import annotations

import random

from companion.games.contract import Action
from companion.games.mem import actions as A
from companion.games.mem.engine import expected
from companion.games.mem.legal import (
    blocking_matches,
    follow_up_exists,
    geo_of,
    legal_captures,
    legal_moves,
)
from companion.games.mem.state import State

TIMEOUT_CHANCE = 0.005
"""In a game with a clock, how often a random player lets its time run out."""


def random_action(state: State, rng: random.Random) -> Action:
    """A legal action chosen at random among those expected (blocks half the time; in a
    game with a clock, now and then its time runs out)."""
    expectation = expected(state)
    if expectation is None:
        raise ValueError("the game is over: nobody has an action to take")
    actor, options = expectation.actor, expectation.actions
    if "time_expired" in options:
        if rng.random() < TIMEOUT_CHANCE:
            return A.TimeExpired(actor)
        options = tuple(o for o in options if o != "time_expired")
    geo = geo_of(state)
    if "block" in options:
        assert state.pending is not None
        found = blocking_matches(state, actor, state.pending.square)
        if found and rng.random() < 0.5:
            m = rng.choice(found)
            r, c = geo.cell[state.pending.square]
            row, col = r - m.t[0], c - m.t[1]
            if actor == 1 and state.setup.rules.orientation_frame == "OWNER":
                row, col = -row, -col
            return A.Block(actor, row, col)
        return A.Allow(actor)
    if "capture" in options and (rng.random() < 0.6 or options == ("capture",)):
        group = rng.choice(legal_captures(state, actor))
        return A.Capture(actor, geo.squares(group)[0])
    if "move" in options:
        choices = [
            m
            for m in legal_moves(state, actor)
            if m[0] not in state.barred and (state.pledged is None or m[0] == state.pledged)
        ]
        if (
            state.setup.game.value == "mini"
            and state.moves_made == 0
            and state.setup.rules.pair_selection == "PAIR"
        ):
            choices = [m for m in choices if follow_up_exists(state, actor, *m)]
        if "ask" in options and state.pledged is None and rng.random() < 0.15:
            return A.Ask(actor, rng.choice(choices)[0])
        square, (row, col) = rng.choice(choices)
        if actor == 1 and state.setup.rules.orientation_frame == "OWNER":
            row, col = -row, -col
        return A.Move(actor, square, row, col)
    if "end_turn" in options:
        return A.EndTurn(actor)
    return A.Pass(actor)
