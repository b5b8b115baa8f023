"""The BOARD text format: a MeM board in one line or six.

Six rows, top first, of 4, 6, 6, 6, 6 and 4 symbols, separated by '/' or line breaks;
spaces are ignored. A symbol is a colour letter A..K (A the colour with 8 stones, B with 7,
C and D with 3, E..H with 2, I..K with 1; lower case is accepted) or '.' for an empty
square. Which columns the short rows cover follows house rule mem.board.align.

    parse_board("ABCD/EFGHAB/CDAB.A/BABABA/ABABAB/IJKA")
    format_board(board)     # 'ABCD/EFGHAB/...'
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.mem.board import ROW_LENGTHS
from companion.games.mem.colours import BY_LETTER, EMPTY, LETTER


class BoardTextError(ValueError):
    """A BOARD text that does not parse; the message says where and why in one sentence."""


def parse_board(text: str) -> tuple[int, ...]:
    """The 32 colours (EMPTY for '.') a BOARD text describes."""
    rows = [r.replace(" ", "").replace("\t", "") for r in text.replace("\n", "/").split("/")]
    rows = [r for r in rows if r]
    if len(rows) != len(ROW_LENGTHS):
        raise BoardTextError(f"a board has 6 rows of 4, 6, 6, 6, 6, 4 squares, got {len(rows)}")
    out: list[int] = []
    for number, (row, length) in enumerate(zip(rows, ROW_LENGTHS, strict=True), start=1):
        if len(row) != length:
            raise BoardTextError(f"row {number} must have {length} squares, got {len(row)}")
        for symbol in row.upper():
            if symbol == ".":
                out.append(EMPTY)
            elif symbol in BY_LETTER:
                out.append(BY_LETTER[symbol])
            else:
                raise BoardTextError(
                    f"row {number}: {symbol!r} is not a colour letter A..K or '.' for empty"
                )
    return tuple(out)


def format_board(board: Sequence[int], separator: str = "/") -> str:
    rows = []
    start = 0
    for length in ROW_LENGTHS:
        rows.append("".join(LETTER[c] for c in board[start : start + length]))
        start += length
    return separator.join(rows)
