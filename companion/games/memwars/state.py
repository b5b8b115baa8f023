"""The frozen state of a MemWars game. Everything the referee knows, hidden parts included;
`view` decides who sees what."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from companion.games.memwars.setup import Setup

CHALLENGE = -1
"""A challenge piece among a place's crystals."""
BOARD = -2
"""The board as a holder of places and pieces (MW-G6, MW-F5)."""
NOBODY = -3
NO_CARD = 0


class Phase(Enum):
    ROLL_FIRST = "roll_first"
    ORIENT = "orient"
    ROLL_DEPTH = "roll_depth"
    SHUFFLE = "shuffle"
    PLACE_COUNTERS = "place_counters"
    PLAY = "play"
    LIGHTNING = "lightning"
    OVER = "over"


class Stage(Enum):
    """Where a claim stands in the challenge protocol (MW-CH1 .. MW-M3)."""

    WINDOW = "window"
    RESPONSE = "response"
    DECISION = "decision"
    JUDGEMENT = "judgement"
    CHECK = "check"
    """Hybrid, house rule CHECKED_AT_ONCE: the claim is checked against its card."""


@dataclass(frozen=True, slots=True)
class Counter:
    owner: int
    """The side that placed it, or NOBODY for a standard topology card's counter."""
    value: int
    face_up: bool


@dataclass(frozen=True, slots=True)
class Place:
    crystals: tuple[int, ...] = ()
    """Side indexes and CHALLENGE, in the order they were put down."""
    counters: tuple[Counter, ...] = ()
    counters_taken: bool = False
    """The holder has taken the counters (MW-T7): they count for it, face up, and no longer
    lie on the board."""
    counted: int = 0
    """When > 0, the number of pieces this place scores for, overriding its crystals
    (a give-up under house rule ALL_PIECES, MW-A10)."""
    marker_owner: int = NOBODY
    """Whose own challenge piece marks a Basic miss (house rule FROM_OWN_13, MW-A21)."""
    marker: bool = False
    """The challenge piece here marks a missed card (MW-BM3, a Hybrid claim checked wrong),
    not a challenge that both sides lost: the place is occupied but held by nobody (MW-BM9,
    MW-H4), where a challenge lost by both gives it to the board (MW-M3)."""

    @property
    def occupied(self) -> bool:
        return bool(self.crystals)

    @property
    def holder(self) -> int:
        """The side whose piece is on it; BOARD for the challenge piece of a challenge both
        sides lost; NOBODY if empty or only marked as missed."""
        for crystal in self.crystals:
            if crystal >= 0:
                return crystal
        return BOARD if self.crystals and not self.marker else NOBODY


EMPTY_PLACE = Place()


@dataclass(frozen=True, slots=True)
class Capture:
    colour: int
    rule: str
    """forsake, challenger_right, challenger_wrong, both_right or give_up."""


@dataclass(frozen=True, slots=True)
class Side:
    supply: int
    challenge_pieces: int
    captures: tuple[Capture, ...] = ()
    board_retained: int = 0
    lost_turns: int = 0
    sitting_out: bool = False
    """Ineligible to challenge after losing a turn (MW-CH2, MW-A14)."""
    diamonds: tuple[int, ...] = ()
    """Quadrants whose claim diamond holds this side's crystal."""
    counters_left: tuple[int, ...] = ()
    """Competitive counters still to place."""
    speaker: int = 0
    """The team member who answers next (house rule mw.team.answering=ROTATE)."""
    virtual_pieces: int = 0
    """Pieces issued beyond the box's 100 (MW-A45)."""


@dataclass(frozen=True, slots=True)
class Pending:
    """A claim whose challenge window or protocol is still open."""

    place: int
    claimant: int
    challenger: int
    stage: Stage
    offered_to: int
    declined: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class LastClaim:
    """The latest claim, and which other sides could not challenge it and why, so that a
    challenge or a decline from one of them is refused with the rule that barred it."""

    place: int
    claimant: int
    barred: tuple[tuple[int, str], ...] = ()
    """(side, rule id) for each side that could not challenge when the claim was made:
    MW-CH2 (it had lost a turn) or MW-CH3 (it had no challenge piece or no crystal)."""


@dataclass(frozen=True, slots=True)
class QuadrantResult:
    quadrant: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    rank: int
    """0 for the first quadrant won, 1 for the second, ...; -1 when no rank was used."""


@dataclass(frozen=True, slots=True)
class Outcome:
    winners: tuple[int, ...]
    """Side indexes, or (BOARD,) when the board wins."""
    reason: str
    """'complete', 'flag' or 'no_player_can_move'."""


@dataclass(frozen=True, slots=True)
class State:
    setup: Setup
    phase: Phase
    places: tuple[Place, ...]
    """Index 0 is unused so that places[n] is place n."""
    sides: tuple[Side, ...]
    pool: int
    """Unallocated challenge pieces (MW-S6)."""
    virtual_challenge_pieces: int = 0
    first_player: int = NOBODY
    north: str = ""
    depth: int = 0
    """The agreed depth (0 until rolled)."""
    deck: tuple[int, ...] = ()
    """Cards still to come, next first."""
    order: tuple[int, ...] = ()
    """The path order of the in-play cards, after any shuffle (MW-P1..P3, MW-A16)."""
    discard: tuple[int, ...] = ()
    lightning: tuple[int, ...] = ()
    """The lightning pile, in the order cards went onto it."""
    missed_by: tuple[tuple[int, int], ...] = ()
    """(card, side) for cards on the lightning pile or in the current round (MW-A17)."""
    round_cards: tuple[int, ...] = ()
    """Cards of the current lightning round still to be answered."""
    lightning_rounds: int = 0
    turn: int = NOBODY
    """The side on turn: the claimant in Standard play, the answerer in Basic play."""
    current_card: int = NO_CARD
    pending: Pending | None = None
    last_claim: LastClaim | None = None
    quadrant_results: tuple[QuadrantResult, ...] = ()
    ranks_used: int = 0
    counter_turn: int = NOBODY
    shuffled: bool = False
    rolls: int = 0
    """Random draws taken from the seed so far."""
    move: int = 0
    first_pass_correct: int = 0
    first_pass_answers: int = 0
    outcome: Outcome | None = None

    def place(self, number: int) -> Place:
        return self.places[number]

    def next_side(self, side: int) -> int:
        return (side + 1) % len(self.sides)

    @property
    def second_player(self) -> int:
        return self.next_side(self.first_player)

    @property
    def last_player(self) -> int:
        return (self.first_player - 1) % len(self.sides)
