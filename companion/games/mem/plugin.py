"""MeM as the product sees it (companion/games/plugin.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from companion.games.camera import CameraProfile
from companion.games.contract import JSON, Action, Event, GameEngine
from companion.games.drawing import Drawing
from companion.games.house_rules import HouseRule
from companion.games.options import GameOption
from companion.games.plugin import GamePlugin, Narrator
from companion.games.private_inputs import PrivateInput
from companion.games.verdicts import Verdict


class MemPlugin:
    name = "mem"
    title = "MeM"
    rules_doc = "mem-rules.md"
    rule_prefix = "MEM-"
    # MeM is open information: every refusal may be told in full.
    secret_actions: frozenset[str] = frozenset()
    scored = True

    board_file: str | None = "mem.toml"
    commands: tuple[str, ...] = ("companion.games.mem.command",)
    table = "companion.games.mem.play.table"
    screen = "companion.games.mem.screens.live_screen:MemLiveScreen"
    page: str | None = "page.js"
    deck = False

    @property
    def camera(self) -> CameraProfile | None:
        from companion.games.mem.camera import PROFILE

        return PROFILE

    @cached_property
    def engine(self) -> GameEngine[Any]:
        # Imported when first asked, so that naming the games does not load every engine.
        from companion.games.mem.engine import MemEngine

        return MemEngine()

    @property
    def house_rules(self) -> Sequence[HouseRule]:
        from companion.games.mem.rules import HOUSE_RULES

        return HOUSE_RULES

    @property
    def options(self) -> Sequence[GameOption]:
        from companion.games.mem.options import OPTIONS

        return OPTIONS

    def narrator(self, state: Any) -> Narrator:
        from companion.games.mem.narrate import narrate

        setup = state.setup
        return lambda event: narrate(event, setup) or ""

    def verdicts(self, setup: JSON, events: Sequence[tuple[int, Event]]) -> Sequence[Verdict]:
        return ()  # played without cards: nothing to study

    def private_inputs(self, state: Any, side: int) -> Sequence[PrivateInput]:
        return ()  # every move is made in the open

    def example_setups(self) -> Sequence[JSON]:
        two = [{"name": "Ada"}, {"name": "Bo"}]
        return (
            {"game": "solitaire", "sides": [{"name": "Ada"}], "seed": 1},
            {"game": "mini", "sides": two, "seed": 2},
            {"game": "mem", "sides": two, "seed": 3},
            {"game": "mem", "sides": two, "seed": 4, "timer": True},
        )

    def random_action(self, state: Any, rng: random.Random) -> Action:
        from companion.games.mem.players import random_action

        return random_action(state, rng)

    # Played on a screen of its own, and drawn on the web pages by its own page module.
    touch = None

    def drawing(self, view: JSON) -> Drawing | None:
        return None

    def text_board(self, view: JSON) -> tuple[str, ...]:
        from companion.games.mem.text_board import text_board

        return text_board(view)


PLUGIN: GamePlugin = MemPlugin()
"""Typed as the contract: a member the plugin lacks is a type error."""
