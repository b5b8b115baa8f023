"""The MeM solver: every legal move and capture of a position, the longest MEM-Solitaire
pattern (companion.games.mem.solitaire), and hints for a side by bounded search.

    options = legal_options(state)          # per side: moves and capturable groups
    result = solve_solitaire(state.board, geometry())
    hint = best_action(state, budget=2000)  # the side on turn's best next action
    ranked = ranked_actions(state, depth=2)  # every candidate with its value

Budgets count nodes, never seconds, so an answer does not depend on the machine.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.contract import Action, IllegalAction
from companion.games.mem import actions as A
from companion.games.mem.engine import apply, expected
from companion.games.mem.legal import (
    follow_up_exists,
    geo_of,
    legal_captures,
    legal_moves,
    position,
)
from companion.games.mem.setup import Game
from companion.games.mem.solitaire import SolitaireResult, solve_solitaire
from companion.games.mem.state import State

__all__ = [
    "Hint",
    "SideOptions",
    "SolitaireResult",
    "best_action",
    "legal_options",
    "ranked_actions",
]


@dataclass(frozen=True, slots=True)
class SideOptions:
    moves: tuple[tuple[int, tuple[int, int]], ...]
    """(square, cell in the board's frame) for every legal move (MEM-R3.1)."""
    captures: tuple[tuple[int, ...], ...]
    """The squares of every group this side may capture (MEM-R7)."""


def legal_options(state: State) -> tuple[SideOptions, ...]:
    """Every legal move and capture of every side, as if each were on turn."""
    pos = position(state)
    geo = pos.geo
    return tuple(
        SideOptions(
            tuple(legal_moves(state, side, pos)),
            tuple(tuple(geo.squares(g)) for g in legal_captures(state, side, pos)),
        )
        for side in range(len(state.sides))
    )


@dataclass(frozen=True, slots=True)
class Hint:
    action: Action | None
    """The recommended next action, or None when the rules wait for nobody's choice."""
    value: float
    """The search's value of it for the side: its stones minus the other's, plus a little
    for having more moves left."""
    nodes: int
    line: tuple[Action, ...] = ()
    """For MEM-Solitaire: the whole line to the longest pattern."""


class _Out(Exception):
    pass


def _candidates(state: State) -> list[Action]:
    """The actions the side to decide may take, blocks and questions left out except the
    answer to a held move (allow, or a block with the first pattern stone that can)."""
    expectation = expected(state)
    if expectation is None:
        return []
    actor = expectation.actor
    out: list[Action] = []
    geo = geo_of(state)
    if state.pending is not None:
        out.append(A.Allow(actor))
        from companion.games.mem.legal import blocking_matches

        for m in blocking_matches(state, actor, state.pending.square)[:1]:
            r, c = geo.cell[state.pending.square]
            row, col = r - m.t[0], c - m.t[1]
            if actor == 1 and state.setup.rules.orientation_frame == "OWNER":
                row, col = -row, -col
            out.append(A.Block(actor, row, col))
        return out
    options = expectation.actions
    if "capture" in options:
        out += [A.Capture(actor, geo.squares(g)[0]) for g in legal_captures(state, actor)]
    if "move" in options:
        pair_rule = (
            state.setup.game is Game.MINI
            and state.moves_made == 0
            and state.setup.rules.pair_selection == "PAIR"
        )
        for square, (row, col) in legal_moves(state, actor):
            if square in state.barred or (state.pledged is not None and square != state.pledged):
                continue
            if pair_rule and not follow_up_exists(state, actor, square, (row, col)):
                continue
            if actor == 1 and state.setup.rules.orientation_frame == "OWNER":
                row, col = -row, -col
            out.append(A.Move(actor, square, row, col))
    if "end_turn" in options:
        out.append(A.EndTurn(actor))
    if "pass" in options:
        out.append(A.Pass(actor))
    return out


def _value(state: State, side: int) -> float:
    totals = [s.pile + len(s.pattern) for s in state.sides]
    if len(totals) == 1:
        return float(totals[0])
    other = 1 - side
    if state.outcome is not None:
        return 100.0 * (totals[side] - totals[other])
    pos = position(state)
    mobility = len(legal_moves(state, side, pos)) - len(legal_moves(state, other, pos))
    return totals[side] - totals[other] + 0.01 * mobility


def best_action(state: State, depth: int = 3, budget: int = 2000) -> Hint:
    """The best next action for whoever must decide, by a depth-limited search over the
    engine's own decisions (each move, capture, block or allow is one ply), cut off after
    `budget` positions. MEM-Solitaire uses the exact solver instead."""
    if state.outcome is not None:
        return Hint(None, 0.0, 0)
    if state.setup.game is Game.SOLITAIRE and state.pending is None:
        me = state.sides[0]
        result = solve_solitaire(state.board, geo_of(state), me.pattern, me.committed, budget)
        line = tuple(A.Move(0, s, r, c) for s, (r, c) in result.moves)
        return Hint(line[0] if line else None, float(result.best), result.nodes, line)
    ranked, nodes = _ranked(state, depth, budget)
    best: Action | None = None
    best_value = float("-inf")
    for action, value in ranked:
        if best is None or value > best_value:
            best, best_value = action, value
    return Hint(best, best_value, nodes)


def ranked_actions(
    state: State, depth: int = 3, budget: int = 2000
) -> tuple[tuple[Action, float], ...]:
    """Every candidate action of whoever must decide in Mini-MEM or the MEM game (moves,
    captures, ending the turn, a pass, or the answer to a held move) with its value by the
    search `best_action` makes; empty once the game is over."""
    if state.outcome is not None:
        return ()
    return tuple(_ranked(state, depth, budget)[0])


def _ranked(state: State, depth: int, budget: int) -> tuple[list[tuple[Action, float]], int]:
    expectation = expected(state)
    assert expectation is not None
    side = expectation.actor
    nodes = 0

    def search(node: State, plies: int) -> float:
        nonlocal nodes
        nodes += 1
        if nodes > budget:
            raise _Out
        if plies == 0 or node.outcome is not None:
            return _value(node, side)
        choices = _candidates(node)
        if not choices:
            return _value(node, side)
        expectation = expected(node)
        mover = expectation.actor if expectation else side
        values = []
        for action in choices:
            try:
                values.append(search(apply(node, action)[0], plies - 1))
            except IllegalAction:
                continue
        if not values:
            return _value(node, side)
        return max(values) if mover == side else min(values)

    ranked: list[tuple[Action, float]] = []
    for action in _candidates(state):
        try:
            after = apply(state, action)[0]
        except IllegalAction:
            continue
        try:
            value = search(after, depth - 1)
        except _Out:
            value = _value(after, side)
            nodes = budget  # out of budget: the rest get the static value only
        ranked.append((action, value))
    return ranked, nodes
