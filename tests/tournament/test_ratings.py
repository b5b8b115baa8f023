"""Ratings are replayed from the results: the same as updating them one result at a time,
and as openskill's own Plackett-Luce on each game."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from companion.tournament.model import Outcome
from companion.tournament.ratings import NEW, rate, replay
from tests.tournament.helpers import bye, game

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), games=st.integers(1, 25))
def test_replayed_ratings_equal_incremental_ones(seed: int, games: int) -> None:
    rng = random.Random(seed)
    played = []
    ratings = {name: NEW for name in NAMES}
    for _ in range(games):
        if rng.random() < 0.1:
            played.append(bye(rng.choice(NAMES)))
            continue
        seats = tuple(rng.sample(NAMES, rng.choice([2, 3, 4])))
        scores = tuple(float(rng.randint(0, 5)) for _ in seats)
        winners = tuple(i for i in range(len(seats)) if rng.random() < 0.3)
        played.append(game(seats, scores, winners))
        # As the hub would, were it to keep ratings: one result at a time.
        ratings = rate(ratings, seats, Outcome(scores, winners))
    assert replay(played, NAMES) == ratings
    assert replay(played, NAMES) == replay(list(played), NAMES)  # nothing kept between calls


def test_a_game_is_one_plackett_luce_match_of_teams_of_one() -> None:
    """Ann wins a pod of three; Cy (12) places before Bo (7)."""
    ratings = replay([game(("Ann", "Bo", "Cy"), (10, 7, 12), (0,))], ["Ann", "Bo", "Cy", "Di"])
    model = PlackettLuce()
    a, b, c = model.rating(), model.rating(), model.rating()
    [[a2], [b2], [c2]] = model.rate([[a], [b], [c]], ranks=[1, 3, 2])
    assert (ratings["Ann"].mu, ratings["Bo"].mu, ratings["Cy"].mu) == (a2.mu, b2.mu, c2.mu)
    assert ratings["Ann"].mu > ratings["Cy"].mu > ratings["Di"].mu == 25 > ratings["Bo"].mu
    assert ratings["Di"] == NEW
