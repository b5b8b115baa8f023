"""Matching, isolation and captures: the rules inventory's test vectors (§2.5) and the
bitboard code against a literal implementation on random positions."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.mem import actions as A
from companion.games.mem.board import geometry
from companion.games.mem.colours import BOX
from companion.games.mem.legal import legal_moves
from companion.games.mem.patterns import Cell, Position, Shape, is_isolated, matches
from companion.games.mem.text import parse_board

from . import reference
from .helpers import ENGINE, agreed, with_patterns

# The inventory's fragment (rows 0..3), colours R=C, G=E, Y=F, B=D, K=I, W=J; rows 4 and 5
# are left empty. r0: # R R . G #, r1: . . . . G ., r2: Y Y B R R G, r3: Y B B K R W.
VECTORS = "CC.E/....E./FFDCCE/FDDICJ/....../...."
X, Z = 1, 2


def pos(board: str = VECTORS, align: str = "CENTRED") -> Position:
    return Position.of(parse_board(board), geometry(align))


def ts(
    pattern: tuple[tuple[int, int, int], ...], where: Position | None = None
) -> set[tuple[int, int]]:
    return {m.t for m in matches(Shape.of(pattern), where or pos())}


def test_same_colour_pair_matches_every_equal_horizontal_pair() -> None:
    # Vectors 1-3: not (2, 1) [Y, B], not the vertical Y/Y pair.
    assert ts(((0, 0, X), (0, 1, X))) == {(2, 0), (2, 3), (3, 1), (0, 1)}


def test_different_colour_pair_needs_different_colours() -> None:
    # Vectors 4-5 (the inventory lists three of the pairs; every unequal pair counts).
    found = ts(((0, 0, X), (0, 1, Z)))
    assert {(2, 1), (2, 4), (3, 3)} <= found
    assert (2, 0) not in found
    board = parse_board(VECTORS)
    geo = geometry()
    for t in found:
        left = board[geo.square_at[(t[0], t[1])]]
        right = board[geo.square_at[(t[0], t[1] + 1)]]
        assert left != right


def test_vertical_pair_matches_vertical_groups_only() -> None:
    # Vector 6.
    assert ts(((0, 0, X), (1, 0, X))) == {(0, 4), (2, 0), (2, 2), (2, 4)}


def test_isolation_and_the_edge_rule() -> None:
    # Vectors 7 and 8.
    p = pos()
    geo = p.geo
    top = geo.bits_of([geo.square_at[(0, 1)], geo.square_at[(0, 2)]])
    assert is_isolated(top, p, edge_isolates=True)
    assert not is_isolated(top, p, edge_isolates=False)
    right = geo.bits_of([geo.square_at[(0, 4)], geo.square_at[(1, 4)]])
    assert not is_isolated(right, p)


def test_literal_isolation_accepts_two_separate_dominoes() -> None:
    # MEM-A05: rule 6 to the letter lets a set be in two pieces.
    p = pos("AA../....../..AA../....../....../....")
    geo = p.geo
    both = geo.bits_of([0, 1, geo.square_at[(2, 2)], geo.square_at[(2, 3)]])
    assert not is_isolated(both, p, connected=True)
    assert is_isolated(both, p, connected=False)


def test_flush_left_board_moves_the_short_rows() -> None:
    assert geometry("FLUSH_LEFT").cell[0] == (0, 0)
    assert geometry("CENTRED").cell[0] == (0, 1)
    assert geometry("CENTRED").cell[31] == (5, 4)
    assert len(set(geometry("CENTRED").cell)) == 32


def test_capture_vector_and_lock_vectors() -> None:
    # Vectors 9-11 played through the engine: Ada holds an equal horizontal pair.
    geo = geometry()
    state = with_patterns(agreed("mem", VECTORS), ((0, 0, 3), (0, 1, 3)), ())
    top = geo.square_at[(0, 2)]
    # Vector 11: no lock, so Bo may take (0, 2) as far as Ada's pattern goes.
    assert top in {s for s, _ in legal_moves(state, 1)}
    # Vector 10: with Ada locked onto the top pair, nobody may take from it.
    locked = with_patterns(agreed("mem", VECTORS), ((0, 0, 3), (0, 1, 3)), (), lock=(0, 1))
    assert top not in {s for s, _ in legal_moves(locked, 1)}
    # Vector 9: Ada captures the top pair, 2 + 2 stones to her pile.
    after, _ = ENGINE.apply(state, A.Capture(0, geo.square_at[(0, 1)]))
    assert after.sides[0].pile == 4 and after.sides[0].pattern == ()
    assert after.board[geo.square_at[(0, 1)]] == 0 and after.board[top] == 0


def _random_position(seed: int) -> tuple[tuple[int, ...], tuple[Cell, ...], tuple[Cell, ...]]:
    """A position reached by random legal moves of two players."""
    rng = random.Random(seed)
    stones = list(BOX)
    rng.shuffle(stones)
    state = ENGINE.new_game(agreed("mini", "/".join(["A" * 4, *["A" * 6] * 4, "A" * 4])))
    from dataclasses import replace

    state = replace(state, board=tuple(stones))
    for _ in range(rng.randrange(0, 14)):
        side = rng.randrange(2)
        choices = legal_moves(state, side)
        if not choices:
            break
        from companion.games.mem.legal import place_stone

        square, cell = rng.choice(choices)
        state = place_stone(state, side, square, cell)
    return state.board, state.sides[0].pattern, state.sides[1].pattern


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9))
def test_bitboard_moves_equal_the_literal_rules(seed: int) -> None:
    board, mine, theirs = _random_position(seed)
    state = ENGINE.new_game(agreed("mini", "/".join(["A" * 4, *["A" * 6] * 4, "A" * 4])))
    from dataclasses import replace

    from companion.games.mem.state import Side

    state = replace(state, board=board, sides=(Side(pattern=mine), Side(pattern=theirs)))
    assert legal_moves(state, 0) == reference.moves(board, mine, theirs)
    assert legal_moves(state, 1) == reference.moves(board, theirs, mine)
    occ = reference.occ_map(board)
    found = sorted(m.t for m in matches(Shape.of(mine), Position.of(board, geometry())))
    assert found == reference.all_matches(mine, occ)
