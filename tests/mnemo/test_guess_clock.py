"""The per-guess clock (MN-T4) at the table: every guess gets the agreed time afresh, the
players watch it count down, and a guess that takes longer forfeits the turn's guessing."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from companion.games.mnemo import actions as A
from companion.games.mnemo import events as E
from companion.games.mnemo.touch import TOUCH
from companion.record import read_record, replay
from companion.session import Referee
from companion.store import Store
from companion.table.game_clock import GameClock

NOUN = {"spelt": True, "noun": True, "verb": False, "reversible": False}
SETUP: dict[str, Any] = {
    "sides": [
        {"name": "Ada", "word": "pot", "facts": NOUN},
        {"name": "Bo", "word": "cab", "facts": NOUN},
    ],
    "seed": 1,
    "first_player": 0,
    "guess_seconds": 30,
}
FREE_GUESSING = 6  # the die face whose codex entry lets the dicer guess until wrong


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def start(tmp_path: Path) -> tuple[Store, Referee, GameClock, FakeTime]:
    store = Store.open(tmp_path / "games.sqlite3")
    fake = FakeTime()
    game_clock = TOUCH.game_clock(SETUP)
    assert game_clock == {"controls": ["-!30", "-!30"], "order": [0, 1]}
    referee = Referee.start(store, "mnemo", SETUP, {}, clock=fake, game_clock=game_clock)
    clock = GameClock.attach(referee)
    assert clock is not None
    return store, referee, clock, fake


def move_left(clock: GameClock, player: int) -> str:
    return clock.display().players[player].detail


def test_a_game_without_a_guess_time_has_no_clock() -> None:
    assert TOUCH.game_clock({**SETUP, "guess_seconds": 0}) is None


def test_each_guess_gets_the_whole_guess_time(tmp_path: Path) -> None:
    store, referee, clock, fake = start(tmp_path)
    assert clock.clock.running is None  # the roll is nobody's time
    referee.submit(A.Roll(side=0, face=FREE_GUESSING))
    assert clock.clock.running == 0 and not clock.clock.paused
    fake.now = 15.0
    assert move_left(clock, 0) == "move 15.0"
    referee.submit(A.Guess(side=0, owner=1, chip=0, guess="C"))  # right: Ada guesses again
    assert clock.clock.running == 0
    assert move_left(clock, 0) == "move 0:30"
    fake.now = 40.0
    clock.tick()
    assert referee.state.turn == 0  # 25 s into the second guess: still Ada's
    referee.submit(A.Guess(side=0, owner=1, chip=1, guess="E"))  # wrong: Bo rolls
    assert clock.clock.paused
    store.close()


def test_a_guess_that_takes_too_long_forfeits_the_turns_guessing(tmp_path: Path) -> None:
    store, referee, clock, fake = start(tmp_path)
    referee.submit(A.Roll(side=0, face=FREE_GUESSING))
    fake.now = 10.0
    referee.submit(A.Guess(side=0, owner=1, chip=0, guess="C"))
    fake.now = 41.0  # 31 s into the second guess, with the settling time gone by
    clock.tick()
    state = referee.state
    assert state.turn == 1 and state.phase == "roll"
    assert store.actions(referee.game_id)[-1][2] == {"type": "time_expired", "side": 0}
    assert [e["type"] for _, _, e in store.events(referee.game_id)].count(
        E.GuessTimeExpired.kind
    ) == 1
    # The record replays to the same clock and the same game.
    out = io.StringIO()
    store.export(referee.game_id, out)
    replayed = replay(read_record(io.StringIO(out.getvalue())))
    assert replayed.clock == clock.clock
    assert replayed.state == state
    store.close()
