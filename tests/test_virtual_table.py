"""The simulated table: what a tap puts down reaches the game only through the camera, in
whichever colours the game's sides took."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.config import Config
from companion.games.memwars.board_pieces import counters_on_board
from companion.games.memwars.play.choices import MemWarsChoices
from companion.games.memwars.play.live import LiveGame
from companion.games.memwars.play.table import MemWarsPlay
from companion.games.memwars.play.virtual_table import VirtualTable
from companion.games.memwars.state import Phase
from companion.store import Store
from companion.table.views import AlertView
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


def test_a_failed_challenge_read_back_when_its_yellow_lies_half_off_the_place() -> None:
    # The claim's blue in the middle, the challenger's red and the yellow beside it; the
    # challenge fails and the red is taken away, leaving the yellow pushed towards the
    # next places' rims. The app's own virtual table (seed 0) once read the place as the
    # blue alone from then on, and the game waited for a yellow it could not see.
    seen = Seen()
    table = VirtualTable.start(side_count=2, on_seen=seen, seed=0)
    assert isinstance(table, VirtualTable), table
    try:
        red, blue, yellow = table.colours
        for board in (
            {"1": (red,)},
            {"1": (red,), "3": (blue,)},
            {"1": (red,), "3": (blue, red, yellow)},
            {"1": (red,), "3": (blue, yellow)},
        ):
            table.follow(board)
            assert seen.wait_for({z: tuple(sorted(c)) for z, c in board.items()}), seen.boards[-1:]
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


def through_the_setup(play: MemWarsPlay, jobs: list[Callable[[], None]]) -> None:
    """The setup's decisions by touch (the first button each time), competitive counters
    each laid face down on the first free place; after each, the simulated hands lay the
    table as the rules have it and the camera reads it back."""
    live = play.live
    table = play.table
    assert table is not None
    for _ in range(40):
        if live.state.phase is Phase.PLAY:
            return
        expectation = live.referee.expected()
        assert expectation is not None
        if "place_counter" in expectation.actions:
            side = expectation.actor
            place = next(p for p in expectation.places if not live.state.places[p].counters)
            value = live.state.sides[side].counters_left[0]
            assert live.decide(f"counter-{value}", place) is None
        else:
            assert live.decide(live.view().buttons[0].key) is None
        assert jobs_run_until(
            jobs,
            lambda: (
                not jobs
                and table.committed() == laid(live)
                and table.committed_counters() == counters_on_board(live.state)
                and not live.view().held
            ),
        ), live.view().alerts
    raise AssertionError("the setup never ended")


def test_counters_turned_or_taken_against_the_rules_hold_the_game_until_put_right(
    tmp_path: Path,
) -> None:
    jobs: list[Callable[[], None]] = []
    heard: list[tuple[AlertView, ...]] = []
    with Store.open(tmp_path / "games.sqlite3") as store:
        controller = Controller(Config(), store, virtual_table=True, call_soon=jobs.append)
        try:
            controller.on_alert = heard.append
            choices = MemWarsChoices(topology="competitive", quadrants=1, seed=3)
            controller.start("memwars", choices)
            play = memwars_of(controller)
            live = play.live
            table = play.table
            assert table is not None
            through_the_setup(play, jobs)
            laid_down = counters_on_board(live.state)
            assert len(laid_down) == 6 and table.committed_counters() == laid_down
            zone = next(iter(laid_down))
            value = live.state.places[int(zone)].counters[0].value
            buzzed = len(heard)

            # A hand turns a face-down counter face up: the camera reads its pips.
            table.lay_counters(zone, (value,))
            assert jobs_run_until(jobs, lambda: live.view().held)
            (alert,) = live.view().alerts
            assert (alert.zone, alert.rule, alert.put_right) == (zone, "MW-T5", False)
            assert "a face-down counter was turned face up" in alert.text
            said = alert.text.removeprefix(f"place {zone}: ").removesuffix(" (MW-T5)")
            assert str(value) not in said
            assert live.decide("claim", 20) is not None  # held
            table.lay_counters(zone, (None,))  # turned back
            assert jobs_run_until(jobs, lambda: not jobs and not live.view().held)

            # A hand takes a counter off a place nobody has won.
            table.lay_counters(zone, ())
            assert jobs_run_until(jobs, lambda: live.view().held)
            (alert,) = live.view().alerts
            assert (alert.zone, alert.rule, alert.put_right) == (zone, "MW-T7", False)
            assert alert.text.startswith(f"place {zone}: a face-down counter was taken off")
            table.lay_counters(zone, (None,))  # put back
            assert jobs_run_until(jobs, lambda: not jobs and not live.view().held)
            # Each alert was buzzed, and none named the value.
            assert len(heard) > buzzed
            assert all(
                str(value) not in a.text.split(": ", 1)[1].rsplit(" (", 1)[0]
                for alerts in heard[buzzed:]
                for a in alerts
            )
            assert table.failed == ""
        finally:
            controller.close()


def test_a_review_answer_is_located_by_a_crystal_laid_on_the_table(tmp_path: Path) -> None:
    jobs: list[Callable[[], None]] = []
    with Store.open(tmp_path / "games.sqlite3") as store:
        controller = Controller(Config(), store, virtual_table=True, call_soon=jobs.append)
        try:
            controller.start("memwars", MemWarsChoices(mode="review", quadrants=1, seed=3))
            play = memwars_of(controller)
            live = play.live
            table = play.table
            assert table is not None
            through_the_setup(play, jobs)
            state = live.state
            place = state.setup.place_of[state.current_card]
            # The player lays a crystal where they think the card belongs.
            play.table_tap(str(place), table.colours[0])
            assert jobs_run_until(jobs, lambda: live.view().located == place)
            view = live.view()
            assert view.places == (place,) and not view.held
            before = view.seq
            assert live.decide("right") is None  # the verdict: the place came off the table
            assert live.view().seq == before + 1
            answer = store.actions(live.referee.game_id)[-1][2]
            assert answer == {"type": "answer", "side": 0, "correct": True, "place": place}
            assert jobs_run_until(jobs, lambda: not jobs and table.committed() == laid(live))
            assert not live.view().held and table.failed == ""
        finally:
            controller.close()
