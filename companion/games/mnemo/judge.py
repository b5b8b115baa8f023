"""Checking a guess against a chip and the points the rules give, as pure functions of the
chips (the engine calls them; bench/mnemo.py times them).

    right(Chip("letter", "E"), "E", "MEANING")      # True
    right(Chip("joal", "-"), "-", "MEANING")         # True: a JOAL hyphen (MN-A18 a)
    unexposed_points(chips, up)                     # MN-SC2
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.mnemo.letters import AHA, HYPHEN, JOAL, KIND_AHA, KIND_JOAL, NO_VALUE
from companion.games.mnemo.setup import Chip, SecretWord

AHA_PENALTY = 20
"""MN-SC5: a wrong guess of AHA."""
UNEXPOSED_CHIP = 10
"""MN-SC2: each unexposed letter chip of the word left at the end."""
WORD_POINTS = 30
"""MN-SC4: a word guessed, and the word left unexposed at the end."""


def right(chip: Chip, guess: str, joal_rule: str) -> bool:
    """Whether `guess` names what `chip` is (MN-T4, MN-A18)."""
    if guess == AHA:
        return chip.kind == KIND_AHA
    if chip.kind == KIND_AHA:
        return False
    if chip.kind == KIND_JOAL and joal_rule == "JOAL":
        return guess == JOAL
    return guess == chip.shows


def aha_penalty(chip: Chip, guess: str, trigger: str) -> int:
    """MN-SC5, MN-A13: 20 for calling AHA at a letter chip (AHA_CALLED), or for a letter
    guess landing on a decoy (LETTER_ON_AHA); 0 otherwise."""
    if trigger == "AHA_CALLED":
        return AHA_PENALTY if guess == AHA and chip.kind != KIND_AHA else 0
    return AHA_PENALTY if guess != AHA and chip.kind == KIND_AHA else 0


def points_for(chip: Chip, value: int) -> int:
    """A right guess at `chip` worth `value`: a JOAL hyphen carries no points (MN-SC1)."""
    return 0 if chip.shows == HYPHEN else value


def chip_value(chip: Chip) -> int:
    """What an unexposed chip is worth at the end (MN-SC2): 10 for a letter, none for V, W,
    X, Z, a hyphen, or a decoy."""
    if chip.kind == KIND_AHA or chip.shows in NO_VALUE or chip.shows == HYPHEN:
        return 0
    return UNEXPOSED_CHIP


def unexposed_points(chips: Sequence[Chip], up: Sequence[bool]) -> int:
    return sum(chip_value(c) for c, shown in zip(chips, up, strict=True) if not shown)


def same_word(guess: str, word: str) -> bool:
    """A word guess names the word laid (MN-SC4): case and spaces do not count."""
    return guess.strip().upper().replace(" ", "") == word


def settled_answer(letter: str, word: SecretWord, up: Sequence[bool]) -> str | None:
    """The only true answer to Letter Codex question `letter` about `word`, whose chips
    are face up where `up` says, when the chips settle it: H (is the word's first or last
    letter exposed?) and I (does a face-down chip bear a letter already laid bare in the
    word?). None for the questions only the owner can answer (kingdom, field, stress...)."""
    chips = word.chips
    letters = [j for j, chip in enumerate(chips) if chip.is_letter]
    if word.spell_from == "right":
        letters.reverse()  # the row lies from its owner's left: the word starts at its right
    if letter == "H":
        first, last = up[letters[0]], up[letters[-1]]
        return {
            (True, True): "both",
            (True, False): "first",
            (False, True): "last",
            (False, False): "neither",
        }[(first, last)]
    if letter == "I":
        shown = {chips[j].shows for j in letters if up[j]}
        hidden = {chips[j].shows for j in letters if not up[j]}
        return "yes" if shown & hidden - {HYPHEN} else "no"
    return None
