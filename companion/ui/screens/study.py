"""Study: the deck's cards, one at a time, for learning before a game; each player's own
schedule holds what the table saw them get wrong (companion/study/from_play.py)."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
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
        controller = self.companion.controller
        self.study_as(controller.study().player)

    def study_as(self, player: str) -> None:
        """Whose schedule is studied: '' for the table's, else a player's, with the verdicts
        of their games learnt first."""
        controller = self.companion.controller
        study = controller.study_as(player)
        self.title = f"Study: {study.deck.title}"
        row = self.ids.players
        row.clear_widgets()
        players = controller.study_players()
        for name in ("", *players) if players else ():
            button = Factory.Choice(text=name or "The table", group="study-player")
            button.font_size = "14sp"
            button.size_hint = (0.5, None)
            button.height = "34dp"
            button.state = "down" if name == study.player else "normal"
            button.bind(on_release=lambda _b, who=name: self.study_as(who))
            row.add_widget(button)
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
        if study.player:
            self.counts = f"{study.player}: " + self.counts
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
