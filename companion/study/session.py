"""One person studying one deck: the card to recall, its answers, the ratings, the heatmap.

study = StudySession(deck, log, clock=lambda: datetime.now(UTC), player="Ada")
study.card            # the Card to recall now (None when nothing is due)
study.rate("good")    # recorded, and the next card comes up
study.strengths()     # place -> 0..1 recall strength, None for places never studied
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from companion.decks.model import Card, Deck
from companion.study.log import StudyLog
from companion.study.schedule import Review, counts, next_card, next_due, recall, replay

Now = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


class StudySession:
    def __init__(self, deck: Deck, log: StudyLog, clock: Now = utc_now, player: str = "") -> None:
        self.deck = deck
        self.log = log
        self.clock = clock
        self.player = player
        """Whose schedule: '' for the table's own study, else a player's name, with the
        verdicts of their games in it (companion/study/from_play.py)."""
        self.order = tuple(sorted(c.number for c in deck.cards))
        self._cards = replay(log.reviews(deck.id, player), self.order)
        self.card: Card | None = None
        self._pick()

    def _pick(self) -> None:
        number = next_card(self._cards, self.order, self.clock())
        self.card = self.deck.card(number) if number is not None else None

    def rate(self, rating: str) -> None:
        """The player's verdict on their recall of the current card: recorded first."""
        if self.card is None:
            raise ValueError("no card is being studied")
        review = Review(self.card.number, rating, self.clock())
        self.log.add(self.deck.id, review, self.player)
        self._cards = replay(self.log.reviews(self.deck.id, self.player), self.order)
        self._pick()

    def strengths(self) -> dict[int, float | None]:
        """Place -> how likely its card is to be recalled now; None if never studied."""
        strengths = recall(self._cards, self.clock())
        return {card.place: strengths[card.number] for card in self.deck.cards}

    def counts(self) -> tuple[int, int, int]:
        """(due now, new, learnt and not due yet)."""
        return counts(self._cards, self.clock())

    def next_due(self) -> datetime | None:
        return next_due(self._cards)
