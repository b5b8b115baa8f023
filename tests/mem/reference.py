"""The MeM rules written the slow, literal way (rules inventory §2.3), to check the
bitboard code against: dicts of squares, every translation tried, every move tried."""

from __future__ import annotations

from companion.games.mem.board import geometry

Cell = tuple[int, int, int]
Occ = dict[tuple[int, int], int]


def occ_map(board: tuple[int, ...], align: str = "CENTRED") -> dict[tuple[int, int], int]:
    geo = geometry(align)
    return {geo.cell[i]: c for i, c in enumerate(board) if c}


def match_at(pattern: tuple[Cell, ...], occ: Occ, t: tuple[int, int]) -> bool:
    for r, c, _ in pattern:
        if (r + t[0], c + t[1]) not in occ:
            return False
    for r1, c1, p1 in pattern:
        for r2, c2, p2 in pattern:
            same_board = occ[(r1 + t[0], c1 + t[1])] == occ[(r2 + t[0], c2 + t[1])]
            if (p1 == p2) != same_board:
                return False
    return True


def all_matches(
    pattern: tuple[Cell, ...], occ: dict[tuple[int, int], int]
) -> list[tuple[int, int]]:
    if not pattern:
        return []
    r0, c0, _ = pattern[0]
    return sorted(
        (sq[0] - r0, sq[1] - c0) for sq in occ if match_at(pattern, occ, (sq[0] - r0, sq[1] - c0))
    )


def live(pattern: tuple[Cell, ...], occ: Occ) -> bool:
    return not pattern or bool(all_matches(pattern, occ))


def moves(
    board: tuple[int, ...], mine: tuple[Cell, ...], theirs: tuple[Cell, ...], align: str = "CENTRED"
) -> list[tuple[int, tuple[int, int]]]:
    """Every legal (square, cell) by trying them all (MEM-R3.1, default house rules)."""
    geo = geometry(align)
    occ = occ_map(board, align)
    cells = {(r, c) for r, c, _ in mine}
    if mine:
        frontier = {
            (r + dr, c + dc) for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
        } - cells
    else:
        frontier = {(0, 0)}
    theirs_dead = bool(theirs) and not live(theirs, occ)
    out = []
    for square, colour in enumerate(board):
        if not colour:
            continue
        after = dict(occ)
        del after[geo.cell[square]]
        for x in frontier:
            new = (*mine, (x[0], x[1], colour))
            if not live(new, after):
                continue
            if not theirs_dead and not live(theirs, after):
                continue
            out.append((square, x))
    return sorted(out)
