"""MemWars actions: what a player, or the table, does. Value objects; `side` is the acting
or answering side's index in clockwise seating order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.codec import Codec
from companion.games.contract import Action


@dataclass(frozen=True, slots=True)
class RollForFirst(Action):
    """Every side rolls the D8; ties for highest re-roll (MW-S1). Rolled from the seed."""

    kind: ClassVar[str] = "roll_for_first"


@dataclass(frozen=True, slots=True)
class OrientBoard(Action):
    """The second player chooses which table edge the board's North faces (MW-S3)."""

    kind: ClassVar[str] = "orient_board"
    side: int
    north: str


@dataclass(frozen=True, slots=True)
class RollDepth(Action):
    """The depth is decided by the D8 (MW-S8, MW-A28)."""

    kind: ClassVar[str] = "roll_depth"


@dataclass(frozen=True, slots=True)
class ShuffleDeck(Action):
    """The last player shuffles for a random path (MW-P3). Shuffled from the seed."""

    kind: ClassVar[str] = "shuffle_deck"
    side: int


@dataclass(frozen=True, slots=True)
class PlaceCounter(Action):
    """Competitive placement: a counter goes face down on a place (MW-T4..T6)."""

    kind: ClassVar[str] = "place_counter"
    side: int
    place: int
    value: int


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """The player on turn puts a piece on a place and states its facts (MW-SM1)."""

    kind: ClassVar[str] = "claim"
    side: int
    place: int


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Only where house rule mw.standard.allowPass permits (MW-A32)."""

    kind: ClassVar[str] = "pass"
    side: int


@dataclass(frozen=True, slots=True)
class Challenge(Action):
    """A piece and a challenge piece go on the claimed place (MW-CH5). `differs` records that
    the challenger's statement differs from the claim (MW-A13)."""

    kind: ClassVar[str] = "challenge"
    side: int
    differs: bool = True


@dataclass(frozen=True, slots=True)
class DeclineChallenge(Action):
    kind: ClassVar[str] = "decline_challenge"
    side: int


@dataclass(frozen=True, slots=True)
class GiveUp(Action):
    """Rule 2.1: the player on turn yields the place to the challenger."""

    kind: ClassVar[str] = "give_up"
    side: int


@dataclass(frozen=True, slots=True)
class Contest(Action):
    """Rule 2.2: the player on turn stands by the claim."""

    kind: ClassVar[str] = "contest"
    side: int


@dataclass(frozen=True, slots=True)
class Forsake(Action):
    """Rule 2.2.1: the challenger backs down."""

    kind: ClassVar[str] = "forsake"
    side: int


@dataclass(frozen=True, slots=True)
class Maintain(Action):
    """Rule 2.2.2: the challenger stands by the challenge; the card will be checked."""

    kind: ClassVar[str] = "maintain"
    side: int


@dataclass(frozen=True, slots=True)
class Judge(Action):
    """The card is checked: was each party right, at the depth each is judged (MW-A27)?"""

    kind: ClassVar[str] = "judge"
    claimant_correct: bool
    challenger_correct: bool


@dataclass(frozen=True, slots=True)
class Answer(Action):
    """A presented card is answered and checked (Basic, Hybrid, Review, lightning rounds).

    `correct` is the verdict on the facts; `place` is where the answerer put the crystal,
    needed only when the place is part of the answer (MW-A23, MW-A38); 0 when not given.
    """

    kind: ClassVar[str] = "answer"
    side: int
    correct: bool
    place: int = 0


@dataclass(frozen=True, slots=True)
class StudyCard(Action):
    """Solitaire study: the next card is read and its crystal placed (MW-SS1..SS4)."""

    kind: ClassVar[str] = "study_card"
    side: int


@dataclass(frozen=True, slots=True)
class TimeExpired(Action):
    """The optional move timer ran out for `side` (MW-G7, MW-A33)."""

    kind: ClassVar[str] = "time_expired"
    side: int


ACTIONS: Codec[Action] = Codec(
    "action",
    [
        RollForFirst,
        OrientBoard,
        RollDepth,
        ShuffleDeck,
        PlaceCounter,
        Claim,
        Pass,
        Challenge,
        DeclineChallenge,
        GiveUp,
        Contest,
        Forsake,
        Maintain,
        Judge,
        Answer,
        StudyCard,
        TimeExpired,
    ],
)
