"""MeM with a game clock (MEM-A16): a decision of a timed game also accepts `time_expired`
from the player it waits on, who then loses (mem.timeout=LOSS) or the game is scored as it
stands (SCORE)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.contract import BadSetup, IllegalAction
from companion.games.mem import actions as A
from companion.games.mem import events as E
from companion.games.mem.board import geometry
from companion.games.mem.engine import summary
from companion.games.mem.narrate import narrate
from companion.games.mem.state import State

from .helpers import ENGINE, agreed, kinds, play, setup, with_patterns

SQ = geometry().square_at
BLOCK = "AA../....../....../AA..B./....../...."


def timed(data: dict[str, Any], **rules: str) -> dict[str, Any]:
    house = {**data.get("house_rules", {}), **rules}
    return {**data, "timer": True, "house_rules": house}


def test_a_game_without_a_clock_never_times_out() -> None:
    state = ENGINE.new_game(setup("mem"))
    expectation = ENGINE.expected(state)
    assert expectation is not None and "time_expired" not in expectation.actions
    with pytest.raises(IllegalAction, match="MEM-A16"):
        ENGINE.apply(state, A.TimeExpired(state.turn))


@pytest.mark.parametrize("game", ["mini", "mem"])
def test_every_decision_of_a_timed_game_may_time_out(game: str) -> None:
    state = ENGINE.new_game(setup(game, timer=True))
    expectation = ENGINE.expected(state)
    assert expectation is not None
    assert expectation.actions[-1] == "time_expired"
    assert expectation.timed == expectation.actor == state.turn


def test_only_the_player_whose_clock_runs_can_time_out() -> None:
    state = ENGINE.new_game(setup("mem", timer=True))
    with pytest.raises(IllegalAction, match="MEM-A16"):
        ENGINE.apply(state, A.TimeExpired(state.other))


def test_the_player_whose_time_runs_out_loses_whatever_the_stones() -> None:
    # Ada is ahead (two stones to none) when her time runs out: Bo wins all the same.
    state = with_patterns(timed(agreed("mem", BLOCK)), ((0, 0, 3), (0, 1, 3)), (), turn=0)
    state, events = play(state, A.TimeExpired(0))
    assert kinds(events) == ["flag_fell", "game_ended"]
    assert events[0] == E.FlagFell(0)
    assert state.outcome is not None
    assert (state.outcome.winners, state.outcome.reason) == ((1,), "time")
    assert ENGINE.expected(state) is None
    assert summary(state)["lines"][-1] == "Winner: Bo, on time (Ada's ran out)."
    assert summary(state)["outcome"] == {"winners": [1], "reason": "time"}
    with pytest.raises(IllegalAction, match=r"MEM-R10\.5"):
        ENGINE.apply(state, A.TimeExpired(1))


def test_under_score_the_game_is_scored_as_it_stands() -> None:
    data = timed(agreed("mem", BLOCK), **{"mem.timeout": "SCORE"})
    state = with_patterns(data, ((0, 0, 3), (0, 1, 3)), (), turn=0)
    state, events = play(state, A.TimeExpired(0))
    assert kinds(events) == ["flag_fell", "game_ended"]
    assert state.outcome is not None
    assert (state.outcome.winners, state.outcome.reason) == ((0,), "time_scored")
    assert state.outcome.scores == (2, 0)
    assert summary(state)["lines"][-1] == ("Winner: Ada (time ran out, the position scored).")


def test_under_score_equal_stones_are_a_draw() -> None:
    data = timed(agreed("mem", BLOCK), **{"mem.timeout": "SCORE"})
    state, _ = play(ENGINE.new_game(data), A.TimeExpired(0))
    assert state.outcome is not None and state.outcome.winners == ()
    assert summary(state)["lines"][-1] == "Draw (time ran out, the position scored)."


def _held(data: dict[str, Any]) -> State:
    """Bo's move waits for Ada's block or allow."""
    state = with_patterns(data, ((0, 0, 3), (0, 1, 3)), (), turn=1)
    state, events = play(state, A.Move(1, 1, 0, 0))
    assert kinds(events) == ["move_announced"]
    return state


def test_a_block_or_allow_runs_the_blockers_clock() -> None:
    state = _held(timed(agreed("mem", BLOCK)))
    expectation = ENGINE.expected(state)
    assert expectation is not None
    assert expectation.actions == ("block", "allow", "time_expired")
    assert expectation.timed == 0
    with pytest.raises(IllegalAction, match="MEM-A16"):
        ENGINE.apply(state, A.TimeExpired(1))  # Bo waits: his clock is not running
    over, events = play(state, A.TimeExpired(0))
    assert kinds(events) == ["flag_fell", "game_ended"]
    assert over.outcome is not None and over.outcome.winners == (1,)
    assert over.pending is None


def test_under_score_a_held_move_is_dropped_unplayed() -> None:
    state = _held(timed(agreed("mem", BLOCK), **{"mem.timeout": "SCORE"}))
    over, _ = play(state, A.TimeExpired(0))
    assert over.board == state.board
    assert over.outcome is not None and over.outcome.winners == (0,)


def test_solitaire_has_no_clock() -> None:
    with pytest.raises(BadSetup) as refused:
        ENGINE.new_game(setup("solitaire", timer=True))
    assert refused.value.field == "timer"
    with pytest.raises(BadSetup, match="timer"):
        ENGINE.new_game(setup("mem", timer="yes"))


def test_the_clock_round_trips_through_the_codecs() -> None:
    start = ENGINE.new_game(setup("mini", timer=True))
    assert ENGINE.setup_of(start)["timer"] is True
    assert "timer" not in ENGINE.setup_of(ENGINE.new_game(setup("mini")))
    assert ENGINE.new_game(ENGINE.setup_of(start)) == start
    action = A.TimeExpired(start.turn)
    data = ENGINE.action_to_dict(action)
    assert data == {"type": "time_expired", "side": start.turn}
    assert ENGINE.action_from_dict(data) == action
    over, events = ENGINE.apply(start, action)
    assert ENGINE.event_to_dict(events[0]) == {"type": "flag_fell", "side": start.turn}
    assert ENGINE.events.from_dict(ENGINE.event_to_dict(events[1])) == events[1]
    assert ENGINE.state_from_dict(ENGINE.state_to_dict(over)) == over


def test_the_ticker_says_who_ran_out_of_time() -> None:
    start = ENGINE.new_game(setup("mem", timer=True))
    loser = start.turn
    _, events = ENGINE.apply(start, A.TimeExpired(loser))
    names = start.setup.names
    lines = [narrate(event, start.setup) for event in events]
    assert lines[0] == f"{names[loser]}'s time has run out."
    winner = names[1 - loser]
    assert lines[1] is not None and lines[1].startswith(f"Game over: {winner} wins on time")
