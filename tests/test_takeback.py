"""Taking the last move back: recorded, never erased, and the game as if it was never made."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest

from companion.games.contract import IllegalAction
from companion.games.memwars import actions as A
from companion.record import read_record
from companion.session import Notification, Referee, TakenBack
from companion.store import Store, StoreError, load_game

from .memwars.helpers import setup

DECK = {"id": "none", "hash": "0"}


def test_a_move_taken_back_no_longer_counts_but_stays_in_the_file(game_store: Store) -> None:
    referee = Referee.start(game_store, "memwars", setup(), DECK)
    heard: list[Notification] = []
    referee.subscribe(heard.append)
    referee.submit(A.Claim(0, 13))
    before_claim = referee.engine.new_game(setup())
    assert referee.take_back() == 1
    assert referee.state == before_claim
    assert isinstance(heard[-1].action, TakenBack) and heard[-1].action.seq == 1
    assert game_store.actions(referee.game_id) == []
    assert game_store.game(referee.game_id).actions == 0
    assert game_store.taken_back(referee.game_id) == [1]
    # The next move is numbered after the one taken back: no seq is used twice.
    referee.submit(A.Claim(0, 20))
    assert [seq for seq, _, _ in game_store.actions(referee.game_id)] == [2]
    assert referee.state.places[20].crystals == (0,) and referee.state.places[13].crystals == ()


def test_resume_and_export_leave_out_what_was_taken_back(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with Store.open(path) as store:
        referee = Referee.start(store, "memwars", setup(), DECK)
        referee.submit(A.Claim(0, 13))
        referee.submit(A.DeclineChallenge(1))
        referee.take_back()
        referee.submit(A.Challenge(1))
        game_id = referee.game_id
        state = referee.state
    with Store.open(path) as store:
        loaded = load_game(store, game_id)
        assert loaded.state == state and loaded.seq == 3
        resumed = Referee.resume(store, game_id)
        resumed.submit(A.GiveUp(0))
        out = io.StringIO()
        store.export(game_id, out)
    record = read_record(io.StringIO(out.getvalue()))
    assert [a.action.kind for a in record.actions] == ["claim", "challenge", "give_up"]


def test_only_the_last_move_and_only_while_playing(game_store: Store) -> None:
    referee = Referee.start(game_store, "memwars", setup(), DECK)
    with pytest.raises(IllegalAction):
        referee.take_back()
    referee.submit(A.Claim(0, 13))
    referee.submit(A.DeclineChallenge(1))
    with pytest.raises(StoreError, match="only the last move"):
        game_store.take_back(referee.game_id, 1, 99.0)


def test_takebacks_are_append_only(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with Store.open(path) as store:
        referee = Referee.start(store, "memwars", setup(), DECK)
        referee.submit(A.Claim(0, 13))
        referee.take_back()
    db = sqlite3.connect(path)
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("DELETE FROM takebacks")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("UPDATE takebacks SET seq = 2")
