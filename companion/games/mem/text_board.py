"""The MeM board as plain text lines, drawn from a view (view.py: nothing in MeM is hidden),
for a terminal (`companion replay RECORD --step`).

The squares stand on their 6 x 6 grid (rows and columns numbered), each a colour letter
(colours.py: A white, B black, ...) or '.' when empty; then each side's pattern, drawn the
same way from its own cells, with its pile of captured stones.

    ABCD          rows 4, 6, 6, 6, 6, 4 of the board, the short rows as the house rule
    EFGHAB        mem.board.align sets them (the view gives every square's row and column)
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.games.contract import JSON


def text_board(view: JSON) -> tuple[str, ...]:
    squares = view.get("squares") or []
    cells = {
        (s["row"], s["col"]): s.get("colour") or "." for s in squares if "row" in s and "col" in s
    }
    lines = list(_grid(cells, numbered=True))
    used = sorted({s["colour"] for s in squares if s.get("colour")})
    names = {s["colour"]: s.get("colour_name") or "" for s in squares if s.get("colour")}
    lines.append("")
    if used:
        lines.append("Colours: " + ", ".join(f"{c} {names[c]}" for c in used) + "; . empty.")
    else:
        lines.append("The board is empty.")
    for side in view.get("sides") or []:
        pattern = side.get("pattern") or []
        notes = [f"pattern of {len(pattern)}", f"pile {side.get('pile', 0)}"]
        if side.get("lock") is not None:
            notes.append("locked")
        if side.get("dead"):
            notes.append("no match on the board")
        if side.get("out"):
            notes.append("out")
        lines.append(f"{side.get('name', '')}: {', '.join(notes)}")
        if pattern:
            own = {(c["row"], c["col"]): c.get("colour") or "?" for c in pattern}
            lines.extend("    " + line for line in _grid(own, numbered=False))
    pending = view.get("pending")
    if pending and pending.get("square") is not None:
        lines.append(f"A stone is lifted from square {pending['square']}.")
    return tuple(lines)


def _grid(cells: dict[tuple[int, int], str], *, numbered: bool) -> Iterable[str]:
    """The cells from their least row and column to their greatest, blank where there is
    none; with the row and column numbers around them when `numbered`."""
    if not cells:
        return
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    top, bottom, left, right = min(rows), max(rows), min(cols), max(cols)
    if numbered:
        yield "   " + " ".join(str(c % 10) for c in range(left, right + 1))
    for r in range(top, bottom + 1):
        text = " ".join(cells.get((r, c), " ") for c in range(left, right + 1))
        yield (f"{r:>2} " if numbered else "") + text.rstrip()
