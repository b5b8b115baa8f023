"""A simulated MnemoGame player, for demos and tests: any listed legal action at random,
each kind of action equally likely first, with now and then a guess of a whole word. It
plays from public knowledge alone: the letters it guesses are drawn by how many of each
the box still holds unseen, never from the hidden chips.

    action = random_action(state, random.Random(7))
"""

from __future__ import annotations

import random

from companion.games.contract import Action
from companion.games.mnemo import actions as A
from companion.games.mnemo.engine import accepted, actor, targets
from companion.games.mnemo.legal import legal_actions
from companion.games.mnemo.letters import SUPPLY
from companion.games.mnemo.state import State


def unseen(state: State) -> dict[str, int]:
    """Each letter's chips not yet seen face up at the table."""
    left = dict(SUPPLY)
    for row, ups in zip(state.chips, state.up, strict=True):
        for chip, up in zip(row, ups, strict=True):
            if up and chip.shows in left:
                left[chip.shows] = max(0, left[chip.shows] - 1)
    return left


def random_action(state: State, rng: random.Random) -> Action:
    actions = legal_actions(state)
    if not actions:
        raise ValueError("the game is over: nobody has an action to take")
    kinds = sorted({a.kind for a in actions})
    who = actor(state)
    unknown = [o for o in targets(state, who) if not state.word_guessed[o]]
    if "guess_word" in accepted(state) and unknown and rng.random() < 0.05:
        owner = rng.choice(unknown)
        return A.GuessWord(who, owner, public_word(state, owner, rng))
    kind = rng.choice(kinds)
    chosen = [a for a in actions if a.kind == kind]
    if kind != "guess":
        return rng.choice(chosen)
    weights = unseen(state)
    return rng.choices(chosen, [1 + weights.get(a.guess, 0) for a in chosen])[0]  # type: ignore[attr-defined]


def public_word(state: State, owner: int, rng: random.Random) -> str:
    """A guess at a word from what is face up: exposed letters kept, the rest made up."""
    letters = list(SUPPLY)
    out = []
    for chip, up in zip(state.chips[owner], state.up[owner], strict=True):
        if up:
            if chip.kind != "aha":
                out.append(chip.shows)
        else:
            out.append(rng.choice(letters))
    return "".join(out) or "A"
