from __future__ import annotations

import logging
from pathlib import Path

import pytest

from companion.games.contract import Action, BadSetup, IllegalAction
from companion.session import Notification, Referee
from companion.store import Store, StoreError, load_game
from tests.support.toy_game import Hide, Roll, Take, scripted_game

SETUP = {"pile": 12, "seed": 3}
DECK = {"id": "none", "hash": "0"}


class FakeClock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def actions_of(referee: Referee) -> list[Action]:
    return [referee.engine.action_from_dict(d) for d in scripted_game(SETUP)]


def test_start_records_the_game(game_store: Store) -> None:
    referee = Referee.start(game_store, "toy", SETUP, DECK, title="friday")
    header = game_store.header(referee.game_id)
    assert (header.game, header.setup, header.deck) == ("toy", SETUP, DECK)
    assert header.started.endswith("Z")
    row = game_store.game(referee.game_id)
    assert (row.status, row.title, row.actions) == ("playing", "friday", 0)
    assert referee.seq == 0
    assert referee.state == referee.engine.new_game(SETUP)
    expected = referee.expected()
    assert expected is not None and expected.actor == 0


def test_a_bad_setup_records_nothing(game_store: Store) -> None:
    with pytest.raises(BadSetup, match="pile"):
        Referee.start(game_store, "toy", {"pile": 0}, DECK)
    assert game_store.games() == []


def test_submit_plays_and_records(game_store: Store) -> None:
    referee = Referee.start(game_store, "toy", SETUP, DECK)
    engine = referee.engine
    state = engine.new_game(SETUP)
    for n, action in enumerate(actions_of(referee), start=1):
        state, expected_events = engine.apply(state, action)
        assert referee.submit(action) == expected_events
        assert referee.seq == n
        assert referee.state == state
    assert referee.is_over and referee.expected() is None
    assert game_store.game(referee.game_id).status == "finished"
    recorded = [engine.action_from_dict(a) for _, _, a in game_store.actions(referee.game_id)]
    assert recorded == actions_of(referee)


