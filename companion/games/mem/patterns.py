"""Matching patterns against the board, on bitboards (MEM-R2, MEM-R3.1, MEM-R6, MEM-R7).

A pattern is a tuple of (row, column, colour) cells in the board's frame, at the
coordinates its owner put them (the first stone at (0, 0)). It matches at translation
t = (dr, dc) when every cell + t is an occupied square and two cells share a colour exactly
when their squares do. Only translation is tried: no rotation, no reflection.

These functions are the rules' inner loop, run after every move, so they work on
per-colour bitboards (companion.games.mem.board) and never on dicts of squares.

    pos = Position.of(board, geometry())
    shape = Shape.of(((0, 0, 1), (0, 1, 1)))
    [m.t for m in matches(shape, pos)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.mem.board import COLS, ROWS, WIDTH, Geometry, bit_at
from companion.games.mem.colours import EMPTY

Cell = tuple[int, int, int]
"""(row, column, colour) of a pattern stone."""
NEIGHBOUR_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))


@dataclass(frozen=True, slots=True)
class Position:
    """The stones on the board, as bitboards: `by_colour[c]` holds colour c's squares."""

    geo: Geometry
    by_colour: tuple[int, ...]
    occupied: int
    colour_at: tuple[int, ...]
    """colour_at[bit position] is the colour there (EMPTY off the board)."""

    @staticmethod
    def of(board: Sequence[int], geo: Geometry) -> Position:
        by_colour = [0] * 12
        colour_at = [EMPTY] * (ROWS * WIDTH)
        for square, colour in enumerate(board):
            if colour != EMPTY:
                b = geo.bit[square]
                by_colour[colour] |= b
                colour_at[b.bit_length() - 1] = colour
        occupied = 0
        for bits in by_colour:
            occupied |= bits
        return Position(geo, tuple(by_colour), occupied, tuple(colour_at))

    def without(self, bit: int) -> Position:
        """This position with the stone on `bit` taken away."""
        index = bit.bit_length() - 1
        colour = self.colour_at[index]
        by_colour = list(self.by_colour)
        by_colour[colour] &= ~bit
        colour_at = list(self.colour_at)
        colour_at[index] = EMPTY
        return Position(self.geo, tuple(by_colour), self.occupied & ~bit, tuple(colour_at))


@dataclass(frozen=True, slots=True)
class Shape:
    """A pattern prepared for matching: its cells normalised to their bounding box."""

    cells: tuple[Cell, ...]
    top: int
    left: int
    height: int
    width: int
    bits: int
    """The normalised cells as a bitboard (top-left at bit 0)."""
    classes: tuple[tuple[int, int, int], ...]
    """(pattern colour, normalised bits of that colour, one of those bit positions)."""
    frontier: tuple[tuple[int, int], ...]
    """Free cells next to the pattern, where the next stone may go (MEM-R1)."""

    @staticmethod
    def of(cells: Sequence[Cell]) -> Shape:
        if not cells:
            return Shape((), 0, 0, 0, 0, 0, (), ((0, 0),))
        top = min(r for r, _, _ in cells)
        left = min(c for _, c, _ in cells)
        height = max(r for r, _, _ in cells) - top + 1
        width = max(c for _, c, _ in cells) - left + 1
        bits = 0
        per_colour: dict[int, int] = {}
        for r, c, colour in cells:
            b = 1 << ((r - top) * WIDTH + (c - left)) if height <= ROWS and width <= COLS else 0
            bits |= b
            per_colour[colour] = per_colour.get(colour, 0) | b
        classes = tuple(
            (colour, cb, (cb & -cb).bit_length() - 1) for colour, cb in sorted(per_colour.items())
        )
        taken = {(r, c) for r, c, _ in cells}
        frontier = sorted(
            {
                (r + dr, c + dc)
                for r, c, _ in cells
                for dr, dc in NEIGHBOUR_STEPS
                if (r + dr, c + dc) not in taken
            }
        )
        return Shape(tuple(cells), top, left, height, width, bits, classes, tuple(frontier))

    @property
    def colours(self) -> frozenset[int]:
        return frozenset(colour for colour, _, _ in self.classes)

    def __len__(self) -> int:
        return len(self.cells)


@dataclass(frozen=True, slots=True)
class Match:
    t: tuple[int, int]
    """The translation: pattern cell (r, c) lies on square (r + t[0], c + t[1])."""
    group: int
    """The matched squares as a bitboard."""
    represents: tuple[tuple[int, int], ...]
    """(pattern colour, board colour) pairs: what each pattern colour stands for here."""


