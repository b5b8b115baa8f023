"""MnemoGame as the product sees it (companion/games/plugin.py)."""

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


def _facts(noun: int, verb: int, reversible: int, spelt: bool = True) -> JSON:
    """A word's facts as the word list gives them (dictionary.py), written out so that the
    examples start without it."""
    return {"spelt": spelt, "noun": bool(noun), "verb": bool(verb), "reversible": bool(reversible)}


class MnemoPlugin:
    name = "mnemo"
    title = "MnemoGame"
    rules_doc = "mnemo-rules.md"
    rule_prefix = "MN-"
    # A word laid in play is the one action that carries a hidden value: its refusal may
    # name a letter of it (MN-S5: "the words use 2 Z chips"). No other refusal names what a
    # face-down chip is.
    secret_actions: frozenset[str] = frozenset({"lay_word"})
    scored = True

    board_file: str | None = None
    commands: tuple[str, ...] = ()
    table = "companion.table.touch_seat"
    screen = "companion.ui.touch_screen:TouchLiveScreen"
    # The web pages draw it from its drawing.
    page: str | None = None
    deck = False
    camera = None

    @cached_property
    def engine(self) -> GameEngine[Any]:
        # Imported when first asked, so that naming the games does not load every engine.
        from companion.games.mnemo.dictionary import word_facts
        from companion.games.mnemo.engine import MnemoEngine

        return MnemoEngine(word_facts)

    @property
    def house_rules(self) -> Sequence[HouseRule]:
        from companion.games.mnemo.rules import HOUSE_RULES

        return HOUSE_RULES

    @property
    def options(self) -> Sequence[GameOption]:
        from companion.games.mnemo.options import OPTIONS

        return OPTIONS

    def narrator(self, state: Any) -> Narrator:
        from companion.games.mnemo.narrate import narrate

        setup = state.setup
        return lambda event: narrate(event, setup) or ""

    def verdicts(self, setup: JSON, events: Sequence[tuple[int, Event]]) -> Sequence[Verdict]:
        return ()  # played without cards: nothing to study

    def private_inputs(self, state: Any, side: int) -> Sequence[PrivateInput]:
        from companion.games.mnemo.phone import private_inputs

        return private_inputs(state, side)

    def example_setups(self) -> Sequence[JSON]:
        return (
            {
                "sides": [
                    {"name": "Ada", "word": "star", "aha_after": 1, "facts": _facts(1, 1, 1)},
                    {
                        "name": "Bo",
                        "word": "kayak",
                        "spell_from": "right",
                        "facts": _facts(1, 1, 1),
                    },
                ],
                "seed": 1,
            },
            {
                "sides": [
                    {
                        "name": "Ada",
                        "word": "x-ray",
                        "aha_before": 1,
                        "facts": _facts(1, 1, 0),
                    },
                    {"name": "Bo", "word": "jazz", "joal": [3], "facts": _facts(1, 1, 0)},
                    {
                        "name": "Cy",
                        "word": "recieve",
                        "aha_before": 1,
                        "aha_after": 1,
                        "facts": _facts(0, 0, 0, spelt=False),
                    },
                ],
                "seed": 2,
                "numbers": "cards",
                "icecq": True,
                "house_rules": {
                    "mn.cards.replacement": "NO_REPLACEMENT",
                    "mn.letterCodex.select": "PICK",
                    "mn.tailEnders.scope": "EVERY_CHIP",
                },
            },
            {
                "sides": [
                    {"name": "Ada", "word": "level", "aha_after": 2, "facts": _facts(1, 1, 1)},
                    {
                        "name": "Bo",
                        "word": "window",
                        "aha_before": 1,
                        "facts": _facts(1, 0, 0),
                    },
                    {"name": "Cy", "word": "quiet", "facts": _facts(1, 1, 0)},
                    {
                        "name": "Di",
                        "word": "happy",
                        "aha_before": 1,
                        "aha_after": 1,
                        "spell_from": "right",
                        "facts": _facts(0, 0, 0),
                    },
                ],
                "seed": 3,
                "first_player": 2,
                "division": 1,
                "guess_seconds": 30,
                "house_rules": {
                    "mn.twinner.fail": "ONE_RIGHT_GOES_ON",
                    "mn.stripper.chooser": "OPPONENT",
                    "mn.mono.continue": "CONTINUES",
                    "mn.joal.guess": "JOAL",
                },
            },
            {
                # Words laid in play, each on its player's phone: Cy's comes with the setup.
                "sides": [
                    {"name": "Ada"},
                    {"name": "Bo"},
                    {
                        "name": "Cy",
                        "word": "lemon",
                        "aha_before": 1,
                        "aha_after": 2,
                        "facts": _facts(1, 0, 0),
                    },
                ],
                "seed": 4,
                "words": "phones",
                "division": 2,
                "house_rules": {"mn.division.ahaRule": "EXACT"},
            },
        )

    def random_action(self, state: Any, rng: random.Random) -> Action:
        from companion.games.mnemo.players import random_action

        return random_action(state, rng)

    @cached_property
    def touch(self) -> TouchRules | None:
        from companion.games.mnemo.touch import TOUCH

        return TOUCH

    def drawing(self, view: JSON) -> Drawing | None:
        from companion.games.mnemo.touch import TOUCH

        return TOUCH.drawing(view, (), frozenset())

    def text_board(self, view: JSON) -> tuple[str, ...]:
        from companion.games.mnemo.text_board import text_board

        return text_board(view)


PLUGIN: GamePlugin = MnemoPlugin()
"""Typed as the contract: a member the plugin lacks is a type error."""
