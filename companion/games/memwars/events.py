"""MemWars events: what happened, as every viewer may know it.

No event carries hidden information: a face-down counter's value appears only when the
place it is on is won (CountersTaken); card facts never reach the engine at all.
Side numbers are indexes in seating order; BOARD (-2) stands for the board as a player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.codec import Codec
from companion.games.contract import Event


@dataclass(frozen=True, slots=True)
class FirstPlayerRolled(Event):
    kind: ClassVar[str] = "first_player_rolled"
    rounds: tuple[tuple[int, ...], ...]
    """One tuple per round of rolls, a value per side; 0 for a side that did not re-roll."""
    first: int


@dataclass(frozen=True, slots=True)
class BoardOriented(Event):
    kind: ClassVar[str] = "board_oriented"
    side: int
    north: str


@dataclass(frozen=True, slots=True)
class DepthRolled(Event):
    kind: ClassVar[str] = "depth_rolled"
    rolls: tuple[int, ...]
    depth: int


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    kind: ClassVar[str] = "deck_shuffled"
    side: int


@dataclass(frozen=True, slots=True)
class CounterPlaced(Event):
    kind: ClassVar[str] = "counter_placed"
    side: int
    place: int


@dataclass(frozen=True, slots=True)
class PlayStarted(Event):
    kind: ClassVar[str] = "play_started"
    first: int


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    side: int
    move: int


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    kind: ClassVar[str] = "turn_skipped"
    side: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlaceAddressed(Event):
    """A path forces the place of the player on turn (MW-P4)."""

    kind: ClassVar[str] = "place_addressed"
    side: int
    place: int


@dataclass(frozen=True, slots=True)
class CardPresented(Event):
    """A card is shown to the answerer; card and place are 0 when the place must be found."""

    kind: ClassVar[str] = "card_presented"
    answerer: int
    presenter: int
    card: int
    place: int


@dataclass(frozen=True, slots=True)
class PlaceClaimed(Event):
    kind: ClassVar[str] = "place_claimed"
    side: int
    place: int


@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    kind: ClassVar[str] = "turn_passed"
    side: int
    reason: str


@dataclass(frozen=True, slots=True)
class ChallengeOffered(Event):
    kind: ClassVar[str] = "challenge_offered"
    side: int
    place: int


@dataclass(frozen=True, slots=True)
class ChallengeDeclined(Event):
    kind: ClassVar[str] = "challenge_declined"
    side: int


@dataclass(frozen=True, slots=True)
class ChallengeDeclared(Event):
    kind: ClassVar[str] = "challenge_declared"
    side: int
    place: int


@dataclass(frozen=True, slots=True)
class PlaceGivenUp(Event):
    kind: ClassVar[str] = "place_given_up"
    claimant: int
    challenger: int
    place: int


@dataclass(frozen=True, slots=True)
class ChallengeContested(Event):
    kind: ClassVar[str] = "challenge_contested"
    side: int


@dataclass(frozen=True, slots=True)
class ChallengeForsaken(Event):
    kind: ClassVar[str] = "challenge_forsaken"
    side: int


@dataclass(frozen=True, slots=True)
class ChallengeMaintained(Event):
    """The card is to be checked; each party is judged at the depth given here (MW-A27)."""

    kind: ClassVar[str] = "challenge_maintained"
    place: int
    claimant_depth: int
    challenger_depth: int


@dataclass(frozen=True, slots=True)
class ChallengeJudged(Event):
    """outcome: challenger_right, challenger_wrong, both_wrong or both_right."""

    kind: ClassVar[str] = "challenge_judged"
    place: int
    outcome: str
    holder: int


@dataclass(frozen=True, slots=True)
class PieceCaptured(Event):
    kind: ClassVar[str] = "piece_captured"
    by: int
    colour: int
    rule: str


@dataclass(frozen=True, slots=True)
class PiecesRetainedByBoard(Event):
    kind: ClassVar[str] = "pieces_retained_by_board"
    colours: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChallengePieceReplaced(Event):
    kind: ClassVar[str] = "challenge_piece_replaced"
    side: int
    virtual: bool


@dataclass(frozen=True, slots=True)
class ReplacementUnavailable(Event):
    """A replacement was due but the pool is empty (MW-A12)."""

    kind: ClassVar[str] = "replacement_unavailable"
    side: int


@dataclass(frozen=True, slots=True)
class TurnLost(Event):
    kind: ClassVar[str] = "turn_lost"
    side: int


@dataclass(frozen=True, slots=True)
class CountersTaken(Event):
    kind: ClassVar[str] = "counters_taken"
    side: int
    place: int
    values: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AnswerJudged(Event):
    kind: ClassVar[str] = "answer_judged"
    side: int
    card: int
    place: int
    correct: bool


@dataclass(frozen=True, slots=True)
class CardStudied(Event):
    kind: ClassVar[str] = "card_studied"
    side: int
    card: int
    place: int


@dataclass(frozen=True, slots=True)
class LightningRoundStarted(Event):
    kind: ClassVar[str] = "lightning_round_started"
    round: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class QuadrantCompleted(Event):
    kind: ClassVar[str] = "quadrant_completed"
    quadrant: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    rank: int
    """The bonus rank used (0 = first quadrant won), or -1 when none was used."""


@dataclass(frozen=True, slots=True)
class FlagFell(Event):
    kind: ClassVar[str] = "flag_fell"
    side: int


@dataclass(frozen=True, slots=True)
class SupplyExhausted(Event):
    kind: ClassVar[str] = "supply_exhausted"
    side: int
    virtual: bool


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    winners: tuple[int, ...]
    reason: str


EVENTS: Codec[Event] = Codec(
    "event",
    [
        FirstPlayerRolled,
        BoardOriented,
        DepthRolled,
        DeckShuffled,
        CounterPlaced,
        PlayStarted,
        TurnStarted,
        TurnSkipped,
        PlaceAddressed,
        CardPresented,
        PlaceClaimed,
        TurnPassed,
        ChallengeOffered,
        ChallengeDeclined,
        ChallengeDeclared,
        PlaceGivenUp,
        ChallengeContested,
        ChallengeForsaken,
        ChallengeMaintained,
        ChallengeJudged,
        PieceCaptured,
        PiecesRetainedByBoard,
        ChallengePieceReplaced,
        ReplacementUnavailable,
        TurnLost,
        CountersTaken,
        AnswerJudged,
        CardStudied,
        LightningRoundStarted,
        QuadrantCompleted,
        FlagFell,
        SupplyExhausted,
        GameEnded,
    ],
)
