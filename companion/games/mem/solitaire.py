"""The longest MEM-Solitaire pattern from a position, by branch and bound over regions.

Why regions and not move sequences: a pattern of K stones that ends matching group G (at
translation t) was built from K stones taken off the board outside G, and two pattern
stones share a colour exactly when their squares in G do. Conversely, given a connected
region G of the board and, for each colour class of G, a distinct stone colour with that
many stones outside G, the pattern can be built square by square in any connected order:
every prefix matches the same squares of G, which are never taken. So

    longest pattern = the largest connected G that is *feasible*, where G is feasible when
    its colour classes (sizes m_1 >= m_2 >= ...) can be given distinct colours whose stones
    outside G number a_1 >= a_2 >= ... with m_i <= a_i (greedy on sorted lists is exact:
    a class can use any colour with enough stones, a nested family of choices).

A started pattern fixes its group's colours (pattern colour X stands for board colour Y)
and G must contain one of its matched groups; the same test applies with those classes
tied to their colours. Feasibility only gets harder as G grows, so an infeasible region
is never extended. Regions are enumerated once each (Redelmeier's method: every connected
set grown from its root through an "untried" frontier), bounded by the squares still
reachable and by the box (a K-stone pattern needs K stones left: 2K - n <= stones + n).

The search counts nodes, not seconds, so a budgeted answer is the same on any machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.mem.board import Geometry
from companion.games.mem.patterns import Cell, Position, Shape, component, matches

MoveChoice = tuple[int, tuple[int, int]]


@dataclass(frozen=True, slots=True)
class SolitaireResult:
    best: int
    """The longest pattern found (stones in it at the end)."""
    moves: tuple[MoveChoice, ...]
    """From the given position to that pattern: (square taken, cell in the board's frame)."""
    proved: bool
    """The search ran to the end: `best` is the optimum."""
    bound: int
    """No pattern can be longer than this (equal to `best` once proved)."""
    nodes: int
    win: bool
    """A pattern of 16 matching the 16 stones left (MEM-R4) was found."""


class _Budget(Exception):
    pass


@dataclass(slots=True)
class _Search:
    pos: Position
    geo: Geometry
    base_size: int
    budget: int
    counts: list[int]
    """Stones of each colour on the board."""
    nodes: int = 0
    best: int = 0
    best_region: int = 0
    best_plan: tuple[tuple[int, int], ...] = ()
    """(board colour, stone colour) pairs of the best region."""
    best_match: int = -1
    cap: int = 16

    def colour_counts(self, region: int) -> list[int]:
        by_colour = self.pos.by_colour
        return [(by_colour[c] & region).bit_count() for c in range(12)]

    def plan(
        self, region: int, fixed: dict[int, int], base_counts: list[int]
    ) -> tuple[tuple[int, int], ...] | None:
        """The colour each class of `region` is copied with, or None if it cannot be.

        `fixed` maps board colours already represented to their pattern colour;
        `base_counts` the stones of each colour in the matched group already copied.
        """
        inside = self.colour_counts(region)
        avail = [self.counts[c] - inside[c] for c in range(12)]
        out: list[tuple[int, int]] = []
        used = set(fixed.values())
        for board_colour, pattern_colour in fixed.items():
            if inside[board_colour] - base_counts[board_colour] > avail[pattern_colour]:
                return None
            out.append((board_colour, pattern_colour))
        free = sorted(
            ((inside[b], b) for b in range(1, 12) if inside[b] and b not in fixed), reverse=True
        )
        supply = sorted(((avail[c], c) for c in range(1, 12) if c not in used), reverse=True)
        if len(free) > len(supply):
            return None
        for (need, b), (have, c) in zip(free, supply, strict=False):
            if need > have:
                return None
            out.append((b, c))
        return tuple(out)

    def tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _Budget

    def grow(
        self,
        region: int,
        untried: int,
        seen: int,
        fixed: dict[int, int],
        base_counts: list[int],
        match_index: int,
    ) -> None:
        """Every feasible connected superset of `region` reachable through `untried`."""
        self.tick()
        size = region.bit_count()
        if size > self.best:
            plan = self.plan(region, fixed, base_counts)
            assert plan is not None
            self.best, self.best_region, self.best_plan = size, region, plan
            self.best_match = match_index
            if size >= self.cap:
                return
        occupied = self.pos.occupied
        reach = component(untried, (occupied & ~seen) | untried, self.geo)
        if size + min(reach.bit_count(), self.cap) <= self.best:
            return
        rest = untried
        while rest:
            v = rest & -rest
            rest ^= v
            grown = region | v
            if self.plan(grown, fixed, base_counts) is None:
                continue
            new = self.geo.neighbours(v) & occupied & ~seen
            self.grow(grown, rest | new, seen | new, fixed, base_counts, match_index)
            if self.best >= self.cap:
                return


def solve_solitaire(
    board: Sequence[int],
    geo: Geometry,
    pattern: tuple[Cell, ...] = (),
    committed: tuple[tuple[int, int], ...] = (),
    budget: int = 200_000,
) -> SolitaireResult:
    """The longest pattern MEM-Solitaire can reach from this position, with the moves."""
    pos = Position.of(board, geo)
    stones = pos.occupied.bit_count()
    n = len(pattern)
    counts = [(pos.by_colour[c]).bit_count() for c in range(12)]
    search = _Search(pos, geo, n, budget, counts, cap=(stones + n) // 2)
    search.best = n
    shape = Shape.of(pattern)
    found = matches(shape, pos, None, committed) if pattern else []
    proved = True
    try:
        if not pattern:
            search.best = 0
            seen_roots = 0
            for square in range(len(board)):
                root = geo.bit[square]
                if not pos.occupied & root:
                    continue
                seen_roots |= root
                near = geo.neighbours(root) & pos.occupied & ~seen_roots
                # A root's region never holds an earlier root: each region counted once.
                search.grow(root, near, seen_roots | near, {}, [0] * 12, -1)
                if search.best >= search.cap:
                    break
        else:
            for index, m in enumerate(found):
                fixed = {b: p for p, b in m.represents}
                base_counts = search.colour_counts(m.group)
                near = geo.neighbours(m.group) & pos.occupied & ~m.group
                search.grow(m.group, near, m.group | near, fixed, base_counts, index)
                if search.best >= search.cap:
                    break
    except _Budget:
        proved = search.best >= search.cap
    moves: tuple[MoveChoice, ...] = ()
    if search.best_region:
        base = found[search.best_match] if search.best_match >= 0 else None
        moves = _moves(search, pattern, base.t if base else None, base.group if base else 0)
    best = max(search.best, n)
    bound = best if proved else search.cap
    won = best == 16 and stones + n == 32
    return SolitaireResult(best, moves, proved, bound, search.nodes, won)


def _moves(
    search: _Search, pattern: tuple[Cell, ...], t: tuple[int, int] | None, base: int
) -> tuple[MoveChoice, ...]:
    """The moves that copy the best region: its squares in connected order from the
    matched group (or from its first square), each with a stone of its class's colour."""
    geo, pos = search.geo, search.pos
    region = search.best_region
    colour_for = dict(search.best_plan)
    order: list[int] = []
    done = base
    if not done:
        first = region & -region
        order.append(first)
        done = first
    while done != region:
        frontier = geo.neighbours(done) & region & ~done
        low = frontier & -frontier
        order.append(low)
        done |= low
    if t is None:
        r0, c0 = geo.cell[geo.squares(order[0])[0]]
        t = (r0, c0)
    spare = {c: geo.squares(pos.by_colour[c] & ~region) for c in range(1, 12)}
    out = []
    for bit in order:
        square = geo.squares(bit)[0]
        colour = colour_for[pos.colour_at[bit.bit_length() - 1]]
        take = spare[colour].pop(0)
        r, c = geo.cell[square]
        out.append((take, (r - t[0], c - t[1])))
    return tuple(out)
