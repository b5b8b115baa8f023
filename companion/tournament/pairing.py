"""Who plays whom: Swiss and round robin for 2-side games, Swiss pods for 3 or more sides.

Pure: every function takes the players and what they have played, and returns a round's
tables in seating order (the top table first) and its byes. The rules, exactly, are in
docs/tournament.md; in short:

- **Swiss** (2 sides). Players in standings order. With an odd number, the bye goes to the
  lowest-ranked of the players with the fewest byes (none, until everyone has had one)
  whose leaving lets the others be paired without a rematch; if no such choice exists, to
  the lowest-ranked of them. The others are paired from the top: the
  highest unpaired player meets, of those they have not met, the one nearest in points;
  within their score group, the one at their own position in the other half of the group
  (1 v 5, 2 v 6... in a group of 8); then one due the other seat. The search backtracks,
  so there is no rematch while some pairing avoids one (it gives up after
  `SEARCH_STEPS` steps and then allows rematches, fewest first: only events with far more
  rounds than their players can bear get there).
- **Round robin** (2 sides): the circle method on the players in the order they were
  added (the first stays put, the others turn one place a round); with an odd number, the
  one paired with the empty slot has a bye. Seats: the first player's table alternates by
  round, the others alternate by table, so nobody's first and second seats differ by more
  than two over the whole round robin. A withdrawn player keeps their place in the circle,
  empty: whoever meets it has a bye, as against the empty slot of an odd number.
- **Swiss pods** (3 or more sides): tables of the division's size, and when the players do
  not divide into them, tables one smaller (at the bottom), never below 3; whoever is left
  has a bye (lowest-ranked first, those without one before those with one). Each table is
  filled from the top: the highest unplaced player, then, one at a time, whoever has met
  the fewest of those already at the table, then the nearest in points, then the highest.
- **Seats**: at each table, whoever has sat nearer the front more often than the back sits
  further back: seats are ordered by "front excess" (for each game, ½ less the seat's
  position from 0 at the front to 1 at the back, summed), lowest first; then by the
  position of their last seat, furthest back first; then by rank.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

SEARCH_STEPS = 200_000
"""The rematch-free search's budget, in candidate partners tried."""


