"""The frozen state of a game of MnemoGame.

Every word lies on the table as a row of chips (setup.py `SecretWord.chips`), each face
down until exposed. The state holds the chips' contents (the referee's knowledge: views
hide those of face-down chips), which are up, the scores, and where the turn stands: its
phase and what the rolled Number Codex entry still asks. A word the setup left out is laid
in play (the 'lay' phase, before the first roll): until then its row is empty.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.mnemo.setup import Chip, SecretWord, Setup

PHASES = (
    "lay",
    "roll",
    "name",
    "expose",
    "choose",
    "letter",
    "answer",
    "icecq",
    "guess",
    "pair",
    "describe",
    "over",
)
"""lay: the players lay the words the setup left out (lay_word); roll: the D12 (or a number
card); name: the dicer names an opponent (STRIPPER, TAIL-ENDERS, MYSTERY WORD); expose: a
chip is turned face up by a codex entry's order (STRIPPER, HOOPLA, EXPO); choose: expose
one's own chip for points or decline (MAGIC SEVEN, LUCKY NINE); letter: the Letter Codex
letter is rolled or picked (10, 11); answer: the question's answer or clue is given; icecq:
the ICECQ answer is judged; guess: guessing; pair: TWINNER's two-letter guess; describe: the
owner (`named`) judges a description of their word; over."""


@dataclass(frozen=True, slots=True)
class Outcome:
    winners: tuple[int, ...]
    """The highest scorers who did not misspell their word (MN-E4): none when every top
    scorer misspelt."""
    reason: str


@dataclass(frozen=True, slots=True)
class State:
    setup: Setup
    words: tuple[SecretWord | None, ...]
    """Each side's word: the setup's, or the one its player laid; None until laid."""
    chips: tuple[tuple[Chip, ...], ...]
    """Each side's row of chips, from its owner's left."""
    up: tuple[tuple[bool, ...], ...]
    scores: tuple[int, ...]
    exposed: tuple[bool, ...]
    """Every letter chip of the word is face up (MN-SC3, MN-E1): its word is public."""
    revealed: tuple[bool, ...]
    """The word was shown at the end of the game, still unexposed (MN-SC2)."""
    word_guessed: tuple[bool, ...]
    """The whole word was guessed right under mn.wordGuess.exposes = false."""
    forfeited: tuple[bool, ...]
    """Lost every remaining turn for exposing a chip out of turn (MN-SC7)."""
    first: int
    turn: int
    turn_number: int = 1
    round: int = 1
    phase: str = "roll"
    face: int | None = None
    """The Number Codex entry rolled this turn."""
    purpose: str = ""
    """What the 'name', 'expose' or 'choose' phase is for: 'stripper', 'tail', 'ask',
    'hoopla', 'expo', 'seven' or 'nine'."""
    named: int | None = None
    """The opponent the dicer named."""
    pending: tuple[int, ...] = ()
    """EXPO: the players still to expose a chip, in order."""
    letter: str = ""
    """The Letter Codex letter of this turn (10, 11)."""
    answer: str = ""
    """The answer or clue given to it."""
    mode: str = ""
    """Guessing: 'mono' (one guess), 'pair' (TWINNER's two letters) or 'free'."""
    value: int = 5
    """Points for each right guess this turn (MN-SC1, MONO and TWINNER 20, HOOPLA 10)."""
    guesses: int = 0
    """Guesses made this turn."""
    pair: tuple[int, int, str] | None = None
    """TWINNER: the first of the two letters (owner, chip, letter) while the second is
    awaited."""
    codex_points: int = 0
    """What the codex gave or took from the dicer this turn (mn.icecq.wrongAnswer)."""
    rolls: int = 0
    """Draws made from the seed so far."""
    deck: tuple[int, ...] = tuple(range(12))
    """Number cards not yet drawn (mn.cards.replacement = NO_REPLACEMENT)."""
    ending: bool = False
    """All but one word are exposed: the round is being finished (MN-E1, MN-E2)."""
    last_seat: int = 0
    """The seat whose turn closes a round: the one before the first player."""
    actions: int = 0
    outcome: Outcome | None = None

    @property
    def side_count(self) -> int:
        return len(self.chips)

    def word(self, side: int) -> SecretWord:
        """`side`'s word, once laid (every word is, past the 'lay' phase)."""
        word = self.words[side]
        assert word is not None, f"side {side} has not laid its word"
        return word

    @property
    def to_lay(self) -> tuple[int, ...]:
        """The sides still to lay their words, in seating order."""
        return tuple(s for s, w in enumerate(self.words) if w is None)

    def face_down(self, side: int) -> tuple[int, ...]:
        return tuple(j for j, up in enumerate(self.up[side]) if not up)

    def letter_up(self, side: int) -> bool:
        """Some letter chip of the word is face up (the AHA guess gate, MN-A03)."""
        return any(
            up and c.is_letter for c, up in zip(self.chips[side], self.up[side], strict=True)
        )
