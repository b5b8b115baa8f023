"""The camera's view of the board against the rules' view, and the hand moves between two boards.

A board here is zone -> crystal colours ('17' -> ('red', 'yellow'), 'diamond-2' -> ('blue',)),
as the board reader and the temporal filter report it; a zone that is absent is empty.

    hand_moves({"17": ("red",)}, {"17": ("red", "yellow"), "4": ("blue",)})
    # [HandMove('4', 'blue', puts=True), HandMove('17', 'yellow', puts=True)]
    check("17", ("blue",), {"17": ("red",)})     # Mismatch('17', seen=('blue',), expected=('red',))
    on_the_way(("red",), before=(), after=("red", "yellow"))    # True: one of two put down
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

Contents = tuple[str, ...]
Board = Mapping[str, Sequence[str]]


@dataclass(frozen=True, slots=True)
class HandMove:
    zone: str
    colour: str
    puts: bool
    """True when the hand puts the crystal down, False when it picks it up."""


@dataclass(frozen=True, slots=True)
class Mismatch:
    zone: str
    seen: Contents
    """What the camera has committed for the zone."""
    expected: Contents
    """What the rules say lies there."""

    def text(self) -> str:
        return (
            f"{zone_name(self.zone)}: the camera sees {contents_text(self.seen)}, "
            f"the rules expect {contents_text(self.expected)}"
        )


def zone_order(key: str) -> tuple[int, int]:
    """Places by number, then the claim diamonds."""
    if key.isdigit():
        return (0, int(key))
    tail = key.rsplit("-", 1)[-1]
    return (1, int(tail) if tail.isdigit() else 0)


def hand_moves(table: Board, wanted: Board) -> list[HandMove]:
    """The crystals to pick up and put down to turn `table` into `wanted`, zone by zone in board
    order; on each zone the pick-ups come first, so that no zone ever holds more crystals
    than before or after."""
    moves: list[HandMove] = []
    for zone in sorted(set(table) | set(wanted), key=zone_order):
        now, then = Counter(table.get(zone, ())), Counter(wanted.get(zone, ()))
        moves.extend(HandMove(zone, c, puts=False) for c in sorted((now - then).elements()))
        moves.extend(HandMove(zone, c, puts=True) for c in sorted((then - now).elements()))
    return moves


def contents(board: Board, zone: str) -> Contents:
    return tuple(sorted(board.get(zone, ())))


def check(zone: str, seen: Sequence[str], expected: Board) -> Mismatch | None:
    """A Mismatch when what the camera saw on `zone` is not what the rules expect there."""
    want = contents(expected, zone)
    return None if tuple(sorted(seen)) == want else Mismatch(zone, tuple(sorted(seen)), want)


def on_the_way(seen: Sequence[str], before: Sequence[str], after: Sequence[str]) -> bool:
    """Whether `seen` can be a moment in the hands' work from `before` to `after`: it keeps
    what both have, and holds nothing that neither has."""
    now, start, end = Counter(seen), Counter(before), Counter(after)
    return start & end <= now <= start | end


def zone_name(key: str) -> str:
    if key.isdigit():
        return f"place {key}"
    return f"claim diamond {key.rsplit('-', 1)[-1]}"


def contents_text(crystals: Sequence[str]) -> str:
    return ", ".join(crystals) if crystals else "nothing"


def seen_text(changes: Iterable[tuple[str, Sequence[str]]]) -> str:
    """'place 17 red, yellow; claim diamond 1 blue; place 4 empty' for (zone, contents) pairs."""
    return "; ".join(
        f"{zone_name(zone)} {', '.join(crystals) if crystals else 'empty'}"
        for zone, crystals in changes
    )
