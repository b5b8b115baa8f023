"""What a viewer sees of a MeM game. Nothing in MeM is hidden (the stones, both patterns,
piles and locks lie open on the table), so every viewer gets the same picture; `viewer` is
echoed so a screen knows whose seat it is drawn for.

`scores` has the shape MemWars' view gives it (`sides[i].total`, `leaders`), so a screen or
a Home Assistant sensor reads any game's totals in one place."""

from __future__ import annotations

from companion.games.contract import JSON, Expectation, Viewer
from companion.games.mem.colours import LETTER, NAME
from companion.games.mem.legal import legal_captures, position, side_matches
from companion.games.mem.setup import TITLES
from companion.games.mem.state import State
from companion.games.mem.text import format_board


def view_state(state: State, viewer: Viewer, expectation: Expectation | None) -> JSON:
    pos = position(state)
    geo = pos.geo
    sides = []
    for i, (name, side) in enumerate(zip(state.setup.names, state.sides, strict=True)):
        found = side_matches(state, i, pos)
        sides.append(
            {
                "name": name,
                "pattern": [
                    {"row": r, "col": c, "colour": LETTER[colour], "colour_name": NAME[colour]}
                    for r, c, colour in side.pattern
                ],
                "pile": side.pile,
                "total": side.pile + len(side.pattern),
                "lock": list(side.lock) if side.lock is not None else None,
                "committed": [[LETTER[p], LETTER[b]] for p, b in side.committed],
                "out": side.out,
                "dead": bool(side.pattern) and not found,
                "matches": [{"t": list(m.t), "squares": geo.squares(m.group)} for m in found]
                if side.pattern
                else [],
                "captures": [geo.squares(g) for g in legal_captures(state, i, pos)],
            }
        )
    pending = state.pending
    return {
        "game": "mem",
        "viewer": viewer,
        "variant": state.setup.game.value,
        "variant_title": TITLES[state.setup.game],
        "board": format_board(state.board),
        "squares": [
            {
                "square": i,
                "row": r,
                "col": c,
                "colour": LETTER[state.board[i]] if state.board[i] else None,
                "colour_name": NAME[state.board[i]] if state.board[i] else None,
            }
            for i, (r, c) in enumerate(geo.cell)
        ],
        "turn": state.turn,
        "turn_number": state.turn_number,
        "moves_made": state.moves_made,
        "captured": state.captured,
        "barred": list(state.barred),
        "pledged": state.pledged,
        "pending": None
        if pending is None
        else {
            "side": pending.side,
            "square": pending.square,
            "cell": list(pending.cell) if pending.cell is not None else None,
        },
        "frame": state.setup.rules.orientation_frame,
        "expected": expectation.to_dict() if expectation else None,
        "sides": sides,
        "scores": scores(sides, state.outcome is None),
        "stones_on_board": sum(1 for colour in state.board if colour),
        "outcome": None
        if state.outcome is None
        else {
            "winners": list(state.outcome.winners),
            "reason": state.outcome.reason,
            "scores": list(state.outcome.scores),
        },
    }


def scores(sides: list[JSON], playing: bool) -> JSON:
    """Each side's stones (pattern + captured pile) and, while the game goes on, who leads:
    nobody when all are level."""
    totals = [side["total"] for side in sides]
    best = max(totals, default=0)
    leaders = [i for i, total in enumerate(totals) if total == best]
    return {
        "sides": [
            {
                "side": i,
                "pattern": len(side["pattern"]),
                "pile": side["pile"],
                "total": side["total"],
            }
            for i, side in enumerate(sides)
        ],
        "leaders": leaders if playing and len(leaders) < len(sides) else [],
    }
