"""What the table showed each side knew, or did not, of one card: a fact stated wrongly, a
challenge lost, a bluff given up, an answer judged. Study (companion/study/from_play.py)
turns them into reviews of the side's own schedule, so that a player studies what they got
wrong at the table.

A game with cards gives its verdicts through its plugin (`verdicts`); a game without cards
gives none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Rating = Literal["again", "hard", "good"]
"""As study grades a recall: not known, known with doubt, known."""


@dataclass(frozen=True, slots=True)
class Verdict:
    side: int
    card: int
    rating: Rating
    why: str
    """In a few words, for the study screen: 'stated its facts wrongly'."""
    seq: int
    """The action after which the table knew it."""
