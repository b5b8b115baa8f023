"""MnemoGame actions. Chips are numbered from 0 along their owner's row, from the owner's
left (setup.py); `side` is always whoever decides (or, in an infraction, the offender).

    LayWord(side=1, word="kayak", facts=WordFacts(True, True, True, True), aha_after=1)
    Roll(side=0)                      # the companion rolls the D12 from the seed
    Roll(side=0, face=7)              # the face read off a real die (or a number card)
    Guess(side=0, owner=1, chip=2, guess="E")
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from companion.games.codec import Codec
from companion.games.contract import Action
from companion.games.mnemo.words import WordFacts


@dataclass(frozen=True, slots=True)
class LayWord(Action):
    """A player lays their secret word face down, out of the others' sight (MN-S2 .. MN-S5):
    for a side whose word the setup left out, before the first roll. `joal` lists the
    positions in the word (from 0) laid with a JOAL; `spell_from` 'left' or 'right'.

    `facts` (spelt, noun, verb, reversible, proper) are the word list's, carried in the
    action so that a record replays the same anywhere: the engine's `action_from_dict` looks
    them up when a page sends the word without them, and a recorded action keeps them."""

    kind: ClassVar[str] = "lay_word"
    side: int
    word: str
    facts: WordFacts
    aha_before: int = 0
    aha_after: int = 0
    joal: tuple[int, ...] = ()
    spell_from: str = "left"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """The D12 or a number card (MN-T1), and the Letter Codex roll for 10 and 11 (MN-A10 a):
    `face` 0..11 as read at the table, or None for the companion to draw it from the seed."""

    kind: ClassVar[str] = "roll"
    side: int
    face: int | None = None


@dataclass(frozen=True, slots=True)
class NameOpponent(Action):
    """The dicer names the opponent a codex entry acts on (STRIPPER under
    mn.stripper.chooser = OPPONENT, TAIL-ENDERS, MYSTERY WORD)."""

    kind: ClassVar[str] = "name_opponent"
    side: int
    owner: int


@dataclass(frozen=True, slots=True)
class Expose(Action):
    """Turn chip `chip` of `owner`'s word face up, as a codex entry orders (STRIPPER, HOOPLA,
    EXPO, MAGIC SEVEN, LUCKY NINE)."""

    kind: ClassVar[str] = "expose"
    side: int
    owner: int
    chip: int


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """MAGIC SEVEN, LUCKY NINE: don't lay a chip bare and collect nothing."""

    kind: ClassVar[str] = "decline"
    side: int


@dataclass(frozen=True, slots=True)
class ChooseLetter(Action):
    """The Letter Codex letter A..L, picked (mn.letterCodex.select = PICK)."""

    kind: ClassVar[str] = "choose_letter"
    side: int
    letter: str


@dataclass(frozen=True, slots=True)
class Answer(Action):
    """The answer to the Letter Codex question (10: by the opponent asked; 11: the dicer's
    clue to their own word), one of the question's answers. The engine records it: the
    answer is the player's own."""

    kind: ClassVar[str] = "answer"
    side: int
    answer: str


@dataclass(frozen=True, slots=True)
class JudgeIcecq(Action):
    """The table's judgement of the dicer's ICECQ answer (MN-T3)."""

    kind: ClassVar[str] = "judge_icecq"
    side: int
    correct: bool


@dataclass(frozen=True, slots=True)
class Guess(Action):
    """A guess at one face-down chip of an opponent: a letter A..Z, '-' (a JOAL hyphen),
    'AHA', or 'JOAL' under mn.joal.guess = JOAL (MN-T4)."""

    kind: ClassVar[str] = "guess"
    side: int
    owner: int
    chip: int
    guess: str


@dataclass(frozen=True, slots=True)
class GuessWord(Action):
    """A guess of an opponent's whole word (MN-SC4, MN-A16)."""

    kind: ClassVar[str] = "guess_word"
    side: int
    owner: int
    word: str


@dataclass(frozen=True, slots=True)
class DescribeWord(Action):
    """A description of an opponent's whole word, said aloud; the word's owner judges
    whether it identifies the word (MN-A16 a)."""

    kind: ClassVar[str] = "describe_word"
    side: int
    owner: int


@dataclass(frozen=True, slots=True)
class JudgeDescription(Action):
    """The owner's judgement of a description of their word (MN-A16 a): right counts as a
    right guess of the word, wrong as a wrong guess."""

    kind: ClassVar[str] = "judge_description"
    side: int
    correct: bool


@dataclass(frozen=True, slots=True)
class TimeExpired(Action):
    """The guesser let the agreed guess time run out: the turn's guessing is forfeit (MN-T4)."""

    kind: ClassVar[str] = "time_expired"
    side: int


@dataclass(frozen=True, slots=True)
class Infraction(Action):
    """The table reports that `side` exposed chip `chip` of `owner`'s word out of turn,
    intentionally or not (MN-SC7): accepted at any moment of the game."""

    kind: ClassVar[str] = "infraction"
    side: int
    owner: int
    chip: int


ACTIONS: Codec[Action] = Codec(
    "action",
    [
        LayWord,
        Roll,
        NameOpponent,
        Expose,
        Decline,
        ChooseLetter,
        Answer,
        JudgeIcecq,
        Guess,
        GuessWord,
        DescribeWord,
        JudgeDescription,
        TimeExpired,
        Infraction,
    ],
)
