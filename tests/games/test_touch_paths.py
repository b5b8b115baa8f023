"""For every game played by touch on its drawn board: at every point of random games, every
legal action can be made by taps, the taps of one action never make another, and the
drawing names every spot a path taps."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.plugin import GamePlugin
from companion.games.touch import Press, next_taps, options_of

from .play import SETTINGS, play, setups


@SETTINGS
@given(data=st.data())
def test_every_legal_action_has_taps_that_make_it_and_only_it(
    plugin: GamePlugin, data: st.DataObject
) -> None:
    rules = plugin.touch
    if rules is None:
        pytest.skip(f"{plugin.title} brings a screen of its own")
    setup, seed = data.draw(setups(plugin))
    game = play(plugin, setup, seed)
    for state in game.states[:40]:
        if plugin.engine.is_over(state):
            break
        options = options_of(rules, state)
        assert options, "no legal action while the game goes on"
        drawing = rules.drawing(plugin.engine.view(state, "table"), (), frozenset())
        keys = {spot.key for spot in drawing.spots if spot.key}
        makers: dict[tuple[object, ...], object] = {}
        for action, paths in options.items():
            assert paths, f"{action} cannot be made by touch"
            for path in paths:
                assert path not in makers or makers[path] == action, (path, action)
                makers[path] = action
                assert {tap for tap in path if not isinstance(tap, Press)} <= keys
                step = next_taps(options, path)
                assert action in (step.complete, step.ready), (path, step)
