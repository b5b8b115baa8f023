"""Enrolling a deck's cards on the card reader, one scan at a time."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from companion.ui.screens.base import AppScreen


class EnrollScreen(AppScreen):
    """Enrolling the deck's RFID tags, card by card, on the configured reader (or the
    simulated one): resumable, a tag already on another card refused."""

    title = StringProperty("")
    prompt = StringProperty("")
    last = StringProperty("")
    reader_text = StringProperty("")
    total = NumericProperty(1)
    done_count = NumericProperty(0)
    simulated = BooleanProperty(False)
    finished = BooleanProperty(False)

    def on_pre_enter(self, *_: Any) -> None:
        enrolling = self.companion.controller.start_enrollment(on_change=self.refresh)
        self.title = f"Enroll: {enrolling.deck_title}"
        self.simulated = enrolling.simulated
        self.reader_text = enrolling.reader_text
        self.last = ""
        self.refresh()

    def on_leave(self, *_: Any) -> None:
        self.companion.controller.stop_enrollment()

    def refresh(self) -> None:
        enrolling = self.companion.controller.enrolling
        if enrolling is None:
            return
        enrollment = enrolling.desk.enrollment
        self.finished = enrollment.done
        at, total = enrollment.progress()
        self.total = max(1, total)
        self.done_count = total if enrollment.done else at - 1
        card = enrollment.expected()
        self.prompt = (
            f"Scan card {card.number}: {card.name}"
            if card is not None
            else "Every card has been visited."
        )
        self.last = enrolling.desk.last

    def scan_next(self) -> None:
        problem = self.companion.controller.scan_next_for_enrollment()
        if problem:
            self.last = problem

    def leave(self) -> None:
        self.manager.current = "home"
