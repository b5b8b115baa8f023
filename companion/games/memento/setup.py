"""What the players agree before a game of memento ludis: who plays (2 to 4, in clockwise
order), a seed, who starts, and house rules. Every problem is a BadSetup naming the field.

    setup = parse_setup({"sides": [{"name": "Ada"}, {"name": "Bo"}], "seed": 7})
    setup.first_player()        # drawn from the seed unless "first_player" is given
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.contract import JSON, BadSetup
from companion.games.memento.board import Board, board_for
from companion.games.memento.rules import HouseRules
from companion.games.sides import side_names

MARKERS = 9
"""Colour markers per player (ML-S1)."""


def stones_for(players: int) -> int:
    """The shared pool of game stones (ML-S2): 11 for 2 or 3 players, 15 for 4."""
    return 15 if players == 4 else 11


@dataclass(frozen=True, slots=True)
class Setup:
    names: tuple[str, ...]
    """In clockwise order: play passes from each to the next (ML-S4)."""
    seed: int
    agreed_first: int | None
    rules: HouseRules

    @property
    def side_count(self) -> int:
        return len(self.names)

    @property
    def stones(self) -> int:
        return stones_for(len(self.names))

    @property
    def board(self) -> Board:
        r = self.rules
        return board_for(r.geometry, r.lines, r.wrap_cost)

    def first_player(self) -> int:
        """The setup's choice, or a draw from the seed: the rule book says only that the
        starting player "is chosen" (ML-S4)."""
        if self.agreed_first is not None:
            return self.agreed_first
        return random.Random(f"memento:first:{self.seed}").randrange(self.side_count)

    def to_dict(self) -> JSON:
        out: JSON = {
            "sides": [{"name": n} for n in self.names],
            "seed": self.seed,
            "house_rules": self.rules.to_dict(),
        }
        if self.agreed_first is not None:
            out["first_player"] = self.agreed_first
        return out


_KEYS = {"game", "sides", "seed", "first_player", "house_rules"}


def parse_setup(data: Mapping[str, Any]) -> Setup:
    if not isinstance(data, Mapping):
        raise BadSetup("setup", "must be an object")
    unknown = set(data) - _KEYS
    if unknown:
        raise BadSetup(sorted(unknown)[0], "is not a setup key")
    if data.get("game", "memento") != "memento":
        raise BadSetup("game", "must be 'memento' (or left out)")
    rules = HouseRules.from_dict(data.get("house_rules", {}))
    names = _names(data.get("sides"))
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise BadSetup("seed", f"must be a whole number 0 .. 2**63 - 1, got {seed!r}")
    first = data.get("first_player")
    if first is not None and (
        isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(names)
    ):
        raise BadSetup("first_player", f"must be a player index 0 .. {len(names) - 1}")
    return Setup(names, seed, first, rules)


def _names(raw: Any) -> tuple[str, ...]:
    return side_names(raw, fewest=2, most=4, game="memento ludis")
