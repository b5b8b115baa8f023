"""The MemWars board as plain text lines, drawn from a spectator view (view.py) alone, for a
terminal (`companion replay RECORD --step`).

The places stand where they stand on the Macunx (board.py: the 18 x 18 lattice, a quadrant
9 x 9), only the quadrants in play and those between them drawn. A place shows its number
while nothing is on it; otherwise what is on it, in three characters at most:

    A B C D   a crystal of the first, second, third or fourth side (the legend names them)
    *         a challenge piece; # one the board holds
    5 3 2     a face-up topology counter's value; ? a face-down counter (its value hidden)
    (5) (?)   a counter on a place with no piece on it

Nothing the spectator view hides can appear: a face-down counter comes with no value.
"""

from __future__ import annotations

from typing import Any

from companion.games.contract import JSON
from companion.games.memwars.board import QUADRANTS, place_at
from companion.games.memwars.state import BOARD, CHALLENGE

_QUADRANT_CELL = {1: (0, 0), 2: (1, 0), 3: (0, 1), 4: (1, 1)}
_CELL = 4
"""Characters per lattice column: three for what a place shows and a space."""
_GAP = "  "
"""Between two quadrants side by side."""


def side_letter(side: int) -> str:
    return chr(ord("A") + side) if 0 <= side < 26 else "?"


def text_board(view: JSON) -> tuple[str, ...]:
    places: dict[int, JSON] = {p["place"]: p for p in view.get("places") or []}
    in_play = set(view.get("quadrants") or [])
    names = view.get("quadrant_names") or []
    shown = in_play or set(QUADRANTS)
    columns = sorted({_QUADRANT_CELL[q][0] for q in shown})
    rows = sorted({_QUADRANT_CELL[q][1] for q in shown})
    cols = range(columns[0], columns[-1] + 1)
    width = 9 * _CELL
    lines: list[str] = []
    for qy in range(rows[0], rows[-1] + 1):
        titles = []
        for qx in cols:
            quadrant = 1 + qx + 2 * qy
            name = names[quadrant - 1] if quadrant - 1 < len(names) else ""
            title = f"Quadrant {quadrant}" + (f": {name}" if name else "")
            if quadrant not in in_play:
                title += " (not in play)"
            titles.append(title[: width - 1].ljust(width))
        lines.append(_GAP.join(titles).rstrip())
        for y in range(9 * qy, 9 * qy + 9):
            parts = []
            for qx in cols:
                quadrant = 1 + qx + 2 * qy
                cells = []
                for x in range(9 * qx, 9 * qx + 9):
                    place = place_at(x, y)
                    if place is None:
                        cells.append(" " * (_CELL - 1))
                    elif quadrant not in in_play:
                        cells.append(".".rjust(_CELL - 1))
                    else:
                        cells.append(_cell(place, places.get(place)).rjust(_CELL - 1))
                parts.append(" ".join(cells).ljust(width))
            lines.append(_GAP.join(parts).rstrip())
        lines.append("")
    lines.extend(_legend(view))
    lines.extend(_status(view))
    return tuple(lines)


def _cell(number: int, place: JSON | None) -> str:
    """What a place shows in three characters at most."""
    if place is None:
        return "."
    mark = _counter_mark(place.get("counters") or [])
    crystals: list[int] = place.get("crystals") or []
    if not crystals:
        return f"({mark})" if mark else str(number)
    board = place.get("holder") == BOARD
    pieces = "".join(
        ("#" if board else "*") if c == CHALLENGE else side_letter(c) for c in crystals
    )
    room = 3 - len(mark)
    if len(pieces) > room:
        pieces = pieces[: room - 1] + "+"
    return pieces + mark


def _counter_mark(counters: list[JSON]) -> str:
    if not counters:
        return ""
    if len(counters) > 1:
        return "+"
    counter = counters[0]
    value = counter.get("value")
    if counter.get("face_up") and isinstance(value, int) and 0 <= value <= 9:
        return str(value)
    return "?"


def _legend(view: JSON) -> list[str]:
    sides = view.get("sides") or []
    named = ", ".join(f"{side_letter(i)} {side.get('name', '')}" for i, side in enumerate(sides))
    return [
        f"Crystals: {named}; * a challenge piece, # the board's.",
        "Counters: a digit is a face-up counter's value, ? a face-down counter, + several.",
    ]


def _status(view: JSON) -> list[str]:
    sides: list[JSON] = view.get("sides") or []
    lines = []
    for i, side in enumerate(sides):
        notes = [
            _count(side.get("supply", 0), "crystal") + " in supply",
            _count(side.get("challenge_pieces", 0), "challenge piece"),
            f"{side.get('captured', 0)} captured",
        ]
        if side.get("counters_in_hand"):
            notes.append(_count(side["counters_in_hand"], "counter") + " in hand")
        if side.get("lost_turns"):
            notes.append(_count(side["lost_turns"], "lost turn"))
        if side.get("sitting_out"):
            notes.append("sitting out")
        lines.append(f"{side_letter(i)} {side.get('name', '')}: {', '.join(notes)}")
    pending = view.get("pending")
    if pending:
        claim = f"Open claim on place {pending['place']} by {_name(sides, pending['claimant'])}"
        challenger = pending.get("challenger")
        if isinstance(challenger, int) and challenger >= 0:
            claim += f", challenged by {_name(sides, challenger)}"
        lines.append(f"{claim} ({pending.get('stage', '')}).")
    if view.get("north"):
        lines.append(f"North is the board's {view['north']} edge.")
    card = view.get("current_card")
    if card:
        lines.append(f"Card {card} is up.")
    lines.append(
        f"Pool: {_count(view.get('pool', 0), 'challenge piece')}; "
        f"deck: {_count(view.get('deck_count', 0), 'card')} left."
    )
    return lines


def _name(sides: list[JSON], side: Any) -> str:
    if isinstance(side, int) and 0 <= side < len(sides):
        return str(sides[side].get("name", ""))
    return "nobody"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")
