"""Standings and their tie-breaks, checked by hand."""

from __future__ import annotations

from fractions import Fraction as F

from companion.tournament.model import Outcome
from companion.tournament.standings import game_points, standings
from tests.tournament.helpers import bye, game


def test_points_then_buchholz_on_a_hand_checked_event() -> None:
    """Five players, two rounds:

    R1: A beats B 10-5; C and D draw 7-7; E has a bye.
    R2: E beats A 8-6; B beats C 9-3; D has a bye.

    Points: A 1 + 0 = 1; B 0 + 1 = 1; C ½ + 0 = ½; D ½ + 1 = 1½; E 1 + 1 = 2.
    Buchholz (opponents' points; a bye adds nothing): A: B 1 + E 2 = 3; B: A 1 + C ½ = 1½;
    C: D 1½ + B 1 = 2½; D: C ½ = ½; E: A 1 = 1.
    Sonneborn-Berger: A beat B (1) = 1; B beat C (½) = ½; C drew D (½ x 1½) = ¾;
    D drew C (½ x ½) = ¼; E beat A (1) = 1.
    Scores: A 16, B 14, C 10, D 7, E 8.
    Order: E (2), D (1½), A and B (1; Buchholz 3 before 1½), C (½).
    """
    games = [
        game(("A", "B"), (10, 5), (0,)),
        game(("C", "D"), (7, 7), ()),
        bye("E"),
        game(("A", "E"), (6, 8), (1,), 2),
        game(("B", "C"), (9, 3), (0,), 2),
        bye("D", 2),
    ]
    rows = standings(["A", "B", "C", "D", "E"], games)
    assert [r.name for r in rows] == ["E", "D", "A", "B", "C"]
    table = {r.name: (r.points, r.buchholz, r.sonneborn_berger, r.score) for r in rows}
    assert table == {
        "A": (F(1), F(3), F(1), 16.0),
        "B": (F(1), F(3, 2), F(1, 2), 14.0),
        "C": (F(1, 2), F(5, 2), F(3, 4), 10.0),
        "D": (F(3, 2), F(1, 2), F(1, 4), 7.0),
        "E": (F(2), F(1), F(1), 8.0),
    }
    assert {r.name: (r.played, r.byes) for r in rows}["D"] == (1, 1)


def test_sonneborn_berger_after_equal_buchholz() -> None:
    """R1: P beats Q; R and S draw. R2: P and R draw; Q beats S.

    Points: P 1½, Q 1, R 1, S ½. Buchholz: Q: P 1½ + S ½ = 2; R: S ½ + P 1½ = 2.
    Sonneborn-Berger: Q lost to P (0), beat S (½) = ½; R drew S (½ x ½ = ¼) and P
    (½ x 1½ = ¾) = 1. So R before Q.
    """
    games = [
        game(("P", "Q"), (5, 1), (0,)),
        game(("R", "S"), (3, 3), ()),
        game(("P", "R"), (2, 2), (), 2),
        game(("Q", "S"), (4, 0), (0,), 2),
    ]
    rows = standings(["P", "Q", "R", "S"], games)
    assert [r.name for r in rows] == ["P", "R", "Q", "S"]
    assert [r.buchholz for r in rows[1:3]] == [F(2), F(2)]
    assert [r.sonneborn_berger for r in rows[1:3]] == [F(1), F(1, 2)]


def test_game_score_total_then_name() -> None:
    """One round: A beats B 10-0 and C beats D 5-4: A and C have 1 point, Buchholz 0 and
    Sonneborn-Berger 0 each, so A's 10 puts A before C's 5; D's 4 puts D before B's 0.
    Then W and X win with the same score as their opponents (5-5, the winner said so),
    as do Y and Z against theirs: all level, so by name."""
    games = [game(("A", "B"), (10, 0), (0,)), game(("C", "D"), (5, 4), (0,))]
    assert [r.name for r in standings(["A", "B", "C", "D"], games)] == ["A", "C", "D", "B"]
    games = [game(("x", "w1"), (5, 5), (0,)), game(("W", "w2"), (5, 5), (0,))]
    assert [r.name for r in standings(["x", "w1", "W", "w2"], games)][:2] == ["W", "x"]


def test_a_pod_of_four_scores_by_places() -> None:
    """The winner scores 1 whatever the scores; the others place by score: 20 is ahead of
    two and behind one (⅔); the two 10s share third: each is behind two and level with one,
    (0 + 0 + ½) / 3 = ⅙."""
    points = game_points(Outcome((15, 20, 10, 10), (0,)), 4)
    assert points == (F(1), F(2, 3), F(1, 6), F(1, 6))
    assert game_points(Outcome((4, 3, 2, 1), (0,)), 4) == (F(1), F(2, 3), F(1, 3), F(0))
    # The board winning a MemWars game makes no player a winner: scores decide.
    assert game_points(Outcome((3, 9), ()), 2) == (F(0), F(1))
    # A game that keeps no score: the winner first, the others level, each behind one and
    # level with one: (0 + ½) / 2 = ¼.
    assert game_points(Outcome(None, (2,)), 3) == (F(1, 4), F(1, 4), F(1))
