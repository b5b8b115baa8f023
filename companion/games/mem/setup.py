"""What the players agree before a MeM game: which game, who plays, the board (dealt from a
seed or given), the first player, whether a game clock runs, and house rules. Every problem
is a BadSetup naming the field.

    setup = parse_setup({"game": "mem", "sides": [{"name": "Ada"}, {"name": "Bo"}], "seed": 7})
    setup = parse_setup({"game": "solitaire", "sides": [{"name": "Ada"}], "board": "ABCD/..."})
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.games.contract import JSON, BadSetup
from companion.games.mem.colours import BOX
from companion.games.mem.rules import HouseRules
from companion.games.mem.text import BoardTextError, format_board, parse_board
from companion.games.sides import side_names


class Game(Enum):
    SOLITAIRE = "solitaire"
    """MEM-Solitaire (MEM-R4): one player, the longest pattern; 16 stones win."""
    MINI = "mini"
    """Mini-MEM (MEM-R5): two moves a turn or none; the most stones win."""
    MEM = "mem"
    """The MEM game (MEM-R10): move, capture, move then capture, or pass; blocks."""


TITLES = {Game.SOLITAIRE: "MEM-Solitaire", Game.MINI: "Mini-MEM", Game.MEM: "The MEM game"}
"""Each game's name as the rule book gives it, for screens and summaries."""


@dataclass(frozen=True, slots=True)
class Setup:
    game: Game
    names: tuple[str, ...]
    seed: int
    given_board: tuple[int, ...] | None
    """A board entered by hand (a physical deal, a problem), or None to deal from the seed."""
    agreed_first: int | None
    rules: HouseRules
    timer: bool = False
    """A game clock runs: a player whose time runs out is told by a `time_expired` action
    (MEM-A16). Never in MEM-Solitaire: a clock needs two players."""

    @property
    def side_count(self) -> int:
        return len(self.names)

    @property
    def moves_per_turn(self) -> int:
        return 2 if self.game is Game.MINI else 1

    @property
    def captures(self) -> bool:
        """Whether captures and blocks are part of this game (MEM-R10, MEM-A15)."""
        return self.game is Game.MEM or self.rules.variant_captures

    def board(self) -> tuple[int, ...]:
        """The starting board: the given one, or the box's 32 stones shuffled by the seed
        (MEM-S1)."""
        if self.given_board is not None:
            return self.given_board
        stones = list(BOX)
        random.Random(f"mem:board:{self.seed}").shuffle(stones)
        return tuple(stones)

    def first_player(self) -> int:
        """The setup's choice, or a draw from the seed (MEM-S2, MEM-A12)."""
        if self.agreed_first is not None:
            return self.agreed_first
        if self.side_count == 1:
            return 0
        return random.Random(f"mem:first:{self.seed}").randrange(self.side_count)

    def to_dict(self) -> JSON:
        out: JSON = {
            "game": self.game.value,
            "sides": [{"name": n} for n in self.names],
            "seed": self.seed,
            "house_rules": self.rules.to_dict(),
        }
        if self.given_board is not None:
            out["board"] = format_board(self.given_board)
        if self.agreed_first is not None and self.side_count > 1:
            out["first_player"] = self.agreed_first
        if self.timer:
            out["timer"] = True
        return out


_KEYS = {"game", "sides", "seed", "board", "first_player", "house_rules", "timer"}


def parse_setup(data: Mapping[str, Any]) -> Setup:
    if not isinstance(data, Mapping):
        raise BadSetup("setup", "must be an object")
    unknown = set(data) - _KEYS
    if unknown:
        raise BadSetup(sorted(unknown)[0], "is not a setup key")
    rules = HouseRules.from_dict(data.get("house_rules", {}))
    try:
        game = Game(data.get("game", "mem"))
    except ValueError:
        raise BadSetup("game", "must be one of 'solitaire', 'mini', 'mem'") from None
    names = _names(data.get("sides"), game)
    seed = data.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise BadSetup("seed", f"must be a whole number 0 .. 2**63 - 1, got {seed!r}")
    board = None
    if data.get("board") is not None:
        if not isinstance(data["board"], str):
            raise BadSetup("board", "must be a BOARD text (docs/mem-rules.md)")
        try:
            board = parse_board(data["board"])
        except BoardTextError as err:
            raise BadSetup("board", str(err)) from None
        if sum(1 for c in board if c) < 2:
            raise BadSetup("board", "needs at least two stones")
    first = data.get("first_player")
    if len(names) == 1:
        if first not in (None, 0):
            raise BadSetup("first_player", "a solitaire game has only player 0")
        first = None
    elif rules.first_player == "AGREED":
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(names):
            raise BadSetup("first_player", "must be 0 or 1 under house rule mem.firstPlayer=AGREED")
    elif first is not None:
        raise BadSetup(
            "first_player",
            "is drawn from the seed; set house rule mem.firstPlayer to AGREED to name it",
        )
    timer = data.get("timer", False)
    if not isinstance(timer, bool):
        raise BadSetup("timer", "must be true or false")
    if timer and len(names) == 1:
        raise BadSetup("timer", "MEM-Solitaire is played without a clock (a clock needs two)")
    return Setup(game, names, seed, board, first, rules, timer)


def _names(raw: Any, game: Game) -> tuple[str, ...]:
    want = 1 if game is Game.SOLITAIRE else 2
    return side_names(raw, fewest=want, most=want, game=game.value)
