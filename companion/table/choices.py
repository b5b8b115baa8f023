"""What the New game screen asks of a game: its rows of options, and the choices they make.

Every game's seat (companion/table/play.py) gives a `NewGameForm`; the screen
(companion/ui/screens/new_game.py) draws the Players row for all of them, the Opponent row
when the companion can play, each row of the form, and a Deal row when the game is dealt.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from companion.games.options import TIME_CONTROLS, time_control_text

if TYPE_CHECKING:
    from companion.config import Config

RGBA = tuple[float, float, float, float]
DEAL_LIMIT = 1_000_000
"""Deals are numbered below this: short enough to read off the screen and type again."""


def game_clock(controls: Sequence[str]) -> dict[str, Any] | None:
    """The game clock for each side's time control (Referee.start's `game_clock`), or None
    for an untimed game; ValueError when some sides are timed and others not."""
    if len(controls) < 2 or not any(controls):
        return None
    if not all(controls):
        raise ValueError("give every side a time on the clock, or none")
    return {"controls": list(controls), "order": list(range(len(controls)))}


def new_deal() -> int:
    return secrets.randbelow(DEAL_LIMIT)


CLOCK_OPTIONS: tuple[tuple[str, str], ...] = tuple((time_control_text(t), t) for t in TIME_CONTROLS)
"""The Clock row's (button text, time control) for each of the clock's presets."""


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

    def sides(self, picks: Mapping[str, Any]) -> int:
        """How many sides the picks make a game of."""
        ...

    def options_of(self, picks: Mapping[str, Any], config: Config) -> Mapping[str, Any]:
        """The game's options (companion/games/options.py) as the rows set them, by key:
        the All options page opens on these."""
        ...

    def choices(
        self,
        picks: Mapping[str, Any],
        players: Players,
        house_rules: Mapping[str, Any],
        options: Mapping[str, Any],
    ) -> Any:
        """The choices its seat begins a game from, with the house rules that differ from
        the book's and the options set on the All options page (companion/games/options.py),
        which have the last word over the rows; ValueError for picks that make none."""
        ...
