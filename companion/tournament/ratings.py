"""Ratings: openskill's Plackett-Luce model, replayed from a division's results in order.

Ratings are never stored, only results; replaying them gives the same ratings every time
(like companion/study/schedule.py replays reviews), so nothing can drift. A game of N sides
is one match of N teams of one, ranked by the places it gave (`Outcome.places`: the
winners first, then by score, ties sharing a place). Byes do not count.

    ratings = replay(event.results("Open"))
    ratings["Ann"].mu, ratings["Ann"].sigma, ordinal(ratings["Ann"])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from companion.tournament.model import Outcome, Pairing

MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A cautious single number to rank by: mu less three sigmas."""
        return self.mu - 3 * self.sigma


NEW = Rating(MODEL.mu, MODEL.sigma)


def rate(
    ratings: Mapping[str, Rating], seats: Sequence[str], outcome: Outcome
) -> dict[str, Rating]:
    """The ratings after one game: `ratings` is not changed."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in (ratings.get(s, NEW) for s in seats)]
    rated = MODEL.rate(teams, ranks=[float(place) for place in outcome.places(len(seats))])
    after = dict(ratings)
    for name, (team,) in zip(seats, rated, strict=True):
        after[name] = Rating(team.mu, team.sigma)
    return after


def replay(games: Iterable[Pairing], players: Iterable[str] = ()) -> dict[str, Rating]:
    """Every player's rating after `games` (with a result, in the order they arrived);
    `players` who have not played start at openskill's defaults."""
    ratings: dict[str, Rating] = {name: NEW for name in players}
    for game in games:
        if game.result is not None and not game.is_bye:
            ratings = rate(ratings, game.seats, game.result.outcome)
    return ratings
