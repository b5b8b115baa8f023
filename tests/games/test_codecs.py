"""Everything an engine writes reads back equal: states at every step, actions, events, and
the setup a record stores (docs/engine.md, rules 4 and 7)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from companion.games.plugin import GamePlugin

from .play import SETTINGS, assert_json_safe, play, setups


@SETTINGS
@given(data=st.data())
def test_every_state_round_trips_through_json(plugin: GamePlugin, data: st.DataObject) -> None:
    setup, seed = data.draw(setups(plugin))
    engine = plugin.engine
    for i, state in enumerate(play(plugin, setup, seed).states):
        data_ = engine.state_to_dict(state)
        assert_json_safe(data_, f"state_to_dict after action {i}")
        assert engine.state_from_dict(json.loads(json.dumps(data_))) == state, i


@SETTINGS
@given(data=st.data())
def test_every_action_and_event_round_trips(plugin: GamePlugin, data: st.DataObject) -> None:
    setup, seed = data.draw(setups(plugin))
    engine = plugin.engine
    game = play(plugin, setup, seed)
    for action in game.actions:
        encoded = engine.action_to_dict(action)
        assert_json_safe(encoded, f"action {action!r}")
        assert engine.action_from_dict(json.loads(json.dumps(encoded))) == action
    for event in game.events:
        assert_json_safe(engine.event_to_dict(event), f"event {event!r}")


@SETTINGS
@given(data=st.data())
def test_the_setup_of_any_state_starts_the_same_game(
    plugin: GamePlugin, data: st.DataObject
) -> None:
    setup, seed = data.draw(setups(plugin))
    engine = plugin.engine
    game = play(plugin, setup, seed)
    start = engine.start(setup)
    for state in (game.start, game.final):
        stored = engine.setup_of(state)
        assert_json_safe(stored, "setup_of")
        assert engine.start(json.loads(json.dumps(stored))) == start
        # Normalised: the setup of the game it starts is the same setup.
        assert engine.setup_of(engine.new_game(stored)) == stored
