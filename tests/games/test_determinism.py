"""A game is a function of its setup and its actions: the same inputs give equal states and
equal events, every time (docs/engine.md, "randomness comes from the seed")."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.games.plugin import GamePlugin

from .play import SETTINGS, play, replay_actions, setups


@SETTINGS
@given(data=st.data())
def test_starting_twice_gives_equal_games(plugin: GamePlugin, data: st.DataObject) -> None:
    setup, _ = data.draw(setups(plugin))
    engine = plugin.engine
    assert engine.start(setup) == engine.start(setup)
    assert engine.new_game(setup) == engine.new_game(setup)
    # start is new_game and what happened on the way: the store rebuilds a game from
    # new_game and the record reader from start, so the two must agree.
    assert engine.start(setup)[0] == engine.new_game(setup)


@SETTINGS
@given(data=st.data())
def test_the_same_actions_give_the_same_states_and_events(
    plugin: GamePlugin, data: st.DataObject
) -> None:
    setup, seed = data.draw(setups(plugin))
    game = play(plugin, setup, seed)
    again = replay_actions(plugin, setup, game.actions)
    assert again.opening == game.opening
    for ours, theirs in zip(game.steps, again.steps, strict=True):
        assert theirs.state == ours.state
        assert theirs.events == ours.events


@SETTINGS
@given(data=st.data())
def test_the_random_player_is_a_function_of_its_seed(
    plugin: GamePlugin, data: st.DataObject
) -> None:
    setup, seed = data.draw(setups(plugin))
    assert play(plugin, setup, seed).actions == play(plugin, setup, seed).actions


@SETTINGS
@given(data=st.data())
def test_the_random_player_takes_only_expected_actions(
    plugin: GamePlugin, data: st.DataObject
) -> None:
    setup, seed = data.draw(setups(plugin))
    game = play(plugin, setup, seed)
    engine = plugin.engine
    for state, action in zip(game.states, game.actions, strict=False):
        expectation = engine.expected(state)
        assert expectation is not None
        assert action.kind in expectation.actions
    for state in game.states:
        assert (engine.expected(state) is None) == engine.is_over(state)
