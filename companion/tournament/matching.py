"""Which pairing a table's result belongs to, or why it is ignored. Pure.

A result (the `<prefix>/<board>/result` message, docs/mqtt.md) belongs to the pairing on
its board in its division's current round that still waits for a result, when the same
players sat at the table (in any seating: the result is put in the pairing's order) and
played the division's game. Anything else is ignored, saying why in one line: a game
already recorded (the same record hash), a board with no game waiting, other players.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.publish.wire import WireError, validate
from companion.tournament.model import Event, Outcome, Pairing, names_listed, same_name


@dataclass(frozen=True, slots=True)
class TableResult:
    """A result as a table published it."""

    board: str
    game: str
    game_id: int
    names: tuple[str, ...]
    scores: tuple[float, ...] | None
    winners: tuple[int, ...]
    record_hash: str

    @classmethod
    def parse(cls, payload: bytes) -> TableResult:
        """The result in a message; WireError (one line) for anything that is not one."""
        try:
            data: Any = json.loads(payload)
        except (ValueError, UnicodeDecodeError) as err:
            raise WireError(f"a result that is not JSON ({err})") from None
        validate("result", data)
        return cls.of(data)

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> TableResult:
        scores = data["scores"]
        return cls(
            board=data["board"],
            game=data["game"],
            game_id=data["game_id"],
            names=tuple(data["names"]),
            scores=None if scores is None else tuple(float(s) for s in scores),
            winners=tuple(data["winners"]),
            record_hash=data["hash"],
        )


@dataclass(frozen=True, slots=True)
class Matched:
    pairing: Pairing
    outcome: Outcome
    """In the pairing's seating order."""


@dataclass(frozen=True, slots=True)
class Ignored:
    reason: str
    """One line, for the log."""


def match(event: Event, result: TableResult) -> Matched | Ignored:
    board = result.board
    if any(p.result and p.result.record_hash == result.record_hash for p in event.pairings):
        return Ignored(f"board {board}: game {result.game_id}'s result is already recorded")
    here = [p for p in event.current_pairings() if p.board == board]
    if not here:
        return Ignored(f"board {board}: no pairing in the current round; result ignored")
    waiting = [p for p in here if p.is_open]
    who = names_listed(result.names)
    if not waiting:
        return Ignored(
            f"board {board}: its game of round {here[0].round} already has a result; "
            f"result of {who} (game {result.game_id}) ignored"
        )
    pairing = waiting[0]
    division = event.division(pairing.division)
    if result.game != division.game:
        return Ignored(
            f"board {board}: a game of {result.game}, but {division.name} plays "
            f"{division.game}; result ignored"
        )
    order = seating(pairing.seats, result.names)
    if order is None:
        return Ignored(
            f"board {board}: the result names {who}, its pairing is "
            f"{names_listed(pairing.seats)}; result ignored"
        )
    scores = None if result.scores is None else tuple(result.scores[i] for i in order)
    # Winners that are not a seat (a game's board, -2) win nothing in the standings.
    winners = tuple(seat for seat, i in enumerate(order) if i in result.winners)
    return Matched(pairing, Outcome(scores, winners))


def seating(seats: tuple[str, ...], names: tuple[str, ...]) -> list[int] | None:
    """For each seat of the pairing, the index of the same player in `names`; None unless
    `names` are exactly the pairing's players."""
    if len(seats) != len(names):
        return None
    order: list[int] = []
    for player in seats:
        found = [i for i, name in enumerate(names) if same_name(name, player) and i not in order]
        if not found:
            return None
        order.append(found[0])
    return order
