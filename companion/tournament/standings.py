"""Standings: match points, then Buchholz, Sonneborn-Berger, game score total and name.

Every game is scored by the places it gave (`Outcome.places`): against each opponent at
the table a player scores 1 for finishing ahead, ½ for the same place, 0 behind, and the
game is worth the average of those over its opponents. In a 2-side game that is the usual
1, ½, 0; in a pod of four, the winner scores 1, the second ⅔, the third ⅓, the last 0. A
bye is worth a win (1).

- **Buchholz**: the sum over a player's games of their opponents' match points (for a pod,
  the average of its opponents' points). A bye adds nothing.
- **Sonneborn-Berger**: the sum over a player's games, over each opponent, of what the
  player scored against that opponent times that opponent's match points (divided by the
  number of opponents at the table). A bye adds nothing.
- **Game score total**: the sum of the player's final scores (0 for a game that keeps no
  score, and for a bye).
- **Name**: in alphabetical order (case-insensitive) when everything else is equal.

Exact fractions throughout, so that equal tie-breaks are equal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from companion.tournament.model import Outcome, Pairing

BYE_POINTS = Fraction(1)


@dataclass(frozen=True, slots=True)
class Standing:
    name: str
    points: Fraction
    buchholz: Fraction
    sonneborn_berger: Fraction
    score: float
    """The game score total."""
    played: int
    """Games with a result (byes not counted)."""
    byes: int

    def sort_key(self) -> tuple[Fraction, Fraction, Fraction, float, str, str]:
        return (
            -self.points,
            -self.buchholz,
            -self.sonneborn_berger,
            -self.score,
            self.name.casefold(),
            self.name,
        )


def head_to_head(places: Sequence[int], i: int, j: int) -> Fraction:
    """What seat i scored against seat j: 1 ahead, ½ level, 0 behind."""
    if places[i] < places[j]:
        return Fraction(1)
    return Fraction(1, 2) if places[i] == places[j] else Fraction(0)


def game_points(outcome: Outcome, sides: int) -> tuple[Fraction, ...]:
    """Each seat's match points for one game."""
    places = outcome.places(sides)
    return tuple(
        sum((head_to_head(places, i, j) for j in range(sides) if j != i), Fraction(0)) / (sides - 1)
        for i in range(sides)
    )


def match_points(players: Iterable[str], games: Iterable[Pairing]) -> dict[str, Fraction]:
    """Each player's match points from the games with a result, and the byes."""
    points = {name: Fraction(0) for name in players}
    for game in games:
        if game.is_bye:
            points[game.seats[0]] = points.get(game.seats[0], Fraction(0)) + BYE_POINTS
        elif game.result is not None:
            scored = game_points(game.result.outcome, len(game.seats))
            for name, got in zip(game.seats, scored, strict=True):
                points[name] = points.get(name, Fraction(0)) + got
    return points


def standings(players: Sequence[str], games: Sequence[Pairing]) -> list[Standing]:
    """The players of a division in standings order, from its pairings (games without a
    result yet count for nothing)."""
    points = match_points(players, games)
    buchholz = dict.fromkeys(points, Fraction(0))
    berger = dict.fromkeys(points, Fraction(0))
    score = dict.fromkeys(points, 0.0)
    played = dict.fromkeys(points, 0)
    byes = dict.fromkeys(points, 0)
    for game in games:
        if game.is_bye:
            byes[game.seats[0]] += 1
            continue
        if game.result is None:
            continue
        outcome = game.result.outcome
        sides = len(game.seats)
        places = outcome.places(sides)
        for i, name in enumerate(game.seats):
            opponents = [j for j in range(sides) if j != i]
            buchholz[name] += sum((points[game.seats[j]] for j in opponents), Fraction(0)) / len(
                opponents
            )
            berger[name] += sum(
                (head_to_head(places, i, j) * points[game.seats[j]] for j in opponents),
                Fraction(0),
            ) / len(opponents)
            if outcome.scores is not None:
                score[name] += outcome.scores[i]
            played[name] += 1
    rows = [
        Standing(
            name=name,
            points=points[name],
            buchholz=buchholz[name],
            sonneborn_berger=berger[name],
            score=score[name],
            played=played[name],
            byes=byes[name],
        )
        for name in points
    ]
    return sorted(rows, key=Standing.sort_key)


def as_number(value: Fraction) -> float:
    """A fraction for people and JSON: to three decimals (⅔ is 0.667)."""
    return round(float(value), 3)
