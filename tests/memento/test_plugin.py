"""The plugin, the view, the narration and the summary of memento ludis."""

from __future__ import annotations

import json
import random

from companion.games.memento.narrate import narrate
from companion.games.memento.plugin import PLUGIN
from companion.games.plugin import GamePlugin

from .helpers import ENGINE


def test_the_plugin_describes_the_game() -> None:
    plugin: GamePlugin = PLUGIN
    assert (plugin.name, plugin.title, plugin.rule_prefix) == ("memento", "memento ludis", "ML-")
    assert plugin.rules_doc == "memento-rules.md" and not plugin.secret_actions
    assert plugin.engine.name == "memento" and plugin.engine.title == "memento ludis"
    counts = {len(s["sides"]) for s in plugin.example_setups()}
    assert counts == {2, 3, 4}
    assert any(s.get("house_rules") for s in plugin.example_setups())
    assert len(plugin.house_rules) == 11


def test_every_event_of_a_game_has_a_sentence_and_every_view_is_the_same() -> None:
    for setup in PLUGIN.example_setups():
        state, events = ENGINE.start(setup)
        say = PLUGIN.narrator(state)
        rng = random.Random(3)
        seen = list(events)
        for _ in range(150):
            if ENGINE.is_over(state):
                break
            view = ENGINE.view(state, "spectator")
            json.dumps(view)
            for viewer in (0, 1, "table"):
                assert {**ENGINE.view(state, viewer), "viewer": "spectator"} == view
            assert len(view["points"]) == len(state.owners)
            state, events = ENGINE.apply(state, PLUGIN.random_action(state, rng))
            seen.extend(events)
        for event in seen:
            sentence = say(event)
            assert sentence and sentence.endswith(".") and "{" not in sentence
        summary = ENGINE.summary(state)
        json.dumps(summary)
        assert summary["game"] == "memento" and summary["lines"]


def test_narration_names_players_and_points() -> None:
    from companion.games.memento import events as E

    state = ENGINE.new_game(PLUGIN.example_setups()[0])
    sentence = narrate(E.FigureBeaten(0, 6, 1, 2, 1, 3), state.setup)
    assert sentence == (
        "Ada beats Bo's Double on point 6, the top triangle's middle, making a Single; "
        "3 stones go back to the pool."
    )
