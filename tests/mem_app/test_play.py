"""MemPlay without a screen: every touch through the referee and the store, refusals with
their rules, hints off the calling thread, takebacks, streaming and resuming."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.config import Config
from companion.games.contract import IllegalAction
from companion.games.mem import actions as A
from companion.games.mem.play.game import MemPlay, MemView
from companion.games.mem.screens.choices import MemChoices
from companion.games.mem.solver import legal_options
from companion.session import Referee
from companion.store import Store
from companion.table.wiring import GameParts
from companion.ui.controller import Controller
from tests.plays import mem_of


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "games.sqlite3") as opened:
        yield opened


class Jobs:
    """call_soon for a test: jobs wait until the test runs them (as on the app's thread)."""

    def __init__(self) -> None:
        self.jobs: list[Callable[[], None]] = []
        self.arrived = threading.Event()

    def __call__(self, job: Callable[[], None]) -> None:
        self.jobs.append(job)
        self.arrived.set()

    def run(self) -> None:
        assert self.arrived.wait(30), "no job came"
        while self.jobs:
            self.jobs.pop(0)()


def game(store: Store, kind: str = "mini", call_soon: Any = None, hints: bool = True) -> MemPlay:
    names = [{"name": "Ada"}] if kind == "solitaire" else [{"name": "Ada"}, {"name": "Bo"}]
    setup = {"game": kind, "sides": names, "seed": 5}
    referee = Referee.start(store, "mem", setup, {}, title="test")
    return MemPlay(referee, title="test", hints=hints, call_soon=call_soon)


def first_legal(play: MemPlay) -> tuple[int, int, tuple[int, int]]:
    side = play.referee.expected().actor  # type: ignore[union-attr]
    for square, cell in legal_options(play.state)[side].moves:
        try:
            play.referee.engine.apply(play.state, A.Move(side, square, *cell))
        except IllegalAction:
            continue
        return side, square, cell
    raise AssertionError("no legal move")


def test_a_move_by_touch_is_committed_to_the_store(store: Store) -> None:
    play = game(store)
    seen: list[MemView] = []
    play.subscribe(seen.append)
    side, square, cell = first_legal(play)
    play.tap_square(square)
    assert play.view().selected == square and play.view().marks.targets
    play.tap_cell(side, cell)
    (action,) = [a for _seq, _t, a in store.actions(play.referee.game_id)]
    assert action == {"type": "move", "side": side, "square": square, "row": 0, "col": 0}
    view = play.view()
    assert view.selected is None and view.seq == 1 and view.history == (view.scores,)
    assert seen[-1].seq == 1


def test_a_refusal_names_its_rule_and_changes_nothing(store: Store) -> None:
    play = game(store)
    side, square, _cell = first_legal(play)
    play.tap_square(square)
    play.tap_cell(1 - side, (0, 0))  # the other player's space: not their turn
    view = play.view()
    assert view.message.endswith("(MEM-R10)") and view.message[0].isupper()
    assert view.seq == 0 and store.actions(play.referee.game_id) == []
    # The stone stays picked up, to be put where it may go.
    assert view.selected == square


def test_guidance_is_not_an_action(store: Store) -> None:
    play = game(store)
    play.tap_cell(0, (0, 0))
    assert play.view().message.startswith("Tap a stone") and play.referee.seq == 0


def test_a_hint_is_searched_off_the_calling_thread_and_shown_for_its_position(
    store: Store,
) -> None:
    jobs = Jobs()
    play = game(store, "solitaire", call_soon=jobs)
    play.press("hint")
    assert play.view().hinting
    jobs.run()
    view = play.view()
    assert not view.hinting and view.hint is not None and view.hint.square in view.marks.takeable


def test_a_hint_for_a_position_gone_is_dropped(store: Store) -> None:
    jobs = Jobs()
    play = game(store, "solitaire", call_soon=jobs)
    play.press("hint")
    side, square, cell = first_legal(play)
    play.tap_square(square)
    play.tap_cell(side, cell)
    jobs.run()
    assert play.view().hint is None


def test_a_hint_for_a_position_taken_back_is_dropped(store: Store) -> None:
    jobs = Jobs()
    play = game(store, "solitaire", call_soon=jobs)
    side, square, cell = first_legal(play)
    play.tap_square(square)
    play.tap_cell(side, cell)
    play.press("hint")
    play.press("take_back")
    jobs.run()
    view = play.view()
    assert view.hint is None and not view.hinting and view.patterns == ((),)


def test_a_takeback_waits_for_the_other_player(store: Store) -> None:
    play = game(store)
    side, square, cell = first_legal(play)
    play.tap_square(square)
    play.tap_cell(side, cell)
    play.press("take_back")
    view = play.view()
    assert view.takeback is not None and view.takeback.agrees == 1 - side
    play.tap_cell(side, (1, 0))
    assert "takeback" in play.view().message and play.referee.seq == 1
    play.press("refuse")
    assert play.view().takeback is None and play.view().patterns[side]
    play.press("take_back")
    play.press("agree")
    view = play.view()
    assert view.patterns[side] == () and view.board[square] and view.history == ()


def test_a_solitaire_move_is_taken_back_at_once(store: Store) -> None:
    play = game(store, "solitaire")
    play.press("take_back")
    assert play.view().message == "There is no action to take back."
    side, square, cell = first_legal(play)
    play.tap_square(square)
    play.tap_cell(side, cell)
    play.press("take_back")
    view = play.view()
    assert view.patterns == ((),) and view.board[square] and not view.can_take_back


def test_the_controller_streams_mem_games_and_resumes_them(store: Store) -> None:
    streamed: list[tuple[Any, ...]] = []
    put_down: list[int] = []

    def on_game(parts: GameParts) -> Callable[[], None]:
        referee = parts.referee
        streamed.append((referee.engine.name, parts.clock, parts.scans))
        return lambda: put_down.append(referee.game_id)

    controller = Controller(Config(), store, on_game=on_game)
    controller.start("mem", MemChoices(game="mem", names=("Ada", "Bo"), seed=8))
    play = mem_of(controller)
    assert streamed == [("mem", None, None)]
    side, square, cell = first_legal(play)
    play.tap_square(square)
    play.tap_cell(side, cell)
    (row,) = controller.resumable()
    assert row.game == "mem" and row.title == "Ada vs Bo, MEM game, deal 8"
    controller.close()
    assert put_down == [row.id] and controller.play is None
    again = controller.resume(row.id)
    assert isinstance(again, MemPlay) and again.view().board == play.view().board
    assert again.view().hints and len(streamed) == 2
