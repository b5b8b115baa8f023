"""Pairing properties, over random events: everyone plays once a round, no rematch while
one can be avoided, byes go to different players, a round robin meets everyone once."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.tournament.pairing import (
    History,
    RoundPlan,
    pod_sizes,
    pods,
    round_robin,
    round_robin_rounds,
    swiss,
)

NAMES = [f"P{i:02d}" for i in range(40)]


def perfect_matchings(players: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for more in perfect_matchings([*rest[:i], *rest[i + 1 :]]):
            yield [(first, other), *more]


def rematch_free_exists(players: Sequence[str], history: History) -> bool:
    """Brute force: some choice of bye (among those the rules allow) and some pairing of the
    rest has no rematch."""
    fewest = min((history.byes.get(p, 0) for p in players), default=0)
    byes: list[str | None] = (
        [p for p in players if history.byes.get(p, 0) == fewest] if len(players) % 2 else [None]
    )
    for bye in byes:
        rest = [p for p in players if p != bye]
        for matching in perfect_matchings(rest):
            if not any(history.have_met(a, b) for a, b in matching):
                return True
    return False


def everyone_once(plan: RoundPlan, players: Sequence[str]) -> None:
    seated = [p for table in plan.tables for p in table] + list(plan.byes)
    assert sorted(seated) == sorted(players)


def fair_byes(byes: Sequence[str], names: Sequence[str], before: Sequence[str]) -> None:
    """Byes go to different players: nobody has one more while someone with fewer goes
    without."""
    had = Counter(before)
    if byes:
        assert max(had[b] for b in byes) <= min(
            (had[n] for n in names if n not in byes), default=10**6
        )


def points_after(tables: list[tuple[str, ...]], rng: random.Random) -> dict[str, Fraction]:
    """Random results: a win, a loss or a draw per 2-side table; a bye is a win."""
    points: Counter[str] = Counter()
    for table in tables:
        if len(table) == 1:
            points[table[0]] += 2
            continue
        order = list(table)
        rng.shuffle(order)
        for place, name in enumerate(order):
            points[name] += 2 * (len(order) - 1 - place) // (len(order) - 1)
    return {name: Fraction(value, 2) for name, value in points.items()}


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=11),
    rounds=st.integers(min_value=1, max_value=7),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_swiss_pairs_everyone_once_without_avoidable_rematches(
    players: int, rounds: int, seed: int
) -> None:
    names = NAMES[:players]
    rng = random.Random(seed)
    played: list[tuple[str, ...]] = []
    byes_given: list[str] = []
    for _ in range(rounds):
        history = History.of(played)
        points = points_after(played, rng)
        points = {n: points.get(n, Fraction(0)) for n in names}
        ranked = sorted(names, key=lambda n: (-points[n], n))
        plan = swiss(ranked, points, history)
        everyone_once(plan, names)
        assert all(len(table) == 2 for table in plan.tables)
        assert len(plan.byes) == players % 2
        rematches = [t for t in plan.tables if history.have_met(*t)]
        if rematches:
            assert not rematch_free_exists(names, history), (plan, played)
        fair_byes(plan.byes, names, byes_given)
        byes_given += plan.byes
        played += [*plan.tables, *((b,) for b in plan.byes)]


@settings(max_examples=30, deadline=None)
@given(players=st.integers(min_value=2, max_value=14))
def test_a_round_robin_meets_everyone_once(players: int) -> None:
    names = NAMES[:players]
    met: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    first_seats: Counter[str] = Counter()
    games: Counter[str] = Counter()
    for number in range(1, round_robin_rounds(players) + 1):
        plan = round_robin(names, number)
        everyone_once(plan, names)
        for a, b in plan.tables:
            met[frozenset((a, b))] += 1
            first_seats[a] += 1
            games.update((a, b))
        byes.update(plan.byes)
    assert set(met) == {frozenset(pair) for pair in combinations(names, 2)}
    assert set(met.values()) == {1}
    assert byes == (Counter(names) if players % 2 else Counter())
    # The seats are shared out: first and second differ by two games at most.
    assert all(abs(2 * first_seats[n] - games[n]) <= 2 for n in names)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=3, max_value=17),
    size=st.sampled_from([3, 4]),
    rounds=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_swiss_pods_seat_everyone_once_at_tables_that_fit(
    players: int, size: int, rounds: int, seed: int
) -> None:
    names = NAMES[:players]
    rng = random.Random(seed)
    played: list[tuple[str, ...]] = []
    byes_given: list[str] = []
    sizes, bye_count = pod_sizes(players, size)
    for _ in range(rounds):
        history = History.of(played)
        points = points_after(played, rng)
        points = {n: points.get(n, Fraction(0)) for n in names}
        ranked = sorted(names, key=lambda n: (-points[n], n))
        plan = pods(ranked, points, history, size)
        everyone_once(plan, names)
        assert sorted((len(t) for t in plan.tables), reverse=True) == sizes
        assert all(len(t) in (size, size - 1) and len(t) >= 3 for t in plan.tables)
        assert len(plan.byes) == bye_count
        fair_byes(plan.byes, names, byes_given)
        byes_given += plan.byes
        played += [*plan.tables, *((b,) for b in plan.byes)]


def test_pod_sizes_prefer_full_tables_and_no_byes() -> None:
    assert pod_sizes(8, 4) == ([4, 4], 0)
    assert pod_sizes(10, 4) == ([4, 3, 3], 0)
    assert pod_sizes(11, 4) == ([4, 4, 3], 0)
    assert pod_sizes(5, 4) == ([4], 1)
    assert pod_sizes(7, 3) == ([3, 3], 1)


def test_the_first_swiss_round_is_top_half_against_bottom_half() -> None:
    names = NAMES[:8]
    plan = swiss(names, dict.fromkeys(names, Fraction(0)), History())
    assert plan.tables == (("P00", "P04"), ("P01", "P05"), ("P02", "P06"), ("P03", "P07"))


def test_seats_alternate_for_a_player_who_sat_first() -> None:
    history = History.of([("A", "B")])
    plan = swiss(["A", "C"], {"A": Fraction(1), "C": Fraction(1)}, history)
    assert plan.tables == (("C", "A"),)
