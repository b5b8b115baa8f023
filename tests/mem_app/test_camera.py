"""MeM with the camera in the loop, end to end: the synthetic camera films a dealt MeM board,
hands lift stones off it, the real stone reader and the temporal filter commit what they
see, and MemPlay picks the lifted stone up exactly as a tap would. An illegal lift raises an
alert with the engine's rule and holds the game until the stone is put back; Override lets
the game go on. Then the simulated MeM table the app plays on
(companion/games/mem/play/virtual_table.py), run
by the controller on its own camera thread."""

from __future__ import annotations

import dataclasses
import random
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.config import Config
from companion.games.mem.play.game import HELD, MemPlay
from companion.games.mem.play.virtual_table import camera_stones
from companion.games.mem.players import random_action
from companion.games.mem.screens.choices import MemChoices
from companion.games.mem.table import rules_board
from companion.session import Referee
from companion.store import Store
from companion.table.unsure import UnsureState, unsure_step
from companion.table.views import AlertView
from companion.ui.controller import Controller
from tests.plays import mem_of
from tests.vision_mem.helpers import EASY, dealt, mem_board, mem_calibration
from vision.reader import BoardReader
from vision.synth import Hand, SyntheticCamera
from vision.temporal import FilterState, step

SEED = 5
"""A deal whose 32 stones the camera reads exactly under the easy light."""
NAMES = [{"name": "Ada"}, {"name": "Bo"}]
STILL = 6
"""Frames filmed after a hand: at 15 frames a second, past the filter's 250 ms."""


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "games.sqlite3") as opened:
        yield opened


class Table:
    """A MeM board under the synthetic camera, every frame read by the real reader and the
    temporal filter; what the filter commits goes to the game, nothing else."""

    def __init__(self, play: MemPlay) -> None:
        board = mem_board()
        self.play = play
        self.camera = SyntheticCamera(board, EASY, seed=SEED)
        self.reader = BoardReader(mem_calibration(EASY), board)
        self.centres = {zone.key: zone.centre for zone in board.zones()}
        stones = rules_board(play.state)
        self.camera.set_scene(
            dataclasses.replace(self.camera.scene, crystals=camera_stones(stones))
        )
        self.filter = FilterState.start(camera_stones(stones))
        self.unsure = UnsureState()
        self.commits = 0
        self.film(STILL)  # the dealt board, read and found as the rules have it

    def lift(self, square: int) -> str:
        colour = self.camera.take(str(square))
        self.hand_over(square)
        return colour

    def put(self, square: int, colour: str) -> None:
        self.camera.put(str(square), colour)
        self.hand_over(square)

    def hand_over(self, square: int) -> None:
        x, y = self.centres[str(square)]
        scene = self.camera.scene
        hand = Hand(tip=(x, y), angle=90.0, height=40.0)
        self.camera.set_scene(dataclasses.replace(scene, hands=(hand,)))
        self.film(1)
        self.camera.hand_out()
        self.film(STILL)

    def film(self, frames: int) -> None:
        for _ in range(frames):
            frame = self.camera.grab()
            reading = self.reader.read(frame.image, frame.t_ns)
            self.filter, observation = step(self.filter, reading)
            self.unsure, unsure = unsure_step(self.unsure, reading)
            if unsure is not None:
                self.play.table_unsure(unsure)
            if observation is not None and observation.changes:
                self.commits += 1
                self.play.table_seen(dict(self.filter.committed))


def mem_game(store: Store, alerts: list[tuple[AlertView, ...]]) -> MemPlay:
    setup = {"game": "mem", "sides": NAMES, "seed": SEED}
    referee = Referee.start(store, "mem", setup, {}, title="Ada vs Bo, MEM game, deal 5")
    return MemPlay(referee, title="test", hints=False, camera=True, on_alert=alerts.append)


def lift_and_move(table: Table, square: int, cell: tuple[int, int]) -> None:
    """The player on turn lifts the stone (the camera picks it up) and taps the cell."""
    play = table.play
    side = play.view().actor
    assert side is not None
    commits = table.commits
    table.lift(square)
    assert table.commits == commits + 1, "the lift was not committed"
    view = play.view()
    assert view.selected == square and not view.alerts, view.alerts
    play.tap_cell(side, cell)
    if play.view().pending == square:  # held for the other player's block or allow
        assert play.view().camera.watching and not play.view().alerts
        play.press("allow")
    assert play.state.board[square] == 0


def test_a_stone_lifted_off_the_filmed_board_is_picked_up(store: Store) -> None:
    alerts: list[tuple[AlertView, ...]] = []
    play = mem_game(store, alerts)
    assert rules_board(play.state) == dealt(SEED)
    table = Table(play)
    assert table.commits == 0 and play.view().camera.watching
    view = play.view()
    assert view.selected is None and not view.held and view.actor == play.state.turn
    colour = table.lift(12)
    view = play.view()
    assert view.selected == 12 and not view.alerts and alerts == []
    assert colour == dealt(SEED)[12]
    # Then a tap on a cell of the player's space moves it: a Move through the referee.
    side = view.actor
    assert side is not None
    play.tap_cell(side, (0, 0))
    assert play.state.board[12] == 0
    assert play.state.sides[side].pattern[-1][:2] == (0, 0)
    assert play.view().selected is None and not play.view().alerts


def test_a_stone_put_back_after_a_legal_lift_is_put_down(store: Store) -> None:
    play = mem_game(store, [])
    table = Table(play)
    colour = table.lift(20)
    assert play.view().selected == 20
    table.put(20, colour)
    assert play.view().selected is None and not play.view().alerts


