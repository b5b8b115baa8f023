"""MemWars as the product sees it (companion/games/plugin.py)."""

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
from companion.games.private_inputs import InputField, PrivateInput
from companion.games.verdicts import Verdict


class MemWarsPlugin:
    name = "memwars"
    title = "MemWars"
    rules_doc = "memwars-rules.md"
    rule_prefix = "MW-"
    # A refusal of a counter placement may name the counter's value (MW-T3: "no counter
    # of value 5 left"), which is face down.
    secret_actions = frozenset({"place_counter"})
    scored = True

    board_file: str | None = "memwars.toml"
    commands: tuple[str, ...] = ("companion.games.memwars.command",)
    table = "companion.games.memwars.play.table"
    screen = "companion.games.memwars.screens.live_screen:LiveScreen"
    page: str | None = "page.js"
    deck = True

    @property
    def camera(self) -> CameraProfile | None:
        from companion.games.memwars.camera import PROFILE

        return PROFILE

    @cached_property
    def engine(self) -> GameEngine[Any]:
        # Imported when first asked, so that naming the games does not load every engine.
        from companion.games.memwars.engine import MemWarsEngine

        return MemWarsEngine()

    @property
    def house_rules(self) -> Sequence[HouseRule]:
        from companion.games.memwars.rules import HOUSE_RULES

        return HOUSE_RULES

    @property
    def options(self) -> Sequence[GameOption]:
        from companion.games.memwars.options import OPTIONS

        return OPTIONS

    def narrator(self, state: Any) -> Narrator:
        from companion.games.memwars import events as E
        from companion.games.memwars.narrate import narrate

        setup = state.setup

        def text(event: Event) -> str:
            if isinstance(event, E.TurnStarted):
                sides = setup.sides
                name = sides[event.side].name if 0 <= event.side < len(sides) else "nobody"
                return f"Move {event.move}: {name} to play."
            # No card names: which card is where may be what a player must find.
            return narrate(event, setup) or ""

        return text

    def verdicts(self, setup: JSON, events: Sequence[tuple[int, Event]]) -> Sequence[Verdict]:
        from companion.games.memwars.verdicts import verdicts

        return verdicts(setup, events)

    def private_inputs(self, state: Any, side: int) -> Sequence[PrivateInput]:
        from companion.games.memwars.engine import expected

        # A competitive counter's value is the only move a side makes in secret (MW-T5).
        expectation = expected(state)
        if expectation is None or expectation.actor != side:
            return ()
        if "place_counter" not in expectation.actions:
            return ()
        values = sorted(set(state.sides[side].counters_left), reverse=True)
        return (
            PrivateInput(
                "place_counter",
                "Lay it face down",
                (
                    InputField("place", "Place", tuple((str(p), p) for p in expectation.places)),
                    InputField("value", "Counter", tuple((str(v), v) for v in values)),
                ),
            ),
        )

    def example_setups(self) -> Sequence[JSON]:
        two = [{"name": "Ada"}, {"name": "Bo"}]
        return (
            {"sides": two, "mode": "basic", "quadrants": [1], "seed": 1},
            {"sides": two, "mode": "standard", "quadrants": [1, 2], "seed": 2},
            {
                "sides": [{"name": "Ada", "mode": "standard"}, {"name": "Bo", "mode": "basic"}],
                "mode": "hybrid",
                "quadrants": [3],
                "seed": 3,
            },
            {"sides": [{"name": "Ada"}], "mode": "study", "quadrants": [4], "seed": 4},
            {"sides": [{"name": "Ada"}], "mode": "review", "quadrants": [2], "seed": 5},
        )

    def random_action(self, state: Any, rng: random.Random) -> Action:
        from companion.games.memwars.engine import expected
        from companion.games.memwars.players import random_legal_action

        expectation = expected(state)
        if expectation is None:
            raise ValueError("the game is over: nobody has an action to take")
        return random_legal_action(state, expectation, rng)

    # Played on a screen of its own, and drawn on the web pages by its own page module.
    touch = None

    def drawing(self, view: JSON) -> Drawing | None:
        return None

    def text_board(self, view: JSON) -> tuple[str, ...]:
        from companion.games.memwars.text_board import text_board

        return text_board(view)


PLUGIN: GamePlugin = MemWarsPlugin()
"""Typed as the contract: a member the plugin lacks is a type error."""
