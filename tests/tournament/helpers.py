"""Pairings with results, written as briefly as a score sheet."""

from __future__ import annotations

from itertools import count

from companion.tournament.model import Outcome, Pairing, Result

_ids = count(1)


def game(
    seats: tuple[str, ...],
    scores: tuple[float, ...] | None,
    winners: tuple[int, ...],
    round_number: int = 1,
    division: str = "Open",
) -> Pairing:
    """A 2-or-more-side game with its result."""
    n = next(_ids)
    result = Result(Outcome(scores, winners), None, None, "hand", "2026-01-01T00:00:00Z", n)
    return Pairing(n, division, round_number, f"table-{n}", seats, result)


def bye(name: str, round_number: int = 1, division: str = "Open") -> Pairing:
    return Pairing(next(_ids), division, round_number, None, (name,))
