"""What the rules need to know about a secret word (MN-S3, MN-SC3, MN-SC6), as plain facts
the setup carries: whether it is spelt right, a noun, a verb, reversible.

The facts come from a word list (dictionary.py reads the Debian ones) when the setup is
read, or are given in the setup by the table; the engine itself never opens a file, so a
record replays to the same game on any machine.

    WordFacts(spelt=True, noun=True, verb=True, reversible=True)     # "star" (rats)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class WordFacts:
    spelt: bool
    """In the dictionary: a word that is not is a misspelling (MN-SC6)."""
    noun: bool
    verb: bool
    reversible: bool
    """A palindrome, or its reversal is a word too (MN-SC3 c)."""
    proper: bool = False
    """Only a proper name (a capitalised entry): refused at setup (MN-S3)."""

    def bonus(self, stack: bool) -> int:
        """The MN-SC3 bonus when every letter chip is exposed: 15 for a verb (a noun that
        is a verb too counts as a verb), else 10 for a noun, plus 10 when reversible
        (stacked, MN-A12 a) or the larger of the two (b)."""
        kind = 15 if self.verb else 10 if self.noun else 0
        turned = 10 if self.reversible else 0
        return kind + turned if stack else max(kind, turned)


Lookup = Callable[[str], WordFacts]
"""A word list, injected: the facts of a word (letters and hyphens, any case). Raises
LookupError when it has no list to look in."""
