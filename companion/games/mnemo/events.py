"""MnemoGame events: what happened, in words every viewer may know. None names the content
of a chip still face down: a wrong guess names the letter guessed (said aloud at the
table), never what the chip is; a chip's content is told when it is exposed, and a word's
when every letter of it is exposed or the game ends."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.codec import Codec
from companion.games.contract import Event


@dataclass(frozen=True, slots=True)
class WordsAwaited(Event):
    """The game begins with these sides laying the words the setup left out."""

    kind: ClassVar[str] = "words_awaited"
    sides: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class WordLaid(Event):
    """A side laid its word face down: only how many chips it lies as (a row every player
    sees on the table), never a letter."""

    kind: ClassVar[str] = "word_laid"
    side: int
    chips: int


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    kind: ClassVar[str] = "game_started"
    first: int
    scores: tuple[int, ...]
    """After the AHA charge of MN-SC5: -5 for each AHA chip laid."""


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    kind: ClassVar[str] = "turn_started"
    side: int
    number: int
    round: int


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """A player who forfeited their remaining turns (MN-SC7)."""

    kind: ClassVar[str] = "turn_skipped"
    side: int


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    kind: ClassVar[str] = "rolled"
    side: int
    face: int
    codex: str
    drawn: bool
    """Drawn by the companion from the seed; false for a face read off the table."""


@dataclass(frozen=True, slots=True)
class Scored(Event):
    kind: ClassVar[str] = "scored"
    side: int
    points: int
    rule: str
    """The rule that gives or takes them (MN-SC1, MN-NC3, ...)."""
    total: int


@dataclass(frozen=True, slots=True)
class OpponentNamed(Event):
    kind: ClassVar[str] = "opponent_named"
    side: int
    owner: int
    purpose: str


@dataclass(frozen=True, slots=True)
class ChipExposed(Event):
    kind: ClassVar[str] = "chip_exposed"
    side: int
    """Who exposed it."""
    owner: int
    chip: int
    shows: str
    chip_kind: str
    why: str
    """'stripper', 'tail', 'hoopla', 'expo', 'seven', 'nine', 'guess', 'word', 'complete'
    (a decoy shown once its word is exposed) or 'infraction'."""


@dataclass(frozen=True, slots=True)
class NoTailEnders(Event):
    """TAIL-ENDERS found no face-down V, W, X or Z chip (`owner` -1: at nobody's)."""

    kind: ClassVar[str] = "no_tail_enders"
    side: int
    owner: int


@dataclass(frozen=True, slots=True)
class Declined(Event):
    kind: ClassVar[str] = "declined"
    side: int


@dataclass(frozen=True, slots=True)
class LetterDrawn(Event):
    kind: ClassVar[str] = "letter_drawn"
    side: int
    letter: str
    question: str


@dataclass(frozen=True, slots=True)
class Answered(Event):
    kind: ClassVar[str] = "answered"
    side: int
    letter: str
    answer: str


@dataclass(frozen=True, slots=True)
class IcecqJudged(Event):
    kind: ClassVar[str] = "icecq_judged"
    side: int
    correct: bool


@dataclass(frozen=True, slots=True)
class Guessed(Event):
    """A single guess and whether it was right; a right one is followed by the chip's
    exposure."""

    kind: ClassVar[str] = "guessed"
    side: int
    owner: int
    chip: int
    guess: str
    right: bool


@dataclass(frozen=True, slots=True)
class PairHalf(Event):
    """The first of TWINNER's two letters: judged with the second."""

    kind: ClassVar[str] = "pair_half"
    side: int
    owner: int
    chip: int
    guess: str


@dataclass(frozen=True, slots=True)
class PairJudged(Event):
    kind: ClassVar[str] = "pair_judged"
    side: int
    both: bool


@dataclass(frozen=True, slots=True)
class WordGuessed(Event):
    kind: ClassVar[str] = "word_guessed"
    side: int
    owner: int
    word: str
    right: bool


@dataclass(frozen=True, slots=True)
class WordDescribed(Event):
    """`side` described `owner`'s word aloud: the owner judges it."""

    kind: ClassVar[str] = "word_described"
    side: int
    owner: int


@dataclass(frozen=True, slots=True)
class DescriptionJudged(Event):
    kind: ClassVar[str] = "description_judged"
    side: int
    """The word's owner, who judged."""
    guesser: int
    right: bool


@dataclass(frozen=True, slots=True)
class WordExposed(Event):
    """Every letter chip of `owner`'s word is face up: the word and its facts are public."""

    kind: ClassVar[str] = "word_exposed"
    owner: int
    word: str
    noun: bool
    verb: bool
    reversible: bool
    misspelt: bool


@dataclass(frozen=True, slots=True)
class WordRevealed(Event):
    """A word still unexposed when the game ends, shown (MN-SC2)."""

    kind: ClassVar[str] = "word_revealed"
    owner: int
    word: str
    misspelt: bool


@dataclass(frozen=True, slots=True)
class GuessTimeExpired(Event):
    kind: ClassVar[str] = "guess_time_expired"
    side: int


@dataclass(frozen=True, slots=True)
class InfractionReported(Event):
    kind: ClassVar[str] = "infraction_reported"
    side: int
    owner: int
    chip: int


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    kind: ClassVar[str] = "turn_ended"
    side: int


@dataclass(frozen=True, slots=True)
class EndTriggered(Event):
    """All but one word are exposed: the round is finished, up to `last_seat` (MN-E2)."""

    kind: ClassVar[str] = "end_triggered"
    last_seat: int


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    kind: ClassVar[str] = "game_ended"
    winners: tuple[int, ...]
    scores: tuple[int, ...]


EVENTS: Codec[Event] = Codec(
    "event",
    [
        WordsAwaited,
        WordLaid,
        GameStarted,
        TurnStarted,
        TurnSkipped,
        Rolled,
        Scored,
        OpponentNamed,
        ChipExposed,
        NoTailEnders,
        Declined,
        LetterDrawn,
        Answered,
        IcecqJudged,
        Guessed,
        PairHalf,
        PairJudged,
        WordGuessed,
        WordDescribed,
        DescriptionJudged,
        WordExposed,
        WordRevealed,
        GuessTimeExpired,
        InfractionReported,
        TurnEnded,
        EndTriggered,
        GameEnded,
    ],
)
