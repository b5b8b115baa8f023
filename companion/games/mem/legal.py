"""What the rules allow in a MeM state: matches, legal moves and captures, blocks.

Pure functions of the state, shared by the engine (which refuses what they exclude) and
the solver and hints (which search what they list).

    legal_moves(state, 0)       # [(square, (row, col)), ...] in the board's frame
    legal_captures(state, 1)    # [bitboard of a capturable group, ...]
"""

from __future__ import annotations

from dataclasses import replace

from companion.games.mem.board import Geometry, geometry
from companion.games.mem.patterns import (
    Cell,
    Match,
    Position,
    Shape,
    is_isolated,
    kill_mask,
    matches,
    move_targets,
)
from companion.games.mem.setup import Game
from companion.games.mem.state import Side, State

MoveChoice = tuple[int, tuple[int, int]]
"""(square taken, cell in the board's frame)."""


def geo_of(state: State) -> Geometry:
    return geometry(state.setup.rules.board_align)


def position(state: State) -> Position:
    return Position.of(state.board, geo_of(state))


def side_matches(state: State, side: int, pos: Position | None = None) -> list[Match]:
    """The groups `side`'s pattern matches now, its lock and colour commitments applied."""
    me = state.sides[side]
    return matches(Shape.of(me.pattern), pos or position(state), me.lock, me.committed)


def is_dead(state: State, side: int, pos: Position | None = None) -> bool:
    """A pattern with stones that matches nothing (MEM-R10.2)."""
    return bool(state.sides[side].pattern) and not side_matches(state, side, pos)


def _kill(state: State, side: int, pos: Position) -> int:
    """Stones no move may take because of the other players' patterns (MEM-R3)."""
    out = 0
    for other in range(len(state.sides)):
        if other != side:
            theirs = state.sides[other]
            shape = Shape.of(theirs.pattern)
            found = matches(shape, pos, theirs.lock, theirs.committed)
            out |= kill_mask(shape, found, state.setup.rules.dead_pattern_exempt, pos.occupied)
    return out


def move_map(state: State, side: int, pos: Position | None = None) -> dict[tuple[int, int], int]:
    """Legal moves of `side` (MEM-R3.1) as {cell: bitboard of stones}, ignoring this
    turn's blocks and questions."""
    pos = pos or position(state)
    me = state.sides[side]
    shape = Shape.of(me.pattern)
    found = matches(shape, pos, me.lock, me.committed)
    if me.pattern and not found:
        return {}
    return move_targets(shape, pos, found, _kill(state, side, pos))


def legal_moves(state: State, side: int, pos: Position | None = None) -> list[MoveChoice]:
    """Every legal (square, cell) for `side`, in square then cell order."""
    pos = pos or position(state)
    geo = pos.geo
    out = [
        (s, cell) for cell, bits in move_map(state, side, pos).items() for s in geo.squares(bits)
    ]
    out.sort()
    return out


def has_move(state: State, side: int, barred: tuple[int, ...] = ()) -> bool:
    pos = position(state)
    barred_bits = pos.geo.bits_of(barred)
    return any(bits & ~barred_bits for bits in move_map(state, side, pos).values())


def place_stone(state: State, side: int, square: int, cell: tuple[int, int]) -> State:
    """The state after `side` takes `square` and puts it at `cell` (no legality check)."""
    colour = state.board[square]
    board = list(state.board)
    board[square] = 0
    me = state.sides[side]
    pattern: tuple[Cell, ...] = (*me.pattern, (cell[0], cell[1], colour))
    sides = list(state.sides)
    sides[side] = replace(me, pattern=pattern)
    moved = replace(state, board=tuple(board), sides=tuple(sides))
    if state.setup.rules.colour_map_persistent:
        sides[side] = replace(sides[side], committed=_agreed(moved, side))
        moved = replace(moved, sides=tuple(sides))
    return moved


def _agreed(state: State, side: int) -> tuple[tuple[int, int], ...]:
    """The colour pairs every match agrees on, with those already committed (MEM-A03)."""
    found = side_matches(state, side)
    if not found:
        return state.sides[side].committed
    common = set(found[0].represents)
    for m in found[1:]:
        common &= set(m.represents)
    return tuple(sorted(common | set(state.sides[side].committed)))


def has_pair(state: State, side: int, barred: tuple[int, ...] = ()) -> bool:
    """Mini-MEM: whether `side` can make two moves in a row (MEM-R5, MEM-A07)."""
    return any(
        has_move(place_stone(state, side, s, cell), side)
        for s, cell in legal_moves(state, side)
        if s not in barred
    )


def follow_up_exists(state: State, side: int, square: int, cell: tuple[int, int]) -> bool:
    return has_move(place_stone(state, side, square, cell), side)


def blocking_matches(state: State, blocker: int, square: int) -> list[Match]:
    """The blocker's matches whose group holds `square`, if it may block (MEM-R9)."""
    if len(state.sides[blocker].pattern) < 2:
        return []
    pos = position(state)
    b = pos.geo.bit[square]
    return [m for m in side_matches(state, blocker, pos) if m.group & b]


def locked_group(state: State, side: int, pos: Position) -> int:
    """The squares `side`'s lock protects, or 0."""
    me = state.sides[side]
    if me.lock is None:
        return 0
    found = matches(Shape.of(me.pattern), pos, me.lock, me.committed)
    return found[0].group if found else 0


def legal_captures(state: State, side: int, pos: Position | None = None) -> list[int]:
    """The groups `side` may capture (MEM-R7), as bitboards."""
    if not state.setup.captures or len(state.sides[side].pattern) < 2:
        return []
    pos = pos or position(state)
    rules = state.setup.rules
    protected = 0
    if rules.block_vs_capture == "PROTECTS_GROUP":
        for other in range(len(state.sides)):
            if other != side:
                protected |= locked_group(state, other, pos)
    edge = rules.isolation_edge == "EDGE_ISOLATES"
    return [
        m.group
        for m in side_matches(state, side, pos)
        if not m.group & protected and is_isolated(m.group, pos, edge, rules.isolation_connected)
    ]


def can_take_turn(state: State, side: int) -> bool:
    """Whether `side` has anything to do at the start of a turn (MEM-R5, MEM-R10.5)."""
    if legal_captures(state, side):
        return True
    if state.setup.game is Game.MINI:
        return has_pair(state, side)
    return has_move(state, side)


def with_side(state: State, side: int, new: Side) -> State:
    sides = list(state.sides)
    sides[side] = new
    return replace(state, sides=tuple(sides))
