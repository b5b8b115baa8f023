"""A MemWars game with a clock: recorded, followed, timed out, resumed after a crash."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from companion.clock.controls import s
from companion.clock.model import FlagFell, MoveLimitExpired, remaining
from companion.games.memwars import actions as A
from companion.record import read_record, replay
from companion.session import Referee
from companion.store import Store
from companion.table.game_clock import GameClock


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


SETUP: dict[str, Any] = {
    "sides": [{"name": "Ada"}, {"name": "Bo"}],
    "quadrants": [1],
    "first_player": 0,
    "north": "top",
    "depth": 1,
    "seed": 1,
    "timer": True,
}


def start(
    tmp_path: Path, controls: list[str], **setup: Any
) -> tuple[Store, Referee, GameClock, FakeTime]:
    store = Store.open(tmp_path / "games.sqlite3")
    fake = FakeTime()
    referee = Referee.start(
        store,
        "memwars",
        {**SETUP, **setup},
        {},
        clock=fake,
        game_clock={"controls": controls, "order": [0, 1]},
    )
    game_clock = GameClock.attach(referee)
    assert game_clock is not None
    return store, referee, game_clock, fake


def test_the_clock_follows_the_player_the_rules_wait_on(tmp_path: Path) -> None:
    store, referee, game_clock, fake = start(tmp_path, ["300+5", "300+5"])
    assert game_clock.clock.running == 0  # Ada's claim
    fake.now = 10.0
    referee.submit(A.Claim(0, 1))  # Bo may challenge: Bo's time
    assert game_clock.clock.running == 1
    fake.now = 12.0
    referee.submit(A.Challenge(1))
    fake.now = 15.0
    referee.submit(A.Contest(0))
    fake.now = 16.0
    referee.submit(A.Maintain(1))  # the card is checked: nobody's time runs
    assert game_clock.clock.paused
    fake.now = 60.0
    referee.submit(A.Judge(False, True))  # Ada lost a turn: Bo claims next
    clock = game_clock.clock
    assert clock.running == 1 and not clock.paused
    # Ada: 10 s, then 3 s for her response; each hand-over earns the 5 s increment.
    assert remaining(clock, 0, s(60)) == s(300 - 10 + 5 - 3 + 5)
    # Bo: 2 s to challenge, 1 s to maintain; the check paused Bo's time, and Bo moves next,
    # so the clock did not change hands and no increment came with the check.
    assert remaining(clock, 1, s(60)) == s(300 - 2 + 5 - 1)
    store.close()


def test_a_move_limit_tells_the_game_and_is_recorded(tmp_path: Path) -> None:
    store, referee, game_clock, fake = start(tmp_path, ["-!30", "-!30"])
    fake.now = 31.0
    events = game_clock.tick()
    assert any(isinstance(e, MoveLimitExpired) for e in events)
    assert referee.seq == 1
    assert store.actions(referee.game_id)[0][2] == {"type": "time_expired", "side": 0}
    assert referee.state.turn == 1 and game_clock.clock.running == 1
    out = io.StringIO()
    store.export(referee.game_id, out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0]["clock"] == {"controls": ["-!30", "-!30"], "order": [0, 1]}
    assert [line["input"]["type"] for line in lines[1:] if "clock" in line] == ["start", "tick"]
    record = read_record(io.StringIO(out.getvalue()))
    assert replay(record).clock == game_clock.clock
    store.close()


def test_a_flag_under_flag_loses_ends_the_game(tmp_path: Path) -> None:
    store, referee, game_clock, fake = start(
        tmp_path, ["60", "60"], house_rules={"mw.timer": "FLAG_LOSES"}
    )
    fake.now = 61.0
    events = game_clock.tick()
    assert events and isinstance(events[0], FlagFell) and events[0].at == s(60)
    assert referee.is_over and referee.state.outcome.winners == (1,)
    assert game_clock.clock.paused or referee.expected() is None
    store.close()


def test_checkpoints_while_running_and_a_paused_resume_after_a_crash(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store, referee, game_clock, fake = start(tmp_path, ["300", "300"])
    for tick in range(1, 26):
        fake.now = tick * 0.2
        game_clock.tick()
    inputs = store.clock_inputs(referee.game_id)
    checkpoints = [t for _, t, data in inputs if data["type"] == "checkpoint"]
    # A second after the last input at the latest, each dated SETTLE_NS (0.25 s) back, where
    # no press can still come from.
    assert checkpoints == [s(0.75), s(1.55), s(2.35), s(3.15), s(3.95), s(4.75)]
    fake.now = 5.7  # the power goes: 0.95 s since the last checkpoint are not recorded
    store.close()

    reopened = Store.open(tmp_path / "games.sqlite3")
    later = FakeTime()
    later.now = 1000.0  # a new boot: the monotonic clock reads something else entirely
    resumed = Referee.resume(reopened, referee.game_id, clock=later)
    with caplog.at_level("INFO", logger="companion.table.game_clock"):
        again = GameClock.attach(resumed)
    assert again is not None
    assert again.clock.paused
    assert remaining(again.clock, 0, again.now_ns()) == s(295.25)
    assert "clock resumed paused" in caplog.text
    later.now = 1010.0  # paused: nobody's time runs until the arbiter resumes
    assert remaining(again.clock, 0, again.now_ns()) == s(295.25)
    again.resume()
    later.now = 1012.0
    assert remaining(again.clock, 0, again.now_ns()) == s(293.25)
    reopened.close()


def test_presses_from_buttons_are_placed_on_the_game_timeline(tmp_path: Path) -> None:
    from companion.clock.presses import ButtonPress

    store, _referee, game_clock, fake = start(tmp_path, ["300", "300"])
    fake.now = 4.0
    game_clock.press(ButtonPress("player", 0, s(4)))
    assert game_clock.clock.running == 1
    assert remaining(game_clock.clock, 0, s(4)) == s(296)
    game_clock.press(ButtonPress("pause", None, s(5)))
    assert game_clock.clock.paused
    store.close()


def test_a_press_stamped_before_the_flag_wins_in_a_game(tmp_path: Path) -> None:
    from companion.clock.presses import ButtonPress

    store, referee, game_clock, fake = start(tmp_path, ["60", "60"])
    fake.now = 60.02  # a tick 20 ms after Ada's flag instant
    assert game_clock.tick() == ()
    fake.now = 60.04  # her press, made 10 ms before the flag, arrives
    events = game_clock.press(ButtonPress("player", 0, s(60) - 10_000_000))
    assert not any(isinstance(e, FlagFell) for e in events)
    assert game_clock.clock.running == 1 and game_clock.clock.players[0].flagged_at is None
    assert remaining(game_clock.clock, 0, s(61)) == 10_000_000
    assert not referee.is_over and referee.seq == 0  # the game heard of no flag
    fake.now = 61.0
    game_clock.tick()
    out = io.StringIO()
    store.export(referee.game_id, out)
    assert replay(read_record(io.StringIO(out.getvalue()))).clock == game_clock.clock
    store.close()


def test_a_timed_record_matches_the_schema(tmp_path: Path) -> None:
    import jsonschema

    schema = json.loads((Path(__file__).parents[2] / "companion/record.schema.json").read_text())
    store, referee, game_clock, fake = start(tmp_path, ["40/5400+30:1800+30", "300d5"])
    fake.now = 3.0
    referee.submit(A.Claim(0, 1))
    fake.now = 4.5
    game_clock.tick()
    game_clock.adjust(1, s(10))
    referee.submit(A.DeclineChallenge(1))
    out = io.StringIO()
    store.export(referee.game_id, out)
    validator = jsonschema.Draft202012Validator(schema)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    for line in lines:
        validator.validate(line)
    assert {line["input"]["type"] for line in lines[1:] if "clock" in line} >= {
        "start",
        "switch",
        "checkpoint",
        "adjust",
    }
    assert replay(read_record(io.StringIO(out.getvalue()))).clock == game_clock.clock
    store.close()


def test_replay_prints_the_clock(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    store, referee, game_clock, fake = start(tmp_path, ["300", "300"])
    fake.now = 20.0
    referee.submit(A.Claim(0, 1))
    fake.now = 21.25  # a checkpoint, dated SETTLE_NS back: at 21 s
    game_clock.tick()
    record = tmp_path / "timed.jsonl"
    with record.open("w") as out:
        store.export(referee.game_id, out)
    store.close()
    assert main(["replay", str(record), "--json"]) == 0
    clock = json.loads(capsys.readouterr().out)["clock"]
    assert [p["remaining_ns"] for p in clock] == [s(280), s(299)]  # at the 21 s checkpoint
    assert main(["replay", str(record)]) == 0
    assert "Clock: Ada 4:40 after 1 moves" in capsys.readouterr().out
