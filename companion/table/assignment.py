"""What the tournament hub says this table plays next (docs/tournament.md, "table
assignment"): read from its retained message, checked against its schema, shown on the
touchscreen and used to set up the game.

    assignment = assignment_from(payload)   # None for anything that is not one
    assignment.text                         # "Round 3: Ann vs Bo, MemWars, Club rapid setup"
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from companion.publish.wire import WireError, validate


@dataclass(frozen=True, slots=True)
class Assignment:
    text: str
    game: str | None
    setup: str | None
    """The named setup the division plays, or None."""
    names: tuple[str, ...]
    """The players in seating order; empty when the table has no game this round."""
    played: bool


def assignment_from(payload: bytes) -> Assignment | None:
    """The assignment in a message, or None for an empty (retracted) or bad one."""
    if not payload:
        return None
    try:
        data = json.loads(payload)
        validate("assignment", data)
    except (ValueError, WireError):
        return None
    return Assignment(
        text=str(data["text"]),
        game=data.get("game"),
        setup=data.get("setup"),
        names=tuple(str(name) for name in data.get("names") or ()),
        played=bool(data.get("played")),
    )


def assignment_topic(prefix: str, board: str) -> str:
    """The topic of any hub's assignment for `board`: one level for the hub's id."""
    return f"{prefix}/+/table/{board}"
