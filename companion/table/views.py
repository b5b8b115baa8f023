"""What every game's touchscreen shows of the table the same way: the buttons of the
decisions awaited, the alerts raised when the table does not match the rules, a takeback
being asked. Plain data; the screens only draw it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from companion.games.drawing import Drawing


@dataclass(frozen=True, slots=True)
class Button:
    key: str
    label: str
    needs_place: bool
    danger: bool


@dataclass(frozen=True, slots=True)
class AlertView:
    zone: str
    text: str
    rule: str
    put_right: bool
    seen: tuple[str, ...] = ()
    """What the camera sees on the zone (the board shows the rules' contents elsewhere)."""


@dataclass(frozen=True, slots=True)
class TakebackView:
    """A takeback being asked: it happens once every side has agreed."""

    move: str
    """The move it would take back, e.g. 'claim on place 13'."""
    agreed: tuple[int, ...]
    waiting: tuple[int, ...]
    """The sides yet to agree."""


@dataclass(frozen=True, slots=True)
class CameraStatus:
    """Whether a camera watches the table: 'watching', 'off' (no camera in this game) or
    'lost' (it stopped, for `why`; the game goes on by touch)."""

    state: Literal["watching", "off", "lost"]
    why: str = ""

    @property
    def watching(self) -> bool:
        return self.state == "watching"

    @property
    def lost(self) -> bool:
        return self.state == "lost"

    def __str__(self) -> str:
        return f"lost: {self.why}" if self.lost else self.state


WATCHING = CameraStatus("watching")
NO_CAMERA = CameraStatus("off")


RGB = tuple[float, float, float]


@dataclass(frozen=True, slots=True)
class EndView:
    """What the end screen shows of any game: the result, a table of figures a column per
    side, and either the scores after every move (a plot) or the final board."""

    result: str
    names: tuple[str, ...]
    rows: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """(what, one value per side); a row called 'Total' is in bold."""
    history: tuple[tuple[int, ...], ...] = ()
    colours: tuple[RGB, ...] = ()
    """Each side's line on the plot."""
    drawing: Drawing | None = None
    """The final board, shown instead of the plot."""


def names_in(view: Mapping[str, Any]) -> list[str]:
    """The sides' names, from a view that lists `sides` with a `name` each."""
    sides = view.get("sides")
    if not isinstance(sides, list):
        return []
    return [str(side.get("name", "")) for side in sides if isinstance(side, dict)]
