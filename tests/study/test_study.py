"""Spaced repetition over a deck: what comes up, what is recorded, what the heatmap says."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from companion.decks import find_deck
from companion.study.log import StudyLog
from companion.study.schedule import Review, next_card, recall, replay
from companion.study.session import StudySession

START = datetime(2026, 11, 1, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def test_new_cards_come_in_deck_order_and_a_forgotten_one_comes_back_first() -> None:
    cards = replay([], [1, 2, 3])
    assert next_card(cards, [1, 2, 3], START) == 1
    cards = replay([Review(1, "good", START)], [1, 2, 3])
    assert next_card(cards, [1, 2, 3], START) == 2
    cards = replay([Review(1, "again", START), Review(2, "good", START)], [1, 2, 3])
    # 'Again' brings card 1 back within minutes; until then the new card 3 comes up.
    assert next_card(cards, [1, 2, 3], START + timedelta(seconds=1)) == 3
    assert next_card(cards, [1, 2, 3], START + timedelta(minutes=15)) == 1


def test_easier_recalls_push_the_next_review_further_and_recall_fades_with_time() -> None:
    easy = replay([Review(1, "easy", START)], [1])[1]
    hard = replay([Review(1, "hard", START)], [1])[1]
    assert easy.due > hard.due
    strength = replay([Review(1, "good", START)], [1])
    soon = recall(strength, START + timedelta(hours=1))[1]
    later = recall(strength, START + timedelta(days=30))[1]
    assert soon is not None and later is not None and 1 >= soon > later > 0
    assert recall(replay([], [1]), START) == {1: None}


def test_the_same_reviews_always_give_the_same_schedule() -> None:
    reviews = [
        Review(n % 5, ("good", "hard", "again")[n % 3], START + timedelta(hours=n))
        for n in range(40)
    ]
    assert replay(reviews, range(5)) == replay(reviews, range(5))


def test_a_session_records_each_rating_and_survives_a_restart(tmp_path: Path) -> None:
    deck = find_deck("mythologies-of-earth")
    clock = Clock()
    path = tmp_path / "study.sqlite3"
    with StudyLog.open(path) as log:
        study = StudySession(deck, log, clock=clock)
        first = study.card
        assert first is not None and first.number == min(c.number for c in deck.cards)
        study.rate("good")
        second = study.card
        assert second is not None and second.number != first.number
        study.rate("again")
        assert study.counts() == (0, len(deck.cards) - 2, 2)
        strengths = study.strengths()
        assert strengths[first.place] is not None and strengths[second.place] is not None
        assert sum(v is None for v in strengths.values()) == len(deck.cards) - 2
    clock.now += timedelta(minutes=20)
    with StudyLog.open(path) as log:
        again = StudySession(deck, log, clock=clock)
        assert again.card is not None and again.card.number == second.number  # due again
        assert [r.rating for r in log.reviews(deck.id)] == ["good", "again"]


def test_reviews_are_never_changed(tmp_path: Path) -> None:
    import sqlite3

    with StudyLog.open(tmp_path / "s.sqlite3") as log:
        log.add("d", Review(1, "good", START))
        with pytest.raises(ValueError):
            log.add("d", Review(1, "perfect", START))
    db = sqlite3.connect(tmp_path / "s.sqlite3")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("UPDATE reviews SET rating = 'easy'")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("DELETE FROM reviews")