def test_resume_equals_replay(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with Store.open(path) as store:
        referee = Referee.start(store, "toy", SETUP, DECK)
        actions = actions_of(referee)
        for action in actions[:7]:
            referee.submit(action)
        before = (referee.state, referee.seq, referee.expected())
    with Store.open(path) as store:
        resumed = Referee.resume(store, referee.game_id)
        assert (resumed.state, resumed.seq, resumed.expected()) == before
        for action in actions[7:]:
            resumed.submit(action)
        assert resumed.is_over
        assert load_game(store, referee.game_id).state == resumed.state


def test_an_illegal_action_changes_nothing(game_store: Store) -> None:
    referee = Referee.start(game_store, "toy", SETUP, DECK)
    referee.submit(Take(side=0, count=2))
    heard: list[Notification] = []
    referee.subscribe(heard.append)
    state, seq = referee.state, referee.seq
    for action, rule in (
        (Take(side=0, count=1), "TOY-TURN"),
        (Take(side=1, count=4), "TOY-TAKE"),
        (Roll(), "TOY-ROLL"),
        (Hide(side=1, value=12), "TOY-HIDE"),
    ):
        with pytest.raises(IllegalAction) as caught:
            referee.submit(action)
        assert caught.value.rule == rule
    assert (referee.state, referee.seq) == (state, seq)
    assert len(game_store.actions(referee.game_id)) == 1
    assert len(game_store.events(referee.game_id)) == 1
    assert heard == []


def test_subscribers_hear_committed_actions_in_order(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store.open(path)
    referee = Referee.start(store, "toy", SETUP, DECK)
    heard: list[Notification] = []
    stored_when_heard: list[int] = []

    def check_durable(note: Notification) -> None:
        # Another connection sees the action already: it was committed before we heard.
        with Store.open(path) as other:
            stored_when_heard.append(len(other.actions(referee.game_id)))

    referee.subscribe(heard.append)
    referee.subscribe(check_durable)
    events = referee.submit(Take(side=0, count=3))
    referee.submit(Hide(side=1, value=4))
    assert [n.seq for n in heard] == [1, 2]
    assert heard[0].action == Take(side=0, count=3)
    assert heard[0].events == events
    assert heard[1].state == referee.state
    assert stored_when_heard == [1, 2]
    store.close()


def test_a_failed_store_write_is_heard_by_nobody(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store.open(path)
    referee = Referee.start(store, "toy", SETUP, DECK)
    referee.submit(Take(side=0, count=1))
    heard: list[Notification] = []
    referee.subscribe(heard.append)
    state = referee.state
    store.close()
    with pytest.raises(StoreError, match="closed"):
        referee.submit(Take(side=1, count=1))
    assert (referee.state, referee.seq, heard) == (state, 1, [])
    with Store.open(path) as reopened:
        assert len(reopened.actions(referee.game_id)) == 1


def test_a_refused_append_leaves_the_referee_as_it_was(game_store: Store) -> None:
    referee = Referee.start(game_store, "toy", SETUP, DECK)
    # Another referee on the same game got there first.
    other = Referee.resume(game_store, referee.game_id)
    other.submit(Take(side=0, count=1))
    heard: list[Notification] = []
    referee.subscribe(heard.append)
    with pytest.raises(StoreError, match="must be seq 2, got 1"):
        referee.submit(Take(side=0, count=2))
    assert (referee.seq, heard) == (0, [])
    assert [a["count"] for _, _, a in game_store.actions(referee.game_id)] == [1]


def test_a_raising_subscriber_does_not_stop_the_others(
    game_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    referee = Referee.start(game_store, "toy", SETUP, DECK)
    heard: list[int] = []

    def broken(note: Notification) -> None:
        raise RuntimeError("screen unplugged")

    referee.subscribe(broken)
    referee.subscribe(lambda note: heard.append(note.seq))
    with caplog.at_level(logging.WARNING, logger="companion.session"):
        referee.submit(Take(side=0, count=1))
        referee.submit(Take(side=1, count=1))
    assert heard == [1, 2]
    assert referee.seq == 2
    failures = [r for r in caplog.records if "subscriber" in r.getMessage()]
    assert len(failures) == 2 and all(r.levelno == logging.WARNING for r in failures)


def test_unsubscribe(game_store: Store) -> None:
    referee = Referee.start(game_store, "toy", SETUP, DECK)
    heard: list[str] = []
    stop_b = referee.subscribe(lambda note: heard.append("b"))

    def a(note: Notification) -> None:
        heard.append("a")
        stop_b()  # unsubscribing another subscriber mid-notification

    stop_a = referee.subscribe(a)
    referee.submit(Take(side=0, count=1))
    referee.submit(Take(side=1, count=1))
    stop_a()
    stop_a()  # twice is harmless
    referee.submit(Take(side=0, count=1))
    assert heard == ["b", "a", "a"]


def test_time_counts_from_the_start_and_continues_on_resume(game_store: Store) -> None:
    clock = FakeClock(100.0)
    referee = Referee.start(game_store, "toy", SETUP, DECK, clock=clock)
    clock.now = 102.5
    referee.submit(Take(side=0, count=1))
    clock.now = 110.0
    referee.submit(Take(side=1, count=1))
    # The companion was off for a while; the new process's clock starts elsewhere.
    later = FakeClock(5.0)
    resumed = Referee.resume(game_store, referee.game_id, clock=later)
    later.now = 8.0
    resumed.submit(Take(side=0, count=1))
    later.now = 1.0  # a clock that steps back must not make t go backwards
    resumed.submit(Take(side=1, count=1))
    times = [t for _, t, _ in game_store.actions(referee.game_id)]
    assert times == [2.5, 10.0, 13.0, 13.0]
    assert resumed.last_t == 13.0


def test_resume_marks_a_game_finished_after_a_crash(
    game_store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    referee = Referee.start(game_store, "toy", SETUP, DECK)
    actions = actions_of(referee)
    for action in actions[:-1]:
        referee.submit(action)

    def crash(game_id: int, status: str) -> None:
        raise StoreError("disk unplugged")

    monkeypatch.setattr(game_store, "set_status", crash)
    heard: list[Notification] = []
    referee.subscribe(heard.append)
    with caplog.at_level(logging.WARNING, logger="companion.session"):
        referee.submit(actions[-1])  # committed, so it counts and is heard
    assert referee.is_over and heard[-1].seq == len(actions)
    assert "could not mark the game finished" in caplog.text
    monkeypatch.undo()
    assert game_store.game(referee.game_id).status == "playing"
    Referee.resume(game_store, referee.game_id)
    assert game_store.game(referee.game_id).status == "finished"


def test_action_payloads_are_logged_only_at_debug(
    game_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    referee = Referee.start(game_store, "toy", SETUP, DECK)
    with caplog.at_level(logging.INFO, logger="companion.session"):
        referee.submit(Hide(side=0, value=7))
    info = caplog.text
    assert "action 1" in info and "'value'" not in info
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="companion.session"):
        referee.submit(Hide(side=1, value=8))
    assert "'value': 8" in caplog.text
