"""Study from play: the verdicts of a game (a fact stated wrongly, a challenge lost, a bluff
given up) go into each player's own schedule, once, so that a player studies what they got
wrong at the table."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.decks import find_deck
from companion.games.memwars.play.simulation import SimulationOptions, run_simulation
from companion.record import read_record_file
from companion.store import Store
from companion.study.from_play import learn_from_games, verdicts_of
from companion.study.log import StudyLog
from companion.study.session import StudySession

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_every_outcome_of_a_challenge_is_a_verdict_on_the_right_player() -> None:
    record = read_record_file(str(GOLDEN / "standard-challenge-outcomes.jsonl"))
    found = [
        (v.player, v.verdict.card, v.verdict.rating, v.verdict.seq) for v in verdicts_of(record)
    ]
    assert found == [
        ("Bo", 2, "again", 5),  # gave the place up to the challenger: a bluff
        ("Bo", 3, "again", 9),  # forsook the challenge
        ("Bo", 4, "again", 14),  # maintained: the claimant wrong, the challenger right
        ("Ada", 4, "good", 14),
        ("Bo", 7, "good", 21),  # maintained: the claimant right, the challenger wrong
        ("Ada", 7, "again", 21),
        ("Ada", 9, "again", 27),  # both wrong
        ("Bo", 9, "again", 27),
        ("Bo", 10, "good", 32),  # both right
        ("Ada", 10, "good", 32),
    ]
    # Dated when the table knew: the game's start plus the action's time.
    first = verdicts_of(record)[0]
    assert first.at == datetime(2026, 11, 22, 10, 0, tzinfo=UTC) + timedelta(seconds=4.0)


def test_an_answer_judged_is_a_verdict_and_a_game_without_cards_has_none() -> None:
    basic = read_record_file(str(GOLDEN / "hybrid-standard-vs-basic.jsonl"))
    ratings = {v.verdict.rating for v in verdicts_of(basic) if "answered" in v.verdict.why}
    assert ratings <= {"good", "again"} and ratings
    for record in sorted((GOLDEN / "mem").glob("*.jsonl"))[:2]:
        assert verdicts_of(read_record_file(str(record))) == []


@pytest.fixture()
def played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store with a finished simulated Standard game on the configured deck."""
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "none.toml"))
    assert run_simulation(SimulationOptions(seed=5, quadrants=1, quiet=True)) == 0
    return tmp_path / "games.sqlite3"


def test_a_finished_game_is_learnt_once_into_each_players_schedule(
    played: Path, tmp_path: Path
) -> None:
    deck = find_deck("mythologies-of-earth")
    with Store.open(played) as store, StudyLog.open(tmp_path / "study.sqlite3") as log:
        (row,) = store.games()
        text_path = tmp_path / "game.jsonl"
        with text_path.open("w") as out:
            store.export(row.id, out)
        verdicts = verdicts_of(read_record_file(str(text_path)))
        assert verdicts, "a Standard game between simulated players has challenges"
        assert learn_from_games(store, log, deck) == 1
        assert learn_from_games(store, log, deck) == 0  # never twice
        players = {v.player for v in verdicts}
        assert set(log.players(deck.id)) == players
        for player in players:
            mine = [v.verdict for v in verdicts if v.player == player]
            reviews = log.reviews(deck.id, player)
            assert [(r.card, r.rating) for r in reviews] == [(v.card, v.rating) for v in mine]
            assert [r.at for r in reviews] == sorted(r.at for r in reviews)
        assert log.reviews(deck.id) == []  # the table's own study is its own
        # A player's schedule quizzes what they got wrong at the table first.
        player, wrong = next(
            (v.player, v.verdict.card) for v in verdicts if v.verdict.rating == "again"
        )
        later = max(v.at for v in verdicts) + timedelta(hours=1)
        study = StudySession(deck, log, clock=lambda: later, player=player)
        wrong_cards = {
            v.verdict.card for v in verdicts if v.player == player and v.verdict.rating == "again"
        }
        assert study.card is not None and study.card.number in wrong_cards, (wrong, study.card)


def test_a_log_from_before_players_keeps_its_reviews_as_the_tables(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "study.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE reviews (id INTEGER PRIMARY KEY, deck TEXT NOT NULL, "
            "card INTEGER NOT NULL, rating TEXT NOT NULL, at TEXT NOT NULL)"
        )
        db.execute(
            "INSERT INTO reviews (deck, card, rating, at) VALUES ('d', 3, 'good', ?)",
            (datetime(2026, 1, 1, tzinfo=UTC).isoformat(),),
        )
    with StudyLog.open(path) as log:
        assert [r.card for r in log.reviews("d")] == [3]
        assert log.players("d") == []
