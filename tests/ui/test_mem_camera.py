"""MeM on the simulated camera table, by touch on real widgets offscreen: with "Hands on the
table", a tap on a square is a hand lifting its stone off the filmed board; the camera's
reading picks it up, and a tap on a cell of the player's space moves it. A lift the rules
refuse rings the square, names the engine's rule and holds the game until the stone is put
back."""

from __future__ import annotations

from collections.abc import Callable

from companion.games.mem.play.game import MemPlay
from tests.plays import mem_of

from .screen import Screen
from .test_mem import start_mem

SEED = 5
"""A deal whose stones the virtual camera reads exactly."""
MOVES = ((0, (0, 0)), (1, (0, 0)), (2, (-1, 0)), (3, (-1, 0)), (4, (-1, -1)))
"""Five moves of this deal (square, cell in the board's frame); after them, taking square
8 would leave a pattern matching no group."""


def picked_up(play: MemPlay, square: int) -> Callable[[], bool]:
    return lambda: play.view().selected == square


def test_stones_lifted_on_the_simulated_table_are_picked_up_through_the_camera(
    screen: Screen,
) -> None:
    screen.app.controller.virtual_table = True
    play = start_mem(screen, "MEM game", seed=SEED)
    live = screen.screen("mem_live")
    assert live.has_table and live.watching and not live.held
    assert live.ids.override.disabled
    screen.tap(live.ids.table_toggle)
    board = live.ids.board
    table = mem_of(screen.app.controller).table
    assert table is not None

    def lift(square: int) -> None:
        screen.tap_at(*board.square_centre(square))

    for number, (square, cell) in enumerate(MOVES):
        side = play.view().actor
        assert side is not None
        lift(square)
        assert screen.until(picked_up(play, square), timeout=30)
        assert play.state.board[square] != 0  # picked up, not yet moved
        if number == 0:
            assert "Square" not in live.alerts
            screen.shot("mem-camera-picked-up")
        screen.tap_at(*live.ids[f"space_{side}"].cell_centre(cell))
        if play.view().pending == square:  # held for the other player's block or allow
            # The other player takes their time: the table the camera films meanwhile
            # keeps the held stone in its player's hand.
            assert screen.until(lambda: table.idle, timeout=30)
            screen.tap(live.button("allow"))
        assert play.state.board[square] == 0, live.message
        assert not play.view().alerts
    # A stone the rules do not allow taking now: ringed, with the engine's rule.
    lift(8)
    assert screen.until(lambda: play.view().held, timeout=30)
    assert live.alerts.startswith("Square 8: the ") and "(MEM-R3)" in live.alerts
    assert not live.ids.override.disabled
    assert screen.app.alerts_heard[-1][0].zone == "8"
    view = play.view()
    side = view.actor
    assert side is not None
    screen.tap_at(*live.ids[f"space_{side}"].cell_centre((0, 1)))
    assert "Put the board right first" in live.message
    screen.shot("mem-camera-alert")
    # Put back where it was: the alert clears and the game goes on.
    lift(8)
    assert screen.until(lambda: not play.view().held, timeout=30), (
        play.view().alerts,
        table.contents().get(8),
        table.frames,
        table.failed,
    )
    assert live.alerts == "" and live.message == "" and live.ids.override.disabled
    screen.frames(10)  # the camera goes on reading: the alert stays away
    assert not play.view().held
    screen.shot("mem-camera-put-back")