def test_an_illegal_lift_alerts_with_the_engines_rule_until_the_stone_is_back(
    store: Store,
) -> None:
    alerts: list[tuple[AlertView, ...]] = []
    play = mem_game(store, alerts)
    table = Table(play)
    # Five moves, each stone lifted off the filmed board, then its cell tapped.
    for square, cell in ((0, (0, 0)), (1, (0, 0)), (2, (-1, 0)), (3, (-1, 0)), (4, (-1, -1))):
        lift_and_move(table, square, cell)
    assert alerts == []
    # Taking square 8 now would leave a pattern matching no group: the engine refuses it.
    colour = table.lift(8)
    view = play.view()
    assert view.held and view.selected is None
    (alert,) = view.alerts
    assert (alert.zone, alert.rule, alert.seen) == ("8", "MEM-R3", ())
    assert alert.text.startswith(f"Square 8: the {colour} stone may not be taken")
    assert alerts == [view.alerts]
    # The game is held: a cell tap or a button changes nothing.
    seq = play.referee.seq
    assert view.actor is not None
    play.tap_cell(view.actor, (0, 1))
    assert play.referee.seq == seq and play.view().message == HELD
    # Put back where it was: the alert clears, the game goes on.
    table.put(8, colour)
    view = play.view()
    assert not view.alerts and not view.held
    # Two stones lifted at once: an alert on each, and Override lets the game go on.
    first, second = table.lift(9), table.lift(15)
    assert [a.zone for a in play.view().alerts] == ["9", "15"]
    play.press("override")
    assert not play.view().held
    # Once the camera reads them back, the overrides are forgotten.
    table.put(9, first)
    table.put(15, second)
    assert not play.view().alerts


def test_a_square_is_unsure_only_once_the_camera_has_doubted_it_a_while() -> None:
    from types import SimpleNamespace

    def reading(t_ms: int, unsure: tuple[str, ...], hands: bool = False) -> Any:
        zones = {
            key: SimpleNamespace(occluded=False, confidence=0.3 if key in unsure else 1.0)
            for key in ("3", "4", "diamond-1")
        }
        registration = SimpleNamespace(held=False)
        return SimpleNamespace(
            registration=registration, hands=hands, zones=zones, t_ns=t_ms * 1_000_000
        )

    state = UnsureState()
    state, told = unsure_step(state, reading(0, ("3",)))
    assert told is None  # one frame's doubt is not enough
    state, told = unsure_step(state, reading(100, ("3",), hands=True))
    assert told is None and state.since == {"3": 0}
    state, told = unsure_step(state, reading(260, ("3",)))
    assert told == frozenset({"3"})
    state, told = unsure_step(state, reading(330, ("3",)))
    assert told is None
    state, told = unsure_step(state, reading(400, ()))
    assert told == frozenset() and state == UnsureState(frozenset(), {})


# --------------------------------------------------------- the simulated MeM table
class Jobs:
    """call_soon for a test: the camera thread's news waits until the test runs it."""

    def __init__(self) -> None:
        self.jobs: list[Callable[[], None]] = []
        self.lock = threading.Lock()

    def __call__(self, job: Callable[[], None]) -> None:
        with self.lock:
            self.jobs.append(job)

    def until(self, done: Callable[[], bool], timeout: float = 30.0) -> bool:
        import time

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self.lock:
                jobs, self.jobs = self.jobs, []
            for job in jobs:
                job()
            if done():
                return True
            time.sleep(0.02)
        return done()


def test_the_simulated_table_lifts_a_stone_for_the_camera_to_see(store: Store) -> None:
    jobs = Jobs()
    controller = Controller(Config(), store, virtual_table=True, call_soon=jobs)
    try:
        controller.start("mem", MemChoices(names=("Ada", "Bo"), seed=SEED))
        play = mem_of(controller)
        table = play.table
        assert table is not None and play.view().camera.watching
        assert table.contents() == rules_board(play.state)
        play.table_tap(7)
        assert jobs.until(lambda: play.view().selected == 7)
        assert 7 not in table.contents()
        side = play.view().actor
        assert side is not None
        play.tap_cell(side, (0, 0))
        assert play.state.board[7] == 0
        # A stone picked up by touch and moved: the simulated hands take it off the table.
        play.tap_square(30)
        play.tap_cell(1 - side, (0, 0))
        assert play.state.board[30] == 0
        assert jobs.until(lambda: 30 not in table.contents() and table.frames > 0)
        assert jobs.until(lambda: not play.view().alerts, timeout=5)
    finally:
        controller.close()
    assert controller.play is None and play.table is None


def test_the_companions_move_is_laid_on_the_simulated_table(store: Store) -> None:
    jobs = Jobs()
    controller = Controller(Config(), store, virtual_table=True, call_soon=jobs)
    try:
        choices = MemChoices(
            game="mini", names=("Ada", ""), seed=SEED, companion=True, strength="easy"
        )
        controller.start("mem", choices)
        play = mem_of(controller)
        table = play.table
        assert table is not None and play.companion_side == 1
        rng = random.Random(SEED)
        while not play.companions_turn():
            play.referee.submit(random_action(play.state, rng))
        assert jobs.until(lambda: table.contents() == rules_board(play.state))
        # The companion waits while the table does not match the rules yet.
        assert jobs.until(lambda: not play.held and table.frames > 0)
        seq = play.referee.seq
        assert controller.step()
        # The companion's search comes back on the game's thread, and its stone leaves the
        # simulated table as the rules say: no alert.
        assert jobs.until(lambda: play.referee.seq > seq)
        assert jobs.until(lambda: table.contents() == rules_board(play.state))
        assert jobs.until(lambda: not play.view().alerts, timeout=5)
    finally:
        controller.close()
