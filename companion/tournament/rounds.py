"""The next round of a division: checked, paired and given its boards. Pure.

planned = next_round(event, "Open", taken=set())
planned.round, planned.tables        # [(board or None for a bye, seats), ...]
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from itertools import count, islice

from companion.errors import UserError
from companion.tournament import pairing
from companion.tournament.model import Event
from companion.tournament.standings import match_points, standings

BOARD_PREFIX = "table-"
"""Boards are table-1, table-2, ... unless the event lists its own."""


@dataclass(frozen=True, slots=True)
class PlannedRound:
    division: str
    round: int
    tables: tuple[tuple[str | None, tuple[str, ...]], ...]
    """(board, seats) per game, the top table first, then (None, (player,)) per bye."""


def planned_rounds(event: Event, division: str) -> int | None:
    """How many rounds a division plays: as set, or a whole round robin; None for a Swiss
    with no number set."""
    found = event.division(division)
    if found.system == "round-robin":
        whole = pairing.round_robin_rounds(len(found.players))
        return min(found.rounds, whole) if found.rounds else whole
    return found.rounds


def next_round(event: Event, name: str, taken: Collection[str] = ()) -> PlannedRound:
    """The next round of division `name`; `taken`: boards given to other divisions' rounds
    planned with this one. A UserError says why a round cannot be paired yet."""
    division = event.division(name)
    name = division.name
    if division.game is None:
        raise UserError(
            f"division {name} has no game yet: companion tournament division {name} --game GAME"
        )
    players = division.players
    current = event.current_round(name)
    # Withdrawn players are not paired; what they played still counts for everyone.
    playing = division.playing(current + 1)
    if len(playing) < division.sides:
        withdrawn = len(players) - len(playing)
        among = f" ({withdrawn} withdrawn)" if withdrawn else ""
        raise UserError(
            f"division {name} has {len(playing)} player(s) to pair{among}; a game needs "
            f"{division.sides}"
        )
    waiting = [p.board or "" for p in event.pairings_of(name, current) if p.is_open]
    if waiting:
        raise UserError(
            f"round {current} of {name} still waits for {len(waiting)} result(s): "
            + ", ".join(waiting)
        )
    limit = planned_rounds(event, name)
    if limit is not None and current >= limit:
        raise UserError(f"all {limit} rounds of {name} are paired")
    games = event.pairings_of(name)
    history = pairing.History.of([p.seats for p in games])
    if division.system == "round-robin":
        # The schedule stands: a withdrawn player's opponent has a bye, as against the
        # empty slot of an odd number.
        absent = set(players) - set(playing)
        plan = pairing.round_robin(players, current + 1, absent=absent)
    else:
        ranked = [row.name for row in standings(players, games) if row.name in playing]
        points = match_points(players, games)
        if division.sides == 2:
            plan = pairing.swiss(ranked, points, history)
        else:
            plan = pairing.pods(ranked, points, history, division.sides)
    boards = free_boards(event, taken, len(plan.tables))
    tables = [
        *((board, seats) for board, seats in zip(boards, plan.tables, strict=True)),
        *((None, (bye,)) for bye in plan.byes),
    ]
    return PlannedRound(name, current + 1, tuple(tables))


def free_boards(event: Event, taken: Collection[str], needed: int) -> list[str]:
    """The first `needed` boards not playing a game still waiting for its result."""
    busy = {p.board for p in event.pairings if p.is_open} | set(taken)
    if event.boards:
        free = [board for board in event.boards if board not in busy]
        if len(free) < needed:
            raise UserError(
                f"the round needs {needed} table(s) and only {len(free)} of the event's "
                f"{len(event.boards)} are free"
            )
        return free[:needed]
    generated = (f"{BOARD_PREFIX}{n}" for n in count(1))
    return list(islice((b for b in generated if b not in busy), needed))
