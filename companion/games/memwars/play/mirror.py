"""What the players at this table must lay for a move made at the other table of a remote
game: the move in words, then the crystals to put down or take off and the counters to lay,
turn or take, as the rules' board changed.

    mirror_instruction(before, note, colours)
    # 'Basil claims place 12: put a red crystal on place 12.'

A face-down counter is never named by its value: the other table's hidden value stays
hidden here too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.games.memwars import events as E
from companion.games.memwars.board_pieces import (
    PieceColours,
    counters_on_board,
    crystals_on_board,
)
from companion.games.memwars.narrate import narrate
from companion.games.memwars.state import State
from companion.games.zone_check import zone_name, zone_order
from companion.session import Notification


def mirror_instruction(before: State, note: Notification, colours: PieceColours) -> str:
    """The move and the table work it makes, in words; '' when the board does not change."""
    work = board_work(before, note.state, colours)
    if not work:
        return ""
    setup = note.state.setup
    said = " ".join(
        s for s in (narrate(e, setup) for e in note.events if not isinstance(e, E.TurnStarted)) if s
    )
    todo = "; ".join(work)
    return f"{said.rstrip('.!')}: {todo}." if said else f"{todo[:1].upper()}{todo[1:]}."


def board_work(before: State, after: State, colours: PieceColours) -> list[str]:
    """What a hand does to turn the rules' board `before` into `after`, zone by zone."""
    old = crystals_on_board(before, colours)
    new = crystals_on_board(after, colours)
    work = []
    for zone in sorted(set(old) | set(new), key=zone_order):
        missing = Counter(new.get(zone, ())) - Counter(old.get(zone, ()))
        extra = Counter(old.get(zone, ())) - Counter(new.get(zone, ()))
        if missing:
            work.append(f"put {_crystals(missing)} on {zone_name(zone)}")
        if extra:
            work.append(f"take {_crystals(extra)} off {zone_name(zone)}")
    old_counters, new_counters = counters_on_board(before), counters_on_board(after)
    for zone in sorted(set(old_counters) | set(new_counters), key=zone_order):
        was, now = old_counters.get(zone, ()), new_counters.get(zone, ())
        if Counter(was) == Counter(now):
            continue
        if not now:
            work.append(f"take the counters off {zone_name(zone)}")
        else:
            work.append(f"leave {_counters(now)} on {zone_name(zone)}")
    return work


def _crystals(counts: Counter[str]) -> str:
    words = [
        f"{n} {colour} crystals" if n > 1 else f"a {colour} crystal"
        for colour, n in sorted(counts.items())
    ]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _counters(values: Sequence[int | None]) -> str:
    down = sum(1 for v in values if v is None)
    up = sorted(v for v in values if v is not None)
    parts = []
    if down:
        parts.append("a face-down counter" if down == 1 else f"{down} face-down counters")
    parts.extend(f"a face-up {v}" for v in up)
    return " and ".join(parts)
