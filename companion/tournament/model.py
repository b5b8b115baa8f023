"""An event as read from its store: divisions, players, rounds, pairings and results.

Immutable values: the core's functions take an `Event` and return decisions; only the
shell (companion/tournament/event_store.py) reads and writes the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal, get_args

from companion.errors import UserError

System = Literal["swiss", "round-robin"]
SYSTEMS: Final[tuple[str, ...]] = get_args(System)
Source = Literal["table", "hand"]


def same_name(a: str, b: str) -> bool:
    """Names typed at a table and at the desk are the same name whatever their case and
    surrounding spaces."""
    return a.strip().casefold() == b.strip().casefold()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended, in the pairing's seating order."""

    scores: tuple[float, ...] | None
    """Each side's final score; None for a game that keeps no score."""
    winners: tuple[int, ...]
    """The seats that won; empty for a draw (or when nobody at the table won)."""

    def places(self, sides: int) -> tuple[int, ...]:
        """Each seat's place, 1 the best: the winners share first place; the others come
        after them, by score (higher first), equal scores (or none) sharing a place."""

        def ahead(i: int, j: int) -> bool:
            if (i in self.winners) != (j in self.winners):
                return i in self.winners
            if i in self.winners or self.scores is None:
                return False
            return self.scores[i] > self.scores[j]

        return tuple(1 + sum(ahead(j, i) for j in range(sides)) for i in range(sides))


@dataclass(frozen=True, slots=True)
class Correction:
    """A result changed at the desk after it was recorded: the outcome in force from then
    on. The result as first recorded is kept, and so is every earlier correction."""

    outcome: Outcome
    why: str
    recorded: str
    """UTC, ISO 8601 with a Z."""


@dataclass(frozen=True, slots=True)
class Result:
    as_recorded: Outcome
    """The outcome as first recorded (by the table, or typed at the desk)."""
    record_hash: str | None
    """The end of the game's hash chain as the table reported it; None for a result typed
    at the desk."""
    game_id: int | None
    """The game's number in the table's store; None for a result typed at the desk."""
    source: Source
    recorded: str
    """UTC, ISO 8601 with a Z."""
    order: int
    """Results are numbered as they arrive: ratings are replayed in this order."""
    corrections: tuple[Correction, ...] = ()
    """Changes made at the desk since, in order: the last one is in force."""

    @property
    def outcome(self) -> Outcome:
        """The outcome in force: the last correction's, else as recorded. Standings,
        ratings, exports and the hub use this one."""
        return self.corrections[-1].outcome if self.corrections else self.as_recorded

    @property
    def corrected(self) -> Correction | None:
        """The correction in force, if any."""
        return self.corrections[-1] if self.corrections else None


@dataclass(frozen=True, slots=True)
class Pairing:
    id: int
    division: str
    round: int
    board: str | None
    """None for a bye."""
    seats: tuple[str, ...]
    """The players in seating order; a bye has one."""
    result: Result | None = None

    @property
    def is_bye(self) -> bool:
        return self.board is None

    @property
    def is_open(self) -> bool:
        """A game waiting for its result."""
        return not self.is_bye and self.result is None


@dataclass(frozen=True, slots=True)
class Division:
    name: str
    game: str | None
    """The game's plugin name; None until `division D --game G` says it."""
    setup: str | None
    """A named setup (companion/table/setups.py), or None for the game's defaults."""
    system: System
    rounds: int | None
    """How many rounds are planned; None: as many as are paired (Swiss)."""
    sides: int
    """Players per game: 2, or 3 or 4 for Swiss pods."""
    players: tuple[str, ...] = ()
    """In the order they were added."""
    withdrawn: tuple[tuple[str, int], ...] = ()
    """The players withdrawn now, each with the first round they are not paired in."""

    def withdrawn_from(self, name: str) -> int | None:
        """The first round `name` is not paired in, if they have withdrawn."""
        return next((start for player, start in self.withdrawn if player == name), None)

    def playing(self, round_number: int) -> tuple[str, ...]:
        """The players to pair in round `round_number`: everyone not withdrawn by then."""
        out = {player for player, start in self.withdrawn if start <= round_number}
        return tuple(p for p in self.players if p not in out)


@dataclass(frozen=True, slots=True)
class Event:
    name: str
    hub: str
    """The hub's topic level: it publishes under <prefix>/<hub>/."""
    boards: tuple[str, ...]
    """The tables' board ids, in order; empty: table-1, table-2, ... as needed."""
    divisions: tuple[Division, ...] = ()
    pairings: tuple[Pairing, ...] = field(default=())
    """Every pairing, in the order it was made."""

    def division(self, name: str) -> Division:
        for division in self.divisions:
            if same_name(division.name, name):
                return division
        known = ", ".join(d.name for d in self.divisions) or "none yet"
        raise UserError(f"no division {name!r} (divisions: {known})")

    def pairings_of(self, division: str, round_number: int | None = None) -> list[Pairing]:
        return [
            p
            for p in self.pairings
            if p.division == division and (round_number is None or p.round == round_number)
        ]

    def current_round(self, division: str) -> int:
        """The last round paired in a division; 0 before the first."""
        return max((p.round for p in self.pairings_of(division)), default=0)

    def current_pairings(self) -> list[Pairing]:
        """Every division's current round."""
        return [
            p for d in self.divisions for p in self.pairings_of(d.name, self.current_round(d.name))
        ]

    def with_result(self, pairing_id: int, result: Result) -> Event:
        """The event once pairing `pairing_id` has `result` (as the file has it once the
        result is recorded)."""
        pairings = tuple(
            replace(p, result=result) if p.id == pairing_id else p for p in self.pairings
        )
        return replace(self, pairings=pairings)

    def results(self, division: str) -> list[Pairing]:
        """A division's games with a result, in the order the results arrived."""
        played = [p for p in self.pairings_of(division) if p.result is not None]
        return sorted(played, key=lambda p: p.result.order if p.result else 0)


def names_listed(names: Sequence[str]) -> str:
    """`Ann vs Bo`, `Ann vs Bo vs Cy`: the seats in order."""
    return " vs ".join(names)
