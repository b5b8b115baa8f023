"""Every event of a game narrates to a sentence, or to nothing, without raising."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.games.plugin import GamePlugin

from .play import SETTINGS, play, setups


@SETTINGS
@given(data=st.data())
def test_every_event_narrates_to_text(plugin: GamePlugin, data: st.DataObject) -> None:
    setup, seed = data.draw(setups(plugin))
    game = play(plugin, setup, seed)
    # A ticker may make its narrator when the game starts, or from the state it is told
    # about after each action: both must cope with every event.
    say = plugin.narrator(game.start)
    for event in game.opening:
        assert isinstance(say(event), str), event
    for step in game.steps:
        now = plugin.narrator(step.state)
        for event in step.events:
            assert isinstance(say(event), str), event
            assert isinstance(now(event), str), event
