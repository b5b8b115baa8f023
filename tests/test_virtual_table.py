"""The simulated table: what a tap puts down reaches the game only through the camera, in
whichever colours the game's sides took."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.config import Config
from companion.games.memwars.play.choices import MemWarsChoices
from companion.games.memwars.play.live import LiveGame
from companion.games.memwars.play.table import MemWarsPlay
from companion.games.memwars.play.virtual_table import VirtualTable
from companion.store import Store
from companion.ui.controller import Controller
from tests.plays import memwars_of


class Seen:
    def __init__(self) -> None:
        self.boards: list[dict[str, tuple[str, ...]]] = []
        self.changed = threading.Condition()

    def __call__(self, board: dict[str, tuple[str, ...]]) -> None:
        with self.changed:
            self.boards.append(board)
            self.changed.notify_all()

    def wait_for(self, board: dict[str, tuple[str, ...]], timeout: float = 60.0) -> bool:
        with self.changed:
            return self.changed.wait_for(
                lambda: bool(self.boards) and self.boards[-1] == board, timeout
            )


def test_crystals_put_and_taken_are_read_back_by_the_camera() -> None:
    seen = Seen()
    table = VirtualTable.start(side_count=2, on_seen=seen)
    assert isinstance(table, VirtualTable), table
    try:
        red, blue, yellow = table.colours
        table.put("13", red)
        assert seen.wait_for({"13": (red,)})
        table.follow({"13": (red,), "40": (blue,), "diamond-1": (red,)})
        assert seen.wait_for({"13": (red,), "40": (blue,), "diamond-1": (red,)})
        table.put("40", yellow)
        table.take("13", red)
        assert seen.wait_for({"40": tuple(sorted((blue, yellow))), "diamond-1": (red,)})
        assert table.contents()["40"] == (blue, yellow)
        assert table.failed == ""
    finally:
        table.stop()


def jobs_run_until(
    jobs: list[Callable[[], None]], done: Callable[[], bool], timeout: float = 120.0
) -> bool:
    """Runs what the camera thread hands to the game's thread, as the app's clock would,
    until `done`."""
    ends = time.monotonic() + timeout
    while time.monotonic() < ends:
        while jobs:
            jobs.pop(0)()
        if done():
            return True
        time.sleep(0.02)
    return False


def laid(live: LiveGame) -> dict[str, tuple[str, ...]]:
    """The rules' board as the camera reads it: each zone's colours in order."""
    return {zone: tuple(sorted(held)) for zone, held in live.view().board.items() if held}


def to_the_claim_of(play: MemWarsPlay, jobs: list[Callable[[], None]], side: int) -> None:
    """Plays the other sides' turns by touch (each claims the first free place, the rest
    decline) until `side` is to claim; the simulated table lays every move and the camera
    reads it back before the next touch."""
    live = play.live
    table = play.table
    assert table is not None
    for _ in range(40):
        expectation = live.referee.expected()
        assert expectation is not None
        if expectation.actor == side and "claim" in expectation.actions:
            return
        view = live.view()
        keys = [button.key for button in view.buttons]
        if "claim" in expectation.actions:
            free = next(p for p in view.places if str(p) not in view.board)
            assert live.decide("claim", free) is None
        else:
            key = "decline" if "decline" in keys else keys[0]
            assert live.decide(key) is None, key
        assert jobs_run_until(jobs, lambda: not jobs and table.committed() == laid(live))
        assert not live.view().held, live.view().alerts
    raise AssertionError(f"side {side} never came to claim")


@pytest.mark.parametrize(
    ("colours", "side"),
    [(("red", "blue", "green"), 2), (("red", "blue", "green", "purple"), 3)],
    ids=["three sides, the third green", "four sides, the fourth purple"],
)
def test_a_side_in_a_colour_past_the_default_set_is_read_by_the_camera(
    colours: tuple[str, ...], side: int, tmp_path: Path
) -> None:
    jobs: list[Callable[[], None]] = []
    with Store.open(tmp_path / "games.sqlite3") as store:
        controller = Controller(Config(), store, virtual_table=True, call_soon=jobs.append)
        try:
            choices = MemWarsChoices(sides=len(colours), colours=colours, quadrants=1, seed=3)
            controller.start("memwars", choices)
            play = memwars_of(controller)
            assert play.table is not None, play.live.view().camera
            # The virtual camera was calibrated for the game's own colours.
            assert play.table.colours == (*colours, "yellow")
            to_the_claim_of(play, jobs, side)
            live = play.live
            place = next(p for p in live.view().places if str(p) not in live.view().board)
            mine = colours[side]
            before = live.view().seq
            # A hand lays the side's crystal; the board reader reads it through the camera
            # and the claim is committed.
            play.table_tap(str(place), mine)
            assert jobs_run_until(jobs, lambda: live.view().seq > before)
            claim = store.actions(live.referee.game_id)[-1][2]
            assert claim == {"type": "claim", "side": side, "place": place}
            assert live.view().board[str(place)] == (mine,)
            assert not live.view().held and play.table.failed == ""
        finally:
            controller.close()
