"""What a game brings to the product besides its engine: everything the generic layers (the
UI, the stream, the display page, the commands, the camera) ask about a game, so that none
of them names one.

Each game's package has a `plugin.py` whose `PLUGIN` satisfies `GamePlugin`; the registry
(companion/games/__init__.py) finds it by name:

    plugin = find_plugin("mem")
    plugin.engine.new_game(plugin.example_setups()[0])
    say = plugin.narrator(state); say(event)      # a sentence for the ticker, or ""
    plugin.text_board(engine.view(state, "spectator"))  # the board as lines for a terminal
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from companion.games.camera import CameraProfile
from companion.games.contract import JSON, Action, Event, GameEngine
from companion.games.drawing import Drawing
from companion.games.house_rules import HouseRule
from companion.games.options import GameOption
from companion.games.private_inputs import PrivateInput
from companion.games.touch import TouchRules
from companion.games.verdicts import Verdict

Narrator = Callable[[Event], str]
"""A sentence per event for a ticker or a log; empty for events not worth one."""


class GamePlugin(Protocol):
    """One game, as the rest of the product sees it."""

    @property
    def name(self) -> str:
        """The game's id in setups, records, topics and commands: `companion rules <name>`."""
        ...

    @property
    def title(self) -> str:
        """The game's name for people."""
        ...

    @property
    def engine(self) -> GameEngine[Any]: ...

    @property
    def house_rules(self) -> Sequence[HouseRule]:
        """Every house rule, in the order `companion rules <name>` lists them."""
        ...

    @property
    def options(self) -> Sequence[GameOption]:
        """Every option the players agree before a game besides its house rules (board,
        depth, scoring...), grouped as the rule book groups them: the All options page,
        setup files and `companion setup new <name>` list them in this order."""
        ...

    @property
    def rules_doc(self) -> str:
        """The file under docs/ that explains every rule id a refusal can name."""
        ...

    @property
    def rule_prefix(self) -> str:
        """What every rule id of the game starts with (``MW-``, ``MEM-``)."""
        ...

    @property
    def secret_actions(self) -> frozenset[str]:
        """The action kinds that carry a hidden value: a refusal of one may name the value,
        so a spectator hears only that a move was refused."""
        ...

    @property
    def scored(self) -> bool:
        """True when the view gives each side's score as `scores.sides[i].total`."""
        ...

    @property
    def board_file(self) -> str | None:
        """The packaged board file (vision/boards/) the camera reads and `companion print
        board` prints; None for a game printed from its drawing."""
        ...

    @property
    def camera(self) -> CameraProfile | None:
        """How its board is set up under the camera (companion/games/camera.py); None for a
        game the camera does not read."""
        ...

    @property
    def commands(self) -> tuple[str, ...]:
        """Modules with a `register(subparsers)` that add the game's own `companion`
        commands; imported when the command line is built."""
        ...

    @property
    def table(self) -> str:
        """The module whose `SEAT` begins a game and takes it up at the table
        (companion/table/play.py)."""
        ...

    @property
    def screen(self) -> str:
        """The app's live screen for it, as ``module:Class``: imported when the app is
        built, it loads its own layout."""
        ...

    @property
    def page(self) -> str | None:
        """The game's own module for the web pages, a file in its package's web/ folder: it
        draws the board and the sides' panels; None for a game the pages draw from its
        drawing (`drawing`)."""
        ...

    @property
    def deck(self) -> bool:
        """True when the game is played with a card deck (its quadrant names go on the
        printed board)."""
        ...

    def narrator(self, state: Any) -> Narrator:
        """Sentences for the events of the game in `state` (names come from its setup). They
        say only what every viewer may know."""
        ...

    def verdicts(self, setup: JSON, events: Sequence[tuple[int, Event]]) -> Sequence[Verdict]:
        """What the table showed each side knew, or did not, of a card (a fact stated
        wrongly, a challenge lost, a bluff), from a game's setup and its events with the
        action each followed; none for a game played without cards."""
        ...

    def private_inputs(self, state: Any, side: int) -> Sequence[PrivateInput]:
        """The actions `side` may send now from its own page that carry what the others must
        not see (companion/games/private_inputs.py); none for a game whose every move is
        made in the open."""
        ...

    def example_setups(self) -> Sequence[JSON]:
        """Setups that start a game of every variant, for demos and the conformance tests."""
        ...

    def random_action(self, state: Any, rng: random.Random) -> Action:
        """A legal action chosen at random among those the rules wait for: a simulated player
        for tests and demos. Only asked while the game is not over."""
        ...

    @property
    def touch(self) -> TouchRules | None:
        """How the game is played by touch on its drawn board (companion/games/touch.py);
        None for a game that brings a screen of its own."""
        ...

    def drawing(self, view: JSON) -> Drawing | None:
        """The board of a spectator view as shapes, for the display page and the wall: drawn
        from the public view, so it shows nothing hidden. None where the pages have a
        drawing of their own for the game."""
        ...

    def text_board(self, view: JSON) -> tuple[str, ...]:
        """The board of a spectator view as plain text lines for a terminal (`companion
        replay RECORD --step`): the pieces where they stand and a legend, drawn from the
        public view alone, so they show nothing hidden. No markup and no colour; names from
        the setup come as typed, so a caller shows them through companion.render.plain."""
        ...
