"""What the New game screen asks of a game: its rows of options, and the choices they make.

Every game's seat (companion/table/play.py) gives a `NewGameForm`; the screen
(companion/ui/screens/new_game.py) draws the Players row for all of them, the Opponent row
when the companion can play, each row of the form, and a Deal row when the game is dealt.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from companion.config import Config

RGBA = tuple[float, float, float, float]
DEAL_LIMIT = 1_000_000
"""Deals are numbered below this: short enough to read off the screen and type again."""


def new_deal() -> int:
    return secrets.randbelow(DEAL_LIMIT)


TIME_CONTROLS = ("", "5+3", "15+10", "30+30", "-!60")
"""Offered on the New game screen: none, blitz, rapid, classical, one minute a move (clock
notation, `companion clock --help`)."""
CLOCK_OPTIONS: tuple[tuple[str, str], ...] = tuple(
    ({"": "None", "-!60": "1 min/move"}.get(t, t), t) for t in TIME_CONTROLS
)
"""The Clock row's (button text, time control) for each of TIME_CONTROLS."""


def game_clock(time_control: str, sides: int) -> dict[str, Any] | None:
    """The game clock `Referee.start` runs for `sides` sides all on `time_control`; None
    without a time control, or for one side (a clock needs two)."""
    if not time_control or sides < 2:
        return None
    return {"controls": [time_control] * sides, "order": list(range(sides))}


@dataclass(frozen=True)
class ChoiceRow:
    """A row of buttons, one per option; the one pressed is the pick under `key`."""

    label: str
    key: str
    """Where the pick is kept; unique among every game's rows."""
    options: tuple[tuple[str, Any], ...]
    """(button text, value) for each option."""
    default: Any


@dataclass(frozen=True)
class Players:
    """The Players, Opponent and Deal rows, as the screen read them."""

    names: tuple[str, str]
    """The two names typed, stripped; '' where nothing was typed."""
    colours: tuple[str, str] = ("", "")
    companion: bool = False
    """The companion plays the last side."""
    deal: str = ""
    """The deal typed; '' for a random one."""


class NewGameForm(Protocol):
    @property
    def colours(self) -> Mapping[str, RGBA]:
        """The colours a side may pick, in the order a tap cycles them; empty when each
        seat has its own."""
        ...

    @property
    def companion(self) -> bool:
        """The companion can play a side: the Opponent row is shown."""
        ...

    @property
    def deal(self) -> bool:
        """The game is dealt from a number shown and typed again to repeat a deal."""
        ...

    def rows(self, config: Config) -> tuple[ChoiceRow, ...]:
        """The game's rows, most used first."""
        ...

    def solitaire(self, picks: Mapping[str, Any]) -> bool:
        """The picks make a game for one: the second name is not asked."""
        ...

    def choices(
        self, picks: Mapping[str, Any], players: Players, house_rules: Mapping[str, Any]
    ) -> Any:
        """The choices its seat begins a game from, with the house rules that differ from
        the book's; ValueError for picks that make none."""
        ...
