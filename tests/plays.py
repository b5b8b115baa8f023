"""The game a controller plays, as the type each game's tests expect."""

from __future__ import annotations

from companion.games.mem.play.table import MemAtTable
from companion.games.memwars.play.live import LiveGame
from companion.games.memwars.play.table import MemWarsPlay
from companion.table.touch_play import TouchPlay
from companion.ui.controller import Controller


def memwars_of(controller: Controller) -> MemWarsPlay:
    play = controller.play
    assert isinstance(play, MemWarsPlay), play
    return play


def live_of(controller: Controller) -> LiveGame:
    """The MemWars game being played."""
    return memwars_of(controller).live


def mem_of(controller: Controller) -> MemAtTable:
    play = controller.play
    assert isinstance(play, MemAtTable), play
    return play


def touch_of(controller: Controller) -> TouchPlay | None:
    """The game played by touch, if one is."""
    play = controller.play
    return play if isinstance(play, TouchPlay) else None
