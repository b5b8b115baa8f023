"""memento ludis as the product sees it (companion/games/plugin.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from companion.games.contract import JSON, Action, Event, GameEngine
from companion.games.drawing import Drawing
from companion.games.house_rules import HouseRule
from companion.games.options import GameOption
from companion.games.plugin import GamePlugin, Narrator
from companion.games.private_inputs import PrivateInput
from companion.games.touch import TouchRules
from companion.games.verdicts import Verdict


class MementoPlugin:
    name = "memento"
    title = "memento ludis"
    rules_doc = "memento-rules.md"
    rule_prefix = "ML-"
    # Nothing is hidden: every refusal may be told in full.
    secret_actions: frozenset[str] = frozenset()
    scored = False

    board_file: str | None = None
    commands: tuple[str, ...] = ()
    table = "companion.table.touch_seat"
    screen = "companion.ui.touch_screen:TouchLiveScreen"
    # The web pages draw it from its drawing.
    page: str | None = None
    deck = False
    # The camera does not read this board yet.
    camera = None

    @cached_property
    def engine(self) -> GameEngine[Any]:
        # Imported when first asked, so that naming the games does not load every engine.
        from companion.games.memento.engine import MementoEngine

        return MementoEngine()

    @property
    def house_rules(self) -> Sequence[HouseRule]:
        from companion.games.memento.rules import HOUSE_RULES

        return HOUSE_RULES

    @property
    def options(self) -> Sequence[GameOption]:
        from companion.games.memento.options import OPTIONS

        return OPTIONS

    def narrator(self, state: Any) -> Narrator:
        from companion.games.memento.narrate import narrate

        setup = state.setup
        return lambda event: narrate(event, setup) or ""

    def verdicts(self, setup: JSON, events: Sequence[tuple[int, Event]]) -> Sequence[Verdict]:
        return ()  # played without cards: nothing to study

    def private_inputs(self, state: Any, side: int) -> Sequence[PrivateInput]:
        return ()  # every move is made in the open

    def example_setups(self) -> Sequence[JSON]:
        names = [{"name": n} for n in ("Ada", "Bo", "Cy", "Di")]
        return (
            {"sides": names[:2], "seed": 1},
            {
                "sides": names[:3],
                "seed": 2,
                "house_rules": {"ml.geometry": "SHARED", "ml.turn.kind": "FLIP"},
            },
            {
                "sides": names,
                "seed": 3,
                "first_player": 2,
                "house_rules": {
                    "ml.lines": "SPOKES",
                    "ml.opening": "EVERYONE",
                    "ml.overflow": "CAP_AT_THREE",
                    "ml.noAction": "OUT",
                },
            },
        )

    def random_action(self, state: Any, rng: random.Random) -> Action:
        from companion.games.memento.players import random_action

        return random_action(state, rng)

    @cached_property
    def touch(self) -> TouchRules | None:
        from companion.games.memento.touch import TOUCH

        return TOUCH

    def drawing(self, view: JSON) -> Drawing | None:
        from companion.games.memento.touch import TOUCH

        return TOUCH.drawing(view, (), frozenset())

    def text_board(self, view: JSON) -> tuple[str, ...]:
        from companion.games.memento.text_board import text_board

        return text_board(view)


PLUGIN: GamePlugin = MementoPlugin()
"""Typed as the contract: a member the plugin lacks is a type error."""
