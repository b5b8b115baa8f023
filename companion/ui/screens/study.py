"""Study: the deck's cards, one at a time, for learning before a game."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, StringProperty

from companion.ui.screens.base import AppScreen


class StudyScreen(AppScreen):
    """Spaced repetition over the deck: recall the card of the ringed place (put a crystal
    on it and say its answers), look, and rate the recall; the board shows how well every
    card is known now."""

    title = StringProperty("")
    prompt = StringProperty("")
    answers = StringProperty("")
    counts = StringProperty("")
    studying = BooleanProperty(False)

    def on_pre_enter(self, *_: Any) -> None:
        study = self.companion.controller.study()
        self.title = f"Study: {study.deck.title}"
        self.refresh()

    def refresh(self) -> None:
        study = self.companion.controller.study()
        card = study.card
        self.studying = card is not None
        self.answers = ""
        if card is None:
            next_due = study.next_due()
            when = f" The next card is due {next_due:%d %b %H:%M} UTC." if next_due else ""
            self.prompt = "Nothing to study now." + when
        else:
            self.prompt = (
                f"Place {card.place}: put a crystal on it and recall its card "
                f"({card.depth} answers), then look and rate yourself."
            )
        due, new, learnt = study.counts()
        self.counts = f"Due now {due} · new {new} · learnt {learnt}"
        self.ids.board.show_heat(study.strengths(), card.place if card is not None else 0)

    def show_answers(self, shown: bool) -> None:
        card = self.companion.controller.study().card
        if not shown or card is None:
            self.answers = ""
            return
        self.answers = "\n".join(
            f"{level}. {card.fact(level)}" for level in range(1, card.depth + 1)
        )

    def rate(self, rating: str) -> None:
        self.companion.controller.study().rate(rating)
        self.refresh()

    def leave(self) -> None:
        self.manager.current = "home"