@dataclass(frozen=True, slots=True)
class History:
    """What pairing needs to know of the games played so far (results or not)."""

    met: frozenset[frozenset[str]] = frozenset()
    """Every two players who have sat at the same table."""
    byes: Mapping[str, int] = field(default_factory=dict)
    seats: Mapping[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)
    """Each player's seats so far, in order: (seat, players at the table)."""

    @classmethod
    def of(cls, tables: Sequence[Sequence[str]]) -> History:
        """From every round's tables in order; a table of one is a bye."""
        met: set[frozenset[str]] = set()
        byes: Counter[str] = Counter()
        seats: dict[str, list[tuple[int, int]]] = {}
        for table in tables:
            if len(table) == 1:
                byes[table[0]] += 1
                continue
            met.update(frozenset(pair) for pair in combinations(table, 2))
            for seat, name in enumerate(table):
                seats.setdefault(name, []).append((seat, len(table)))
        return cls(frozenset(met), dict(byes), {k: tuple(v) for k, v in seats.items()})

    def have_met(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.met

    def front_excess(self, name: str) -> Fraction:
        """How much more often than not `name` has sat towards the front (0: balanced)."""
        return sum(
            (Fraction(1, 2) - Fraction(seat, size - 1) for seat, size in self.seats.get(name, ())),
            Fraction(0),
        )

    def last_position(self, name: str) -> Fraction:
        """Where `name` last sat, 0 at the front to 1 at the back; ½ before a first game."""
        past = self.seats.get(name, ())
        if not past:
            return Fraction(1, 2)
        seat, size = past[-1]
        return Fraction(seat, size - 1)


@dataclass(frozen=True, slots=True)
class RoundPlan:
    tables: tuple[tuple[str, ...], ...]
    """Each table's players in seating order, the top table first."""
    byes: tuple[str, ...] = ()


class _OutOfSteps(Exception):
    pass


def seat(players: Sequence[str], rank: Mapping[str, int], history: History) -> tuple[str, ...]:
    """A table's seating order (see the module's rules)."""
    return tuple(
        sorted(
            players,
            key=lambda p: (history.front_excess(p), -history.last_position(p), rank[p]),
        )
    )


def _score_groups(ranked: Sequence[str], points: Mapping[str, Fraction]) -> dict[str, int]:
    """Each player's position within their score group, and the group's size, by name."""
    position: dict[str, int] = {}
    seen: Counter[Fraction] = Counter()
    for name in ranked:
        position[name] = seen[points[name]]
        seen[points[name]] += 1
    return position


def _match(
    players: Sequence[str],
    allowed: Callable[[str, str], bool],
    preference: Callable[[str, str], tuple[object, ...]],
    budget: list[int],
) -> list[tuple[str, str]] | None:
    """Pairs `players` (an even number, highest first) with allowed pairs only, the highest
    unpaired player first, their candidates in order of preference; None if impossible."""
    if not players:
        return []
    first, rest = players[0], players[1:]
    candidates = sorted((c for c in rest if allowed(first, c)), key=lambda c: preference(first, c))
    for candidate in candidates:
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfSteps
        remaining = [p for p in rest if p != candidate]
        # A player with nobody left to meet dooms this branch: seen at once, not after
        # trying every way of pairing the others.
        if any(not any(allowed(p, q) for q in remaining if q != p) for p in remaining):
            continue
        found = _match(remaining, allowed, preference, budget)
        if found is not None:
            return [(first, candidate), *found]
    return None


def swiss(ranked: Sequence[str], points: Mapping[str, Fraction], history: History) -> RoundPlan:
    """A Swiss round of 2-side games: `ranked` in standings order."""
    rank = {name: i for i, name in enumerate(ranked)}

    def pair_all(players: Sequence[str], rematches: bool) -> list[tuple[str, str]] | None:
        groups = _score_groups(players, points)
        size = Counter(points[p] for p in players)

        def preference(p: str, c: str) -> tuple[object, ...]:
            same = points[p] == points[c]
            half = groups[p] + size[points[p]] // 2
            where = abs(groups[c] - half) if same else groups[c]
            due_same_seat = (history.front_excess(p) > 0) == (history.front_excess(c) > 0) and (
                history.front_excess(p) != 0
            )
            return (
                history.have_met(p, c),
                abs(points[p] - points[c]),
                where,
                due_same_seat,
                rank[c],
            )

        def allowed(a: str, b: str) -> bool:
            return rematches or not history.have_met(a, b)

        try:
            return _match(list(players), allowed, preference, [SEARCH_STEPS])
        except _OutOfSteps:
            return None

    byes: tuple[str, ...] = ()
    pairs: list[tuple[str, str]] | None = None
    if len(ranked) % 2:
        # The lowest-ranked player without a bye, unless the others then cannot avoid a
        # rematch while another choice can.
        order = bye_order(ranked, history)
        fewest = history.byes.get(order[0], 0)
        for candidate in (p for p in order if history.byes.get(p, 0) == fewest):
            pairs = pair_all([p for p in ranked if p != candidate], rematches=False)
            if pairs is not None:
                byes = (candidate,)
                break
        else:
            byes = (order[0],)
            pairs = pair_all([p for p in ranked if p not in byes], rematches=True)
    else:
        pairs = pair_all(ranked, rematches=False) or pair_all(ranked, rematches=True)
    assert pairs is not None  # with rematches allowed any even number pairs
    tables = sorted(
        (seat(pair, rank, history) for pair in pairs), key=lambda t: min(rank[p] for p in t)
    )
    return RoundPlan(tuple(tables), byes)


def bye_order(ranked: Sequence[str], history: History) -> list[str]:
    """Who gets a bye first: fewest byes so far, then the lowest-ranked."""
    bottom_up = list(reversed(ranked))
    return sorted(bottom_up, key=lambda p: history.byes.get(p, 0))


def round_robin(
    players: Sequence[str], round_number: int, absent: Collection[str] = ()
) -> RoundPlan:
    """Round `round_number` (from 1) of a round robin by the circle method: the first player
    stays put and the others turn one place each round. `absent` players (withdrawn) keep
    their place in the circle, as empty slots: whoever meets one has a bye."""
    slots: list[str | None] = [*players, None] if len(players) % 2 else list(players)
    n = len(slots)
    if not 1 <= round_number <= n - 1:
        raise ValueError(f"a round robin of {len(players)} has rounds 1 to {n - 1}")
    turn = (round_number - 1) % (n - 1)
    others = slots[1:]
    circle = [slots[0], *others[len(others) - turn :], *others[: len(others) - turn]]
    tables: list[tuple[str, ...]] = []
    byes: list[str] = []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        a, b = (None if a in absent else a), (None if b in absent else b)
        if a is None or b is None:
            byes.extend(p for p in (a, b) if p is not None)
            continue
        # The fixed player's seat alternates by round; on the other tables the player
        # coming round the circle sits first on every other table. Over the whole round
        # robin nobody sits first more than two games more than second, or the other way.
        swap = (round_number % 2 == 0) if i == 0 else (i % 2 == 1)
        tables.append((b, a) if swap else (a, b))
    return RoundPlan(tuple(tables), tuple(byes))


def round_robin_rounds(players: int) -> int:
    return players - 1 if players % 2 == 0 else players


def pod_sizes(players: int, size: int) -> tuple[list[int], int]:
    """The tables' sizes for `players` at tables of `size` (or one smaller, never below 3),
    largest first, and how many byes: fewest byes, then fewest smaller tables."""
    smaller = size - 1 if size - 1 >= 3 else None
    for byes in range(players + 1):
        seated = players - byes
        for small in range(0, (seated // smaller if smaller else 0) + 1):
            rest = seated - small * (smaller or 0)
            if rest >= 0 and rest % size == 0:
                return [size] * (rest // size) + [smaller or size] * small, byes
    return [], players


def pods(
    ranked: Sequence[str], points: Mapping[str, Fraction], history: History, size: int
) -> RoundPlan:
    """A Swiss round of tables of `size` (3 or more)."""
    rank = {name: i for i, name in enumerate(ranked)}
    sizes, bye_count = pod_sizes(len(ranked), size)
    byes = tuple(bye_order(ranked, history)[:bye_count])
    unplaced = [p for p in ranked if p not in byes]
    tables: list[tuple[str, ...]] = []
    for table_size in sizes:
        table = [unplaced.pop(0)]
        while len(table) < table_size:
            top = points[table[0]]

            def key(c: str, table: list[str] = table, top: Fraction = top) -> tuple[object, ...]:
                met = sum(history.have_met(c, p) for p in table)
                return (met, abs(points[c] - top), rank[c])

            chosen = min(unplaced, key=key)
            unplaced.remove(chosen)
            table.append(chosen)
        tables.append(seat(table, rank, history))
    return RoundPlan(tuple(tables), byes)
