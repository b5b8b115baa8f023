"""What each viewer sees is JSON, and a function of the state alone.

That a spectator's view hides what it must cannot be checked generically yet: each game's
own tests check its hidden values (tests/memwars/test_view_secrets.py)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from companion.games.plugin import GamePlugin

from .play import SETTINGS, assert_json_safe, play, setups, viewers


@SETTINGS
@given(data=st.data())
def test_every_view_and_summary_is_json(plugin: GamePlugin, data: st.DataObject) -> None:
    setup, seed = data.draw(setups(plugin))
    engine = plugin.engine
    for i, state in enumerate(play(plugin, setup, seed).states):
        for viewer in viewers(engine, state):
            view = engine.view(state, viewer)
            assert isinstance(view, dict), (i, viewer)
            assert_json_safe(view, f"the view of {viewer!r} after action {i}")
        assert_json_safe(engine.summary(state), f"the summary after action {i}")
        expectation = engine.expected(state)
        if expectation is not None:
            assert_json_safe(expectation.to_dict(), f"the expectation after action {i}")


@SETTINGS
@given(data=st.data())
def test_the_spectator_view_depends_on_the_state_alone(
    plugin: GamePlugin, data: st.DataObject
) -> None:
    setup, seed = data.draw(setups(plugin))
    engine = plugin.engine
    game = play(plugin, setup, seed)
    # A state built afresh from its dict is equal but shares nothing with the original.
    for state in [*game.states[:: max(1, len(game.states) // 6)], game.final]:
        view = engine.view(state, "spectator")
        assert engine.view(state, "spectator") == view
        rebuilt = engine.state_from_dict(json.loads(json.dumps(engine.state_to_dict(state))))
        assert engine.view(rebuilt, "spectator") == view
        assert engine.summary(rebuilt) == engine.summary(state)
