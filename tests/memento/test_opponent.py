"""The companion opponent: legal, reproducible, better than chance, and never misses an
immediate win."""

from __future__ import annotations

import random

import pytest

from companion.games.memento import actions as A
from companion.games.memento.legal import legal_actions
from companion.games.memento.opponent import Opponent, hint

from .helpers import ENGINE, position, random_action, setup


def _game(seed: int, me: int, strength: int = 3) -> int | None:
    """Opponent as player `me` against the random player; the winner, or None."""
    state = ENGINE.new_game({**setup(2, first=seed % 2), "seed": seed})
    rng = random.Random(seed)
    opponent = Opponent(strength, seed)
    for _ in range(120):
        if ENGINE.is_over(state):
            break
        if state.turn == me:
            action = opponent.choose(state)
            assert action in legal_actions(state)
        else:
            action = random_action(state, rng)
        state, _ = ENGINE.apply(state, action)
    return state.outcome.winner if state.outcome else None


def test_the_opponent_beats_the_random_player_most_of_the_time() -> None:
    wins = sum(_game(seed, seed % 2) == seed % 2 for seed in range(6))
    assert wins >= 5


@pytest.mark.parametrize("strength", [1, 2, 4])
def test_every_strength_plays_legal_actions(strength: int) -> None:
    _game(11, 0, strength)


def test_the_opponent_is_reproducible() -> None:
    state = position({3: (0, 2), 6: (1, 1), 20: (1, 2), 10: (0, 1)})
    assert Opponent(seed=4).choose(state) == Opponent(seed=4).choose(state)


def test_the_opponent_takes_an_immediate_win() -> None:
    # Bringing in on 4 and 5 completes the top triangle; Bo threatens elsewhere.
    state = position({6: (0, 1), 3: (0, 1), 13: (1, 3), 10: (1, 1), 11: (1, 1)})
    action = Opponent(seed=1).choose(state)
    after, _ = ENGINE.apply(state, action)
    assert after.outcome is not None and after.outcome.winner == 0
    advice = hint(state)
    assert advice.explanation == "This wins the game at once."
    assert isinstance(advice.action, A.BringIn)


def test_a_hint_explains_itself() -> None:
    state = position({3: (0, 1), 6: (1, 2), 20: (1, 1)})
    advice = hint(state)
    assert advice.action in legal_actions(state)
    assert advice.explanation.endswith(".")


def test_strength_is_checked() -> None:
    with pytest.raises(ValueError):
        Opponent(strength=9)
