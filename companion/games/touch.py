"""Playing a game by touch on its drawn board, for any game whose legal actions can be
listed: the game says, for each legal action, the taps that make it (points of its drawing
and buttons), and the generic touch play offers the next taps of every action still
possible until one action is complete.

    rules.paths(state, Move(side=0, source=3, target=7))   # ((3-key, 7-key),)
    step = next_taps(options, taps=("p3",))
    step.spots, step.buttons, step.complete                   # what may come next, or done

Pure: nothing here draws or touches a device.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.games.contract import JSON, Action
from companion.games.drawing import Drawing


@dataclass(frozen=True, slots=True)
class Press:
    """A button in a touch path ('Bring in two', 'Clockwise', 'Pass')."""

    label: str


DONE = "Done"
"""The button that makes an action whose taps are the start of longer ones."""

Tap = str | Press
"""A spot's key, or a button."""
Path = tuple[Tap, ...]


@dataclass(frozen=True, slots=True)
class Hint:
    action: Action
    why: str
    """One sentence: what the move does for the player."""


class TouchRules(Protocol):
    """What a game gives to be played by touch on its drawing."""

    def legal_actions(self, state: Any) -> Sequence[Action]:
        """Every action the rules accept now, for whoever's decision it is."""
        ...

    def paths(self, state: Any, action: Action) -> tuple[Path, ...]:
        """The ways to make `action` by touch; the first is the one a hint shows."""
        ...

    def drawing(self, view: JSON, chosen: Sequence[str], offered: frozenset[str]) -> Drawing:
        """The board of `view` (the engine's view), `chosen` spots and `offered` ones marked."""
        ...

    def side_lines(self, view: JSON) -> tuple[str, ...]:
        """One short line per side for the screen ('Ada: 7 markers, 2 figures')."""
        ...

    def opponent_move(self, state: Any, strength: int, rng: random.Random) -> Action:
        """The companion's move at `strength` (1 weakest); deterministic for a given rng."""
        ...

    def hint(self, state: Any) -> Hint: ...

    @property
    def strengths(self) -> tuple[int, int, int]:
        """The companion's weakest, default and strongest strength."""
        ...

    def setup_for(self, names: Sequence[str], seed: int) -> JSON:
        """A setup for a game between `names` (2 or more), dealt from `seed`."""
        ...

    def game_clock(self, setup: JSON) -> JSON | None:
        """The game clock `setup` asks for (Referee.start's `game_clock`: a time control
        per side and their order), or None for a game without one."""
        ...

    @property
    def players(self) -> tuple[int, int]:
        """The fewest and most players the game takes."""
        ...

    @property
    def option_rows(self) -> tuple[tuple[str, str], ...]:
        """(label, key) of the game's options (companion/games/options.py) the New game
        screen shows as rows of their own, besides How many and Companion: MnemoGame's
        Words. Empty for none."""
        ...


@dataclass(frozen=True, slots=True)
class TouchStep:
    """Where a sequence of taps stands."""

    spots: frozenset[str]
    """Spots that would continue some action."""
    buttons: tuple[str, ...]
    """Buttons that would continue some action, in a stable order."""
    complete: Action | None
    """The action the taps make, when they make exactly one."""
    dead: bool
    """The taps continue no action: the screen starts again from the tap just made."""
    ready: Action | None = None
    """An action the taps already make while longer ones go on from them: the DONE button
    makes it."""


Options = Mapping[Action, tuple[Path, ...]]


def options_of(rules: TouchRules, state: Any) -> dict[Action, tuple[Path, ...]]:
    return {action: rules.paths(state, action) for action in rules.legal_actions(state)}


def next_taps(options: Options, taps: Sequence[Tap]) -> TouchStep:
    """What may follow `taps` among the actions' paths: an action is complete when one of its
    paths is exactly the taps; the buttons keep the order in which the paths name them."""
    taps = tuple(taps)
    spots: set[str] = set()
    buttons: list[str] = []
    complete: list[Action] = []
    for action, paths in options.items():
        for path in paths:
            if path[: len(taps)] != taps:
                continue
            if len(path) == len(taps):
                complete.append(action)
                continue
            following = path[len(taps)]
            if isinstance(following, Press):
                if following.label not in buttons:
                    buttons.append(following.label)
            else:
                spots.add(following)
    alive = bool(spots or buttons or complete)
    if len(set(complete)) != 1:
        return TouchStep(frozenset(spots), tuple(buttons), None, dead=not alive)
    if not spots and not buttons:
        return TouchStep(frozenset(), (), complete[0], dead=False)
    return TouchStep(frozenset(spots), (*buttons, DONE), None, dead=False, ready=complete[0])


def only_spots(taps: Iterable[Tap]) -> tuple[str, ...]:
    """The spot keys among `taps`, for marking them on the board."""
    return tuple(tap for tap in taps if isinstance(tap, str))