def matches(
    shape: Shape,
    pos: Position,
    lock: tuple[int, int] | None = None,
    committed: Sequence[tuple[int, int]] = (),
) -> list[Match]:
    """Every translation at which `shape` matches (MEM-R2); only `lock` when one is set
    (MEM-R10.3b); only those agreeing with the `committed` colour pairs (MEM-A03)."""
    if not shape.cells or shape.height > ROWS or shape.width > COLS:
        return []
    occupied = pos.occupied
    by_colour = pos.by_colour
    colour_at = pos.colour_at
    out: list[Match] = []
    if lock is not None:
        r0, c0 = lock[0] + shape.top, lock[1] + shape.left
        if not (0 <= r0 <= ROWS - shape.height and 0 <= c0 <= COLS - shape.width):
            return []
        origins = [(r0, c0)]
    else:
        origins = [
            (r0, c0)
            for r0 in range(ROWS - shape.height + 1)
            for c0 in range(COLS - shape.width + 1)
        ]
    for r0, c0 in origins:
        shift = r0 * WIDTH + c0
        group = shape.bits << shift
        if group & ~occupied:
            continue
        used = 0
        represents = []
        for colour, class_bits, rep in shape.classes:
            board_colour = colour_at[rep + shift]
            flag = 1 << board_colour
            moved = class_bits << shift
            if used & flag or by_colour[board_colour] & moved != moved:
                break
            used |= flag
            represents.append((colour, board_colour))
        else:
            if committed and not set(committed) <= set(represents):
                continue
            out.append(Match((r0 - shape.top, c0 - shape.left), group, tuple(represents)))
    return out


def kill_mask(shape: Shape, found: list[Match], exempt_dead: bool, occupied: int) -> int:
    """The stones whose removal would leave this pattern matching nothing (MEM-R3).

    An empty pattern matches vacuously and cannot be killed. A pattern already dead kills
    nothing when house rule mem.deadPatternExempt is on (MEM-A06), everything when off.
    """
    if not shape.cells:
        return 0
    if not found:
        return 0 if exempt_dead else occupied
    out = occupied
    for m in found:
        out &= m.group
    return out


def move_targets(
    shape: Shape, pos: Position, found: list[Match], kill: int
) -> dict[tuple[int, int], int]:
    """Legal moves of a pattern's owner (MEM-R3.1): for each free cell next to the pattern,
    the stones (a bitboard) that may be taken and put there. `found` are the pattern's
    current matches (lock and colour commitments applied); `kill` the stones the other
    pattern cannot lose.

    A stone may go to cell x when, for some match t, x + t is a stone other than the one
    taken, that stone's colour is represented by the new stone's colour (or is new to the
    match and the new stone's colour is new to the pattern), and the match's own squares
    keep their stones.
    """
    occupied = pos.occupied
    if not shape.cells:
        # The first stone matches any stone left on the board.
        if (occupied & (occupied - 1)) == 0:
            return {}
        stones = occupied & ~kill
        return {(0, 0): stones} if stones else {}
    by_colour = pos.by_colour
    colour_at = pos.colour_at
    in_pattern = 0
    for colour in shape.colours:
        in_pattern |= by_colour[colour]
    fresh = occupied & ~in_pattern
    out: dict[tuple[int, int], int] = {}
    for m in found:
        dr, dc = m.t
        board_to_pattern = {b: p for p, b in m.represents}
        spare = ~(m.group | kill)
        for x in shape.frontier:
            r, c = x[0] + dr, x[1] + dc
            if not (0 <= r < ROWS and 0 <= c < COLS):
                continue
            q = bit_at(r, c)
            if not occupied & q:
                continue
            pattern_colour = board_to_pattern.get(colour_at[r * WIDTH + c])
            stones = (fresh if pattern_colour is None else by_colour[pattern_colour]) & spare & ~q
            if stones:
                out[x] = out.get(x, 0) | stones
    return out


def is_isolated(
    bits: int, pos: Position, edge_isolates: bool = True, connected: bool = True
) -> bool:
    """Whether the stones `bits` form an isolated group (MEM-R6).

    Every stone must be next to another of the set and every square next to the set must
    be empty. The board's rim counts as empty unless `edge_isolates` is off (MEM-A04);
    `connected` asks for one piece rather than rule 6(a)'s letter (MEM-A05).
    """
    geo = pos.geo
    if bits & ~pos.occupied or bits & (bits - 1) == 0:
        return False
    if geo.neighbours(bits) & ~bits & pos.occupied:
        return False
    if not edge_isolates and bits & geo.edge:
        return False
    if connected:
        return component(bits & -bits, bits, geo) == bits
    rest = bits
    while rest:
        low = rest & -rest
        if not geo.neighbours(low) & bits & ~low:
            return False
        rest ^= low
    return True


def component(start: int, within: int, geo: Geometry) -> int:
    """The squares of `within` connected to `start` (a flood fill on bitboards)."""
    seen = start & within
    while True:
        grown = geo.neighbours(seen) & within
        if grown == seen:
            return seen
        seen = grown


def popcount(bits: int) -> int:
    return bits.bit_count()
