"""When each card of a deck is due again, from the reviews so far: FSRS, replayed.

The state of a study deck is never stored, only its reviews; replaying them through the
scheduler (without fuzzing, so the same reviews always give the same schedule) gives each
card's memory state, its due date and how likely it is to be recalled now.

    cards = replay(reviews, numbers=deck_numbers)
    next_card(cards, order=deck_numbers, now=now)       # the card to quiz
    recall(cards, now)                                   # card -> 0..1, None if never seen
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from fsrs import Card, Rating, Scheduler

RATINGS: Mapping[str, Rating] = {
    "again": Rating.Again,
    "hard": Rating.Hard,
    "good": Rating.Good,
    "easy": Rating.Easy,
}
"""What the player says of a recall, as FSRS grades it."""

SCHEDULER = Scheduler(enable_fuzzing=False)
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)
"""A new card is due from the start of time: it is waiting to be learnt."""


@dataclass(frozen=True, slots=True)
class Review:
    card: int
    rating: str
    """again, hard, good or easy."""
    at: datetime


def new_card(number: int) -> Card:
    return Card(card_id=number, due=EPOCH)


def replay(reviews: Iterable[Review], numbers: Iterable[int]) -> dict[int, Card]:
    """Every card's FSRS state after `reviews` (in the order they were made)."""
    cards = {n: new_card(n) for n in numbers}
    for review in reviews:
        if review.card in cards:
            cards[review.card], _ = SCHEDULER.review_card(
                cards[review.card], RATINGS[review.rating], review.at
            )
    return cards


def seen(card: Card) -> bool:
    return card.last_review is not None


def next_card(cards: Mapping[int, Card], order: Sequence[int], now: datetime) -> int | None:
    """The card to quiz now: the most overdue card already seen, else the first new card in
    the deck's order, else None (nothing due until later)."""
    due = [(card.due, n) for n, card in cards.items() if seen(card) and card.due <= now]
    if due:
        return min(due)[1]
    return next((n for n in order if n in cards and not seen(cards[n])), None)


def next_due(cards: Mapping[int, Card]) -> datetime | None:
    """When the next card seen before falls due (for 'nothing due until ...')."""
    dates = [card.due for card in cards.values() if seen(card)]
    return min(dates) if dates else None


def recall(cards: Mapping[int, Card], now: datetime) -> dict[int, float | None]:
    """How likely each card is to be recalled now (0..1); None for a card never reviewed."""
    return {
        n: SCHEDULER.get_card_retrievability(card, now) if seen(card) else None
        for n, card in cards.items()
    }


def counts(cards: Mapping[int, Card], now: datetime) -> tuple[int, int, int]:
    """(due now, new, learnt and not yet due)."""
    due = sum(1 for c in cards.values() if seen(c) and c.due <= now)
    new = sum(1 for c in cards.values() if not seen(c))
    return due, new, len(cards) - due - new
