"""What lies on a MemWars board, as a camera over it would see it: crystals by colour on each
place and claim diamond, and the topology counters on each place.

Zones are named the way the board reader names them: '1'..'100' for places, 'diamond-1' ..
'diamond-4' for the quadrant claim diamonds.

    colours = PieceColours(sides=("red", "blue"), challenge="yellow")
    crystals_on_board(state, colours)      # {'17': ('red', 'yellow'), 'diamond-1': ('red',)}
    counters_on_board(state)               # {'33': (5,), '89': (None, None)}: None is face down
                                           # (counters a holder has taken are not on it)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.memwars.state import CHALLENGE, State

Contents = tuple[str, ...]
"""Colour names of the crystals on one zone, sorted (the board reader's order)."""


@dataclass(frozen=True, slots=True)
class PieceColours:
    sides: tuple[str, ...]
    """Each side's crystal colour, by side index."""
    challenge: str

    def of(self, crystal: int) -> str:
        """The colour of a crystal as the state holds it: a side index or CHALLENGE."""
        return self.challenge if crystal == CHALLENGE else self.sides[crystal]


def piece_colours(
    side_count: int, usual: Sequence[str], challenge: str, palette: Sequence[str]
) -> PieceColours:
    """The usual sides' colours first, then colours from `palette` that nobody uses yet.

    ValueError when the palette runs out."""
    spare = [c for c in palette if c not in usual and c != challenge]
    colours = (*usual, *spare)[:side_count]
    if len(colours) < side_count:
        raise ValueError(f"only {len(colours)} crystal colours for {side_count} sides")
    return PieceColours(tuple(colours), challenge)


def crystals_on_board(state: State, colours: PieceColours) -> dict[str, Contents]:
    """Zone -> its crystals, for the zones that hold any."""
    board: dict[str, Contents] = {}
    for number, place in enumerate(state.places):
        if number and place.crystals:
            board[str(number)] = tuple(sorted(colours.of(c) for c in place.crystals))
    diamonds: dict[int, list[str]] = {}
    for side, info in enumerate(state.sides):
        for quadrant in info.diamonds:
            diamonds.setdefault(quadrant, []).append(colours.sides[side])
    for quadrant, held in sorted(diamonds.items()):
        board[f"diamond-{quadrant}"] = tuple(sorted(held))
    return board


def counters_on_board(state: State) -> dict[str, tuple[int | None, ...]]:
    """Place -> the topology counters on it as they lie: a face-down counter shows no value.
    Counters the holder of a won place has taken are off the board (MW-T7)."""
    return {
        str(number): tuple(c.value if c.face_up else None for c in place.counters)
        for number, place in enumerate(state.places)
        if number and place.counters and not place.counters_taken
    }
