"""Scores: one place-score function (MW-PS1..PS3) and a breakdown that explains every point.

breakdown = score(state)
breakdown.sides[0].total
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.games.contract import JSON
from companion.games.memwars.board import (
    BOARD_DIAGONALS,
    CENTRE_PLACES,
    CENTRE_QUINCUNX_PLACES,
    QUINCUNXES,
    quadrant_diagonals,
    quadrant_places,
    quincunx_places,
)
from companion.games.memwars.setup import CounterScoring, Mode, Setup, Topology
from companion.games.memwars.state import BOARD, Phase, Place, State

# Captures that earn +2 at the end, by house rule mw.final.plus2Scope (MW-A18).
_PLUS2_RULES = {
    "ALL_2_2_CAPTURES": frozenset(
        {"forsake", "challenger_right", "challenger_wrong", "both_right"}
    ),
    "CHALLENGER_WINS_ONLY": frozenset({"challenger_right"}),
}


def _earns_plus2(setup: Setup) -> frozenset[str]:
    """The capture rules that earn +2 (MW-F2). A piece forfeited on a give-up earns it
    under mw.giveUp.onTurnPiece=TO_CHALLENGER (MW-A11 b) whatever mw.final.plus2Scope says:
    the challenger who takes it has won the challenge either way."""
    rules = _PLUS2_RULES[setup.rules.plus2_scope]
    if setup.rules.give_up_on_turn_piece == "TO_CHALLENGER":
        return rules | {"give_up"}
    return rules


def base_value(setup: Setup, place: int) -> int:
    """Card points times the agreed multipliers (MW-PS1, MW-A37)."""
    points = setup.points_at[place]
    cp = setup.centre_place_multiplier if place in CENTRE_PLACES else 1
    cq = setup.centre_quincunx_multiplier if place in CENTRE_QUINCUNX_PLACES else 1
    stacking = setup.rules.multiplier_stacking
    if stacking == "MAX":
        return points * max(cp, cq)
    if stacking == "ADD":
        return points * (1 + (cp - 1) + (cq - 1))
    return points * cp * cq


def crystal_points(setup: Setup, number: int, place: Place) -> int:
    """Base value times the pieces that count (MW-PS2, MW-A09, MW-A10)."""
    if place.counted:
        factor = place.counted
    elif setup.rules.crystal_count:
        factor = len(place.crystals)
    else:
        factor = 1
    return base_value(setup, number) * factor


def place_score(setup: Setup, number: int, place: Place) -> int:
    """What a held place is worth to its holder, counters included (MW-PS3)."""
    points = crystal_points(setup, number, place)
    # Only counters the holder has taken (turned face up) count: while a claim can still be
    # challenged its counters are face down, and a score must not give their values away.
    values = [c.value for c in place.counters if c.face_up]
    if not values or setup.topology is Topology.FLAT:
        return points
    if setup.counter_scoring is CounterScoring.MULTIPLY:
        factor = (
            math.prod(values) if setup.rules.multiply_two_counters == "PRODUCT" else sum(values)
        )
        return points * factor
    if setup.rules.take_mode == "REPLACE":
        return sum(values)
    return points + sum(values)


def quadrant_total(setup: Setup, state: State, side: int, quadrant: int) -> int:
    """Points a side has in a quadrant, for deciding who wins it (MW-Q2, MW-A35)."""
    full = setup.rules.quadrant_totals == "FULL_SCORE"
    total = 0
    for number in quadrant_places(quadrant):
        place = state.places[number]
        if place.holder == side:
            total += place_score(setup, number, place) if full else base_value(setup, number)
    return total


def bonus_for(state: State, rank: int) -> int:
    """The bonus of the rank-th quadrant won (MW-Q4, MW-A26).

    Under FIRST_5_LAST_1 the last quadrant won in the game gets the ladder's last bonus (1)
    even when it is also the first won: MW-A26 (b) gives the last one 1 "always". That is
    known once every quadrant in play is scored, or the game is over; until then the
    quadrant won last so far keeps its place on the ladder.
    """
    ladder = state.setup.quadrant_bonuses
    if rank < 0:
        return 0
    if state.setup.rules.bonus_ladder == "FIRST_5_LAST_1":
        scored = {r.quadrant for r in state.quadrant_results}
        decided = state.phase is Phase.OVER or all(q in scored for q in state.setup.quadrants)
        won = [r.rank for r in state.quadrant_results if r.winners]
        if decided and won and rank == max(won):
            return ladder[-1]
    return ladder[min(rank, len(ladder) - 1)]


@dataclass(frozen=True, slots=True)
class SideScore:
    side: int
    places: int
    """Number of places held."""
    place_points: int
    counter_points: int
    quadrant_bonus: int
    quadrants_won: tuple[int, ...]
    captures: int
    capture_points: int
    board_pieces: int
    board_penalty: int
    pattern_points: int
    patterns: tuple[str, ...]
    total: int
    place_scores: tuple[tuple[int, int, int], ...] = ()
    """(place, points from crystals and multipliers, points from counters) per held place."""
    quadrant_bonuses: tuple[tuple[int, int], ...] = ()
    """(quadrant, bonus) per quadrant won."""

    def to_dict(self) -> JSON:
        return {
            "side": self.side,
            "places": self.places,
            "place_points": self.place_points,
            "counter_points": self.counter_points,
            "quadrant_bonus": self.quadrant_bonus,
            "quadrants_won": list(self.quadrants_won),
            "captures": self.captures,
            "capture_points": self.capture_points,
            "board_pieces": self.board_pieces,
            "board_penalty": self.board_penalty,
            "pattern_points": self.pattern_points,
            "patterns": list(self.patterns),
            "total": self.total,
            "place_scores": [list(p) for p in self.place_scores],
            "quadrant_bonuses": [list(q) for q in self.quadrant_bonuses],
        }


@dataclass(frozen=True, slots=True)
class Breakdown:
    sides: tuple[SideScore, ...]
    board: int
    board_places: int
    leaders: tuple[int, ...]
    """Who would win if the game ended now: side indexes, or (BOARD,)."""

    def to_dict(self) -> JSON:
        return {
            "sides": [s.to_dict() for s in self.sides],
            "board": {"places": self.board_places, "total": self.board},
            "leaders": list(self.leaders),
        }


def score(state: State) -> Breakdown:
    setup = state.setup
    competitive = setup.mode in (Mode.STANDARD, Mode.HYBRID)
    n = len(state.sides)
    place_points = [0] * n
    counter_points = [0] * n
    held = [0] * n
    details: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
    board_total = 0
    board_places = 0
    for number in sorted(setup.in_play):
        place = state.places[number]
        holder = place.holder
        if holder >= 0:
            points = crystal_points(setup, number, place)
            held[holder] += 1
            extra = place_score(setup, number, place) - points
            place_points[holder] += points
            counter_points[holder] += extra
            details[holder].append((number, points, extra))
        elif holder == BOARD:
            board_places += 1
            board_total += base_value(setup, number)
    bonuses = [0] * n
    won: list[list[int]] = [[] for _ in range(n)]
    bonus_detail: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for result in state.quadrant_results:
        bonus = bonus_for(state, result.rank)
        for winner in result.winners:
            bonuses[winner] += bonus
            won[winner].append(result.quadrant)
            bonus_detail[winner].append((result.quadrant, bonus))
    retained_total = sum(s.board_retained for s in state.sides)
    plus2 = _earns_plus2(setup)
    scores = []
    for i, side in enumerate(state.sides):
        captures = sum(1 for c in side.captures if c.rule in plus2) if competitive else 0
        board_pieces = 0
        if competitive:
            board_pieces = (
                side.board_retained if setup.rules.minus3_scope == "OWN_PIECES" else retained_total
            )
        pattern_names = _patterns(state, i)
        pattern_points = sum(points for _, points in pattern_names)
        total = (
            place_points[i]
            + counter_points[i]
            + bonuses[i]
            + 2 * captures
            - 3 * board_pieces
            + pattern_points
        )
        scores.append(
            SideScore(
                side=i,
                places=held[i],
                place_points=place_points[i],
                counter_points=counter_points[i],
                quadrant_bonus=bonuses[i],
                quadrants_won=tuple(won[i]),
                captures=captures,
                capture_points=2 * captures,
                board_pieces=board_pieces,
                board_penalty=-3 * board_pieces,
                pattern_points=pattern_points,
                patterns=tuple(name for name, _ in pattern_names),
                total=total,
                place_scores=tuple(details[i]),
                quadrant_bonuses=tuple(bonus_detail[i]),
            )
        )
    if setup.rules.board_score_mode == "ZERO":
        board_total = 0
    elif setup.rules.board_score_mode == "MIRROR":
        board_total += 2 * retained_total
    return Breakdown(
        sides=tuple(scores),
        board=board_total,
        board_places=board_places,
        leaders=_leaders(state, scores, board_total, competitive),
    )


def _leaders(
    state: State, scores: list[SideScore], board_total: int, competitive: bool
) -> tuple[int, ...]:
    if not scores or state.setup.mode in (Mode.STUDY, Mode.REVIEW):
        return ()
    best = max(s.total for s in scores)
    if competitive and board_total > best:
        return (BOARD,)
    leaders = [s for s in scores if s.total == best]
    if len(leaders) > 1 and state.setup.rules.player_tie == "TIEBREAK":
        key = max((len(s.quadrants_won), s.captures) for s in leaders)
        leaders = [s for s in leaders if (len(s.quadrants_won), s.captures) == key]
    return tuple(s.side for s in leaders)


def pattern_sets(setup: Setup) -> list[tuple[str, int, tuple[int, ...]]]:
    """Every agreed pattern as (name, bonus, places) within the places in play (MW-X3)."""
    found: list[tuple[str, int, tuple[int, ...]]] = []
    patterns = setup.patterns
    if not patterns.any:
        return found
    lattice = setup.rules.pattern_diagonals == "LATTICE"
    for q in setup.quadrants:
        if patterns.quincunx:
            for k in range(1, 6):
                found.append((f"quincunx {q}.{k}", patterns.quincunx, quincunx_places(q, k)))
        if patterns.quadrant:
            found.append((f"quadrant {q}", patterns.quadrant, quadrant_places(q)))
        if patterns.minor_diagonal:
            if lattice:
                diagonals = quadrant_diagonals(q)
            else:
                diagonals = (_quincunxes(q, (1, 3, 5)), _quincunxes(q, (2, 3, 4)))
            for name, places in zip(("falling", "rising"), diagonals, strict=True):
                found.append((f"quadrant {q} {name} diagonal", patterns.minor_diagonal, places))
    if patterns.major_diagonal:
        if lattice:
            diagonals = BOARD_DIAGONALS
        else:
            diagonals = (
                _quincunxes(1, (1, 3, 5)) + _quincunxes(4, (1, 3, 5)),
                _quincunxes(2, (2, 3, 4)) + _quincunxes(3, (2, 3, 4)),
            )
        for name, places in zip(("falling", "rising"), diagonals, strict=True):
            if all(p in setup.in_play for p in places):
                found.append((f"board {name} diagonal", patterns.major_diagonal, places))
    return found


def _quincunxes(quadrant: int, which: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(p for k in which for p in QUINCUNXES[(quadrant - 1) * 5 + k - 1])


def _patterns(state: State, side: int) -> list[tuple[str, int]]:
    return [
        (name, bonus)
        for name, bonus, places in pattern_sets(state.setup)
        if all(state.places[p].holder == side for p in places)
    ]
