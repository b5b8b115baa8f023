"""MeM at the table against the companion and on the clock, without a screen: the New game
choices, the seat, the companion's search off the game's thread (its moves, and its block or
allow when the player's move waits on it), a search dropped when the game is put down, and a
flag falling."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.config import Config
from companion.games.mem.engine import MemEngine
from companion.games.mem.play.game import COMPANION_DECIDES, MemPlay
from companion.games.mem.play.opponent import STRENGTHS, companion_action
from companion.games.mem.play.table import MemAtTable, MemSeat
from companion.games.mem.players import random_action
from companion.games.mem.screens.choices import (
    MemChoices,
    MemForm,
    companion_strength,
    hints_allowed,
    mem_setup_for,
    mem_title,
)
from companion.session import Referee
from companion.store import Store
from companion.table.choices import CLOCK_OPTIONS, Players
from companion.table.game_clock import GameClock
from companion.table.play import AGAINST_THE_COMPANION, AtTheTable

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "mem"
SEAT = MemSeat()


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.open(tmp_path / "games.sqlite3") as opened:
        yield opened


class Jobs:
    """call_soon for a test: jobs wait until the test runs them (as on the app's thread)."""

    def __init__(self) -> None:
        self.jobs: list[Callable[[], None]] = []

    def __call__(self, job: Callable[[], None]) -> None:
        self.jobs.append(job)

    def run(self) -> None:
        """Waits for the companion's search, then runs what it handed over."""
        for thread in threading.enumerate():
            if thread.name == "companion-move":
                thread.join(timeout=60)
        while self.jobs:
            self.jobs.pop(0)()


def table(store: Store, jobs: Jobs) -> AtTheTable:
    return AtTheTable(
        store=store,
        call_soon=jobs,
        on_alert=lambda _alerts: None,
        calibration_path=lambda game: Path("/nonexistent") / f"{game}.json",
        release_camera=lambda: None,
    )


def against_the_companion(
    store: Store, jobs: Jobs, game: str = "mini", strength: str = "easy", **more: Any
) -> MemAtTable:
    choices = MemChoices(
        game=game, names=("Ada", "Companion"), seed=5, companion=True, strength=strength, **more
    )
    referee = SEAT.begin(choices, store, Config())
    return SEAT.take_up(referee, table(store, jobs), choices)


# -- the New game screen -------------------------------------------------------------------


def test_the_form_offers_the_opponent_a_clock_and_a_strength() -> None:
    form = MemForm()
    assert form.companion
    rows = {row.key: row for row in form.rows(Config())}
    assert rows["mem_time_control"].options == CLOCK_OPTIONS
    assert rows["mem_time_control"].default == ""
    assert [value for _, value in rows["mem_strength"].options] == ["easy", "medium", "hard"]
    picks = {key: row.default for key, row in rows.items()}
    picks |= {"mem_time_control": "5+3", "mem_strength": "hard"}
    choices = form.choices(picks, Players(("Ada", ""), companion=True), {}, {})
    assert choices.names == ("Ada", "Companion")
    assert (choices.companion, choices.strength, choices.time_control) == (True, "hard", "5+3")
    solitaire = {**picks, "mem_game": "solitaire"}
    alone = form.choices(solitaire, Players(("Ada", ""), companion=True), {}, {})
    assert not alone.companion


def test_the_title_keeps_the_companion_its_strength_and_rated() -> None:
    setup = mem_setup_for(MemChoices(game="mem", names=("Ada", "Companion")), 9)
    title = mem_title(setup, hints=False, companion="hard")
    assert title == f"Ada vs Companion, MEM game, deal 9, rated, hard{AGAINST_THE_COMPANION}"
    assert companion_strength(title) == "hard" and not hints_allowed(title)
    friendly = mem_title(setup, hints=True, companion="easy")
    assert companion_strength(friendly) == "easy" and hints_allowed(friendly)
    alone = mem_title(setup, hints=True)
    assert companion_strength(alone) is None and hints_allowed(alone)


def test_a_clock_is_in_the_setup_and_the_game_but_never_in_solitaire(store: Store) -> None:
    assert mem_setup_for(MemChoices(game="mini", time_control="5+3"), 1)["timer"] is True
    assert "timer" not in mem_setup_for(MemChoices(game="solitaire", time_control="5+3"), 1)
    referee = SEAT.begin(MemChoices(game="mini", time_control="15+10"), store, Config())
    assert store.header(referee.game_id).clock == {
        "controls": ["15+10", "15+10"],
        "order": [0, 1],
    }
    expectation = referee.expected()
    assert expectation is not None and "time_expired" in expectation.actions
    alone = SEAT.begin(MemChoices(game="solitaire", time_control="5+3"), store, Config())
    assert store.header(alone.game_id).clock is None


# -- the companion plays -------------------------------------------------------------------


def _play_out(play: MemPlay, jobs: Jobs, rng: random.Random, limit: int = 400) -> None:
    """The player plays at random, the companion its searched moves, to the end."""
    for _ in range(limit):
        if play.referee.is_over:
            return
        if play.companions_turn():
            assert play.step()
            assert play.view().thinking
            assert not play.step()  # one search at a time
            jobs.run()
        else:
            play.referee.submit(random_action(play.state, rng))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game", "strength"), [("mini", "medium"), ("mem", "easy")])
def test_the_companion_plays_its_side_to_the_end(store: Store, game: str, strength: str) -> None:
    jobs = Jobs()
    play = against_the_companion(store, jobs, game, strength)
    try:
        assert play.companion_side == 1 and play.strength is STRENGTHS[strength]
        _play_out(play, jobs, random.Random(3))
        sides = [a.get("side") for _seq, _t, a in store.actions(play.referee.game_id)]
        assert sides.count(1) >= 2, "the companion made moves"
        assert play.view().over and not play.view().thinking
    finally:
        play.close()


def test_the_companion_answers_a_move_held_for_its_block(store: Store) -> None:
    lines = (GOLDEN / "mem-block-and-captures.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    referee = Referee.start(store, "mem", header["setup"], {}, title="test")
    engine = referee.engine
    for line in lines[1:8]:  # to Ada's move held for Bo's block or allow
        referee.submit(engine.action_from_dict(json.loads(line)["action"]))
    expectation = referee.expected()
    assert expectation is not None and expectation.actions[:2] == ("block", "allow")
    jobs = Jobs()
    play = MemPlay(referee, title="test", hints=True, call_soon=jobs, companion_side=1)
    try:
        assert play.companions_turn() and play.step()
        jobs.run()
        last = store.actions(referee.game_id)[-1][2]
        assert last["type"] in ("block", "allow") and last["side"] == 1
    finally:
        play.close()


def test_touches_wait_while_the_companion_decides(store: Store) -> None:
    jobs = Jobs()
    play = against_the_companion(store, jobs)
    try:
        rng = random.Random(1)
        while not play.companions_turn():
            play.referee.submit(random_action(play.state, rng))
        seq = play.referee.seq
        play.press("end_turn")
        play.tap_cell(1, (0, 0))
        assert play.view().message == COMPANION_DECIDES and play.referee.seq == seq
    finally:
        play.close()


def test_a_takeback_against_the_companion_gives_the_player_the_decision_again(
    store: Store,
) -> None:
    jobs = Jobs()
    play = against_the_companion(store, jobs)
    try:
        rng = random.Random(2)
        while not play.companions_turn():
            play.referee.submit(random_action(play.state, rng))
        while play.companions_turn():
            assert play.step()
            jobs.run()
        mine = [a for _s, _t, a in store.actions(play.referee.game_id) if a["side"] == 0]
        play.press("take_back")
        standing = [a for _s, _t, a in store.actions(play.referee.game_id)]
        # The companion's turn went back, and the player's last action with it.
        assert [a for a in standing if a["side"] == 0] == mine[:-1]
        assert not play.companions_turn()
    finally:
        play.close()


def test_a_move_searched_for_a_game_put_down_is_dropped(store: Store) -> None:
    jobs = Jobs()
    play = against_the_companion(store, jobs, strength="hard")
    rng = random.Random(4)
    while not play.companions_turn():
        play.referee.submit(random_action(play.state, rng))
    assert play.step()
    play.close()  # put down while the companion searches
    put_down_at = play.referee.seq
    again = SEAT.take_up(Referee.resume(store, play.referee.game_id), table(store, jobs), None)
    try:
        assert again.companion_side == 1 and again.strength is STRENGTHS["hard"]
        jobs.run()  # the old search's answer comes now, and is dropped
        assert again.referee.seq == put_down_at
        assert again.step()  # the game taken up again searches afresh
        jobs.run()
        assert again.referee.seq > put_down_at
    finally:
        again.close()


def test_easy_draws_among_good_moves_and_hard_plays_the_best() -> None:
    state = MemEngine().new_game({"game": "mini", "sides": [{"name": "A"}, {"name": "B"}]})
    easy = {companion_action(state, STRENGTHS["easy"], random.Random(seed)) for seed in range(12)}
    assert len(easy) > 1
    hard = {companion_action(state, STRENGTHS["hard"], random.Random(seed)) for seed in range(2)}
    assert len(hard) == 1


# -- the clock -----------------------------------------------------------------------------


def test_a_falling_flag_loses_the_game_on_time(store: Store) -> None:
    now = [0.0]
    setup = mem_setup_for(MemChoices(game="mini", names=("Ada", "Bo"), time_control="5+3"), 5)
    referee = Referee.start(
        store,
        "mem",
        setup,
        {},
        title="test",
        clock=lambda: now[0],
        game_clock={"controls": ["5+3", "5+3"], "order": [0, 1]},
    )
    clock = GameClock.attach(referee)
    assert clock is not None
    try:
        loser = referee.expected().actor  # type: ignore[union-attr]
        now[0] = 5 * 60 + 2.0
        clock.tick()
        assert referee.is_over
        summary = referee.engine.summary(referee.state)
        assert summary["outcome"] == {"winners": [1 - loser], "reason": "time"}
        assert "on time" in summary["lines"][-1]
        assert store.actions(referee.game_id)[-1][2] == {"type": "time_expired", "side": loser}
    finally:
        clock.close()
