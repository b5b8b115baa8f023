"""The word list MnemoGame checks secret words against: the Debian packages `wamerican`
(/usr/share/dict/american-english, spelling and proper names) and `wordnet-base`
(/usr/share/wordnet/index.noun and index.verb, the noun and verb bonuses of MN-SC3).

Read once, on the first look-up, and kept; nothing else in the game opens a file. The
engine gets `word_facts` injected (plugin.py) and keeps the facts in the setup, so a
record replays the same wherever it is read.

    word_facts("star")      # WordFacts(spelt=True, noun=True, verb=True, reversible=True)
    word_facts("Paris")     # proper=True: refused at setup
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from companion.games.mnemo.words import WordFacts

WORD_LIST = Path("/usr/share/dict/american-english")
WORDNET = Path("/usr/share/wordnet")
INSTALL = "apt-get install wamerican wordnet-base"

# WordNet's rules of detachment (morphy): an inflected form and the base forms it may come
# from, for nouns and verbs.
_NOUN_ENDINGS = (
    ("s", ""),
    ("ses", "s"),
    ("xes", "x"),
    ("zes", "z"),
    ("ches", "ch"),
    ("shes", "sh"),
    ("men", "man"),
    ("ies", "y"),
)
_VERB_ENDINGS = (
    ("s", ""),
    ("ies", "y"),
    ("es", "e"),
    ("es", ""),
    ("ed", "e"),
    ("ed", ""),
    ("ing", "e"),
    ("ing", ""),
)


@dataclass(frozen=True, slots=True)
class Lexicon:
    words: frozenset[str]
    """Entries written in lower case (as they are spelt as common words)."""
    proper: frozenset[str]
    """Capitalised entries, lower-cased: proper names."""
    nouns: frozenset[str]
    verbs: frozenset[str]
    noun_exceptions: dict[str, tuple[str, ...]]
    verb_exceptions: dict[str, tuple[str, ...]]

    def facts(self, word: str) -> WordFacts:
        w = word.strip().lower()
        # WordNet writes proper names in lower case too: it vouches only for the hyphenated
        # words the word list lacks.
        spelt = w in self.words or ("-" in w and (w in self.nouns or w in self.verbs))
        reverse = w[::-1]
        reversible = len(w) > 1 and (w == reverse or reverse in self.words)
        noun = any(b in self.nouns for b in _bases(w, _NOUN_ENDINGS, self.noun_exceptions))
        verb = any(b in self.verbs for b in _bases(w, _VERB_ENDINGS, self.verb_exceptions))
        return WordFacts(
            spelt=spelt,
            noun=noun,
            verb=verb,
            reversible=reversible,
            proper=not spelt and w in self.proper,
        )


def _bases(
    word: str, endings: tuple[tuple[str, str], ...], exceptions: dict[str, tuple[str, ...]]
) -> set[str]:
    out = {word, *exceptions.get(word, ())}
    for ending, base in endings:
        if word.endswith(ending) and len(word) > len(ending):
            out.add(word[: len(word) - len(ending)] + base)
    return out


def read_lexicon(word_list: Path, wordnet: Path) -> Lexicon:
    """Reads the files; LookupError naming the packages when one is missing."""
    try:
        lines = word_list.read_text(encoding="utf-8", errors="replace").splitlines()
        nouns = _index(wordnet / "index.noun")
        verbs = _index(wordnet / "index.verb")
    except FileNotFoundError as err:
        raise LookupError(f"no word list at {err.filename}: {INSTALL}") from None
    words: set[str] = set()
    proper: set[str] = set()
    for line in lines:
        entry = line.strip()
        if not entry or "'" in entry:
            continue
        (words if entry == entry.lower() else proper).add(entry.lower())
    return Lexicon(
        frozenset(words),
        frozenset(proper),
        nouns,
        verbs,
        _exceptions(wordnet / "noun.exc"),
        _exceptions(wordnet / "verb.exc"),
    )


def _index(path: Path) -> frozenset[str]:
    """The lemmas of a WordNet index file (its licence lines start with a space)."""
    out = set()
    with path.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if line and not line.startswith(" "):
                out.add(line.split(" ", 1)[0].replace("_", " "))
    return frozenset(out)


def _exceptions(path: Path) -> dict[str, tuple[str, ...]]:
    """WordNet's irregular forms (`geese goose`); none when the file is missing."""
    out: dict[str, tuple[str, ...]] = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split()
        if len(parts) > 1:
            out[parts[0]] = tuple(parts[1:])
    return out


@functools.cache
def lexicon() -> Lexicon:
    """The installed word list, read on first use and kept."""
    return read_lexicon(WORD_LIST, WORDNET)


def word_facts(word: str) -> WordFacts:
    """The facts of `word` from the installed lists (LookupError when they are missing)."""
    return lexicon().facts(word)
