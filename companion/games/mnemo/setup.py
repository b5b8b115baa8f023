"""What the players agree before a game of MnemoGame: who plays (2 to 6, in seating order,
play passing to the left), each player's secret word as laid on the table, a seed, who
starts, the division, die or number cards, ICECQ, the guess time, and house rules. Every
problem is a BadSetup naming the field.

    setup = parse_setup({"sides": [{"name": "Ada", "word": "star", "aha_after": 1},
                                   {"name": "Bo", "word": "kayak"}], "seed": 7}, word_facts)
    setup.words[0].chips        # the row of chips from Ada's left, AHA decoys included

A word is letters A to Z and hyphens. `joal` lists the positions in the word (from 0) laid
with a JOAL chip, which stands for the letter written there (MN-A18); a hyphen is always a
JOAL (MN-C5). `aha_before` and `aha_after` decoys go at the word's beginning and end (MN-S4);
`spell_from` "right" lays the word from the player's right (MN-S2). `facts` (spelt, noun,
verb, reversible) are looked up in the word list the engine was given when left out.

A side may leave its word out. `words` says how such a word comes to the table: "phones"
(the default) has the player lay it once the game has begun, out of the others' sight (a
`lay_word` action, sent from their phone's private page at the table); "dealt" has the
companion deal one from its own list (deal.py, when the engine starts the game), from the
seed, written into the setup.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.contract import JSON, BadSetup
from companion.games.mnemo.letters import (
    AHA,
    AHA_SUPPLY,
    DIVISIONS,
    HYPHEN,
    JOAL_SUPPLY,
    KIND_AHA,
    KIND_JOAL,
    KIND_LETTER,
    MAX_AHAS,
    SUPPLY,
    Division,
)
from companion.games.mnemo.rules import HouseRules
from companion.games.mnemo.words import Lookup, WordFacts

FEWEST, MOST = 2, 6
NUMBERS = ("die", "cards")
GUESS_SECONDS = (0, 30)
WORDS = ("dealt", "phones")
"""How a word a side leaves out comes to the table: dealt by the companion at setup, or laid
by its player in play (lay_word)."""
SPELL_FROM = ("left", "right")


@dataclass(frozen=True, slots=True)
class Chip:
    kind: str
    """'letter', 'joal' or 'aha'."""
    shows: str
    """The letter it bears or stands for, '-' for a JOAL hyphen, 'AHA' for a decoy."""

    @property
    def is_letter(self) -> bool:
        """A letter chip (a JOAL included): what must be exposed for a word to be exposed."""
        return self.kind != KIND_AHA


@dataclass(frozen=True, slots=True)
class SecretWord:
    word: str
    """Upper case, hyphens as written."""
    aha_before: int
    aha_after: int
    joal: tuple[int, ...]
    """Positions in `word` laid with a JOAL (hyphens included)."""
    spell_from: str
    """'left' or 'right' (MN-S2)."""
    facts: WordFacts

    @property
    def chips(self) -> tuple[Chip, ...]:
        """The row as it lies on the table, from the owner's left."""
        row = [Chip(KIND_AHA, AHA)] * self.aha_before
        for i, letter in enumerate(self.word):
            row.append(Chip(KIND_JOAL if i in self.joal else KIND_LETTER, letter))
        row += [Chip(KIND_AHA, AHA)] * self.aha_after
        return tuple(reversed(row)) if self.spell_from == "right" else tuple(row)

    @property
    def ahas(self) -> int:
        return self.aha_before + self.aha_after

    def to_dict(self) -> JSON:
        f = self.facts
        return {
            "word": self.word,
            "aha_before": self.aha_before,
            "aha_after": self.aha_after,
            "joal": list(self.joal),
            "spell_from": self.spell_from,
            "facts": {"spelt": f.spelt, "noun": f.noun, "verb": f.verb, "reversible": f.reversible},
        }


@dataclass(frozen=True, slots=True)
class Setup:
    names: tuple[str, ...]
    """In seating order: play passes from each to the next, to the left (MN-S6)."""
    words: tuple[SecretWord | None, ...]
    """None for a word its player lays in play (lay_word)."""
    seed: int
    agreed_first: int | None
    division: int | None
    numbers: str
    """'die' (a D12) or 'cards' (12 number cards, MN-C3)."""
    icecq: bool
    """The ICECQ questions are played (MN-S1): a judged answer before each guessing."""
    guess_seconds: int
    """The agreed time for a guess (MN-T4); 0 for none."""
    rules: HouseRules
    dealing: str | None = None
    """The setup's `words`: 'dealt', 'phones', or None when it says nothing."""

    @property
    def side_count(self) -> int:
        return len(self.names)

    @property
    def division_rules(self) -> Division | None:
        return DIVISIONS.get(self.division or 0)

    def first_player(self) -> int:
        """The setup's choice, or the high roll of MN-S6 drawn from the seed: every player
        rolls, the tied highest roll again."""
        if self.agreed_first is not None:
            return self.agreed_first
        rng = random.Random(f"mnemo:first:{self.seed}")
        rolling = list(range(self.side_count))
        while len(rolling) > 1:
            rolls = {side: rng.randrange(12) for side in rolling}
            best = max(rolls.values())
            rolling = [side for side in rolling if rolls[side] == best]
        return rolling[0]

    def to_dict(self) -> JSON:
        out: JSON = {
            "sides": [
                {"name": n, **(w.to_dict() if w is not None else {})}
                for n, w in zip(self.names, self.words, strict=True)
            ],
            "seed": self.seed,
            "numbers": self.numbers,
            "icecq": self.icecq,
            "guess_seconds": self.guess_seconds,
            "house_rules": self.rules.to_dict(),
        }
        if self.agreed_first is not None:
            out["first_player"] = self.agreed_first
        if self.division is not None:
            out["division"] = self.division
        if self.dealing is not None:
            out["words"] = self.dealing
        return out


_KEYS = {
    "game",
    "sides",
    "seed",
    "first_player",
    "division",
    "numbers",
    "icecq",
    "guess_seconds",
    "house_rules",
    "words",
}
_SIDE_KEYS = {"name", "word", "aha_before", "aha_after", "joal", "spell_from", "facts"}
_FACTS = ("spelt", "noun", "verb", "reversible")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_setup(data: Mapping[str, Any], lookup: Lookup | None = None) -> Setup:
    """Reads a setup; `lookup` gives the facts of a word whose setup leaves them out."""
    if not isinstance(data, Mapping):
        raise BadSetup("setup", "must be an object")
    unknown = set(data) - _KEYS
    if unknown:
        raise BadSetup(sorted(unknown)[0], "is not a setup key")
    if data.get("game", "mnemo") != "mnemo":
        raise BadSetup("game", "must be 'mnemo' (or left out)")
    rules = HouseRules.from_dict(data.get("house_rules", {}))
    seed = data.get("seed", 0)
    if not _whole(seed) or not 0 <= seed < 2**63:
        raise BadSetup("seed", f"must be a whole number 0 .. 2**63 - 1, got {seed!r}")
    division = data.get("division")
    if division is not None and (not _whole(division) or division not in DIVISIONS):
        raise BadSetup("division", f"must be a division 1 .. 7 or null (MN-DIV), got {division!r}")
    numbers = data.get("numbers", "die")
    if numbers not in NUMBERS:
        raise BadSetup("numbers", f"must be 'die' or 'cards' (MN-C3), got {numbers!r}")
    icecq = data.get("icecq", False)
    if not isinstance(icecq, bool):
        raise BadSetup("icecq", "must be true or false (MN-S1)")
    seconds = data.get("guess_seconds", 0)
    if not _whole(seconds) or seconds not in GUESS_SECONDS:
        raise BadSetup("guess_seconds", f"must be 0 (no limit) or 30 (MN-T4), got {seconds!r}")
    dealing = data.get("words")
    if dealing is not None and dealing not in WORDS:
        raise BadSetup(
            "words", f"must be 'dealt' or 'phones' (how a word left out comes), got {dealing!r}"
        )
    raw = data.get("sides")
    if not isinstance(raw, list) or not FEWEST <= len(raw) <= MOST:
        raise BadSetup("sides", f"MnemoGame is played by {FEWEST} to {MOST} players")
    names: list[str] = []
    words: list[SecretWord | None] = []
    for i, item in enumerate(raw):
        name, word = _side(item, i, DIVISIONS.get(division or 0), rules, lookup)
        names.append(name)
        words.append(word)
    _check_supply(words)
    first = data.get("first_player")
    if first is not None and (not _whole(first) or not 0 <= first < len(names)):
        raise BadSetup("first_player", f"must be a player index 0 .. {len(names) - 1}")
    return Setup(
        tuple(names),
        tuple(words),
        seed,
        first,
        division,
        numbers,
        icecq,
        seconds,
        rules,
        dealing,
    )


def _side(
    item: Any, i: int, division: Division | None, rules: HouseRules, lookup: Lookup | None
) -> tuple[str, SecretWord | None]:
    where = f"sides[{i}]"
    if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
        raise BadSetup(where, 'must be an object with a "name" (and its "word")')
    extra = set(item) - _SIDE_KEYS
    if extra:
        raise BadSetup(f"{where}.{sorted(extra)[0]}", "is not a side key")
    name = item["name"].strip() or f"Player {i + 1}"
    if item.get("word") is None:
        given = sorted(set(item) - {"name", "word"})
        if given:
            raise BadSetup(
                f"{where}.{given[0]}", "goes with a word: this side lays its word in play"
            )
        return name, None
    raw_word = item["word"]
    if not isinstance(raw_word, str) or not raw_word.strip():
        raise BadSetup(f"{where}.word", "every player lays a secret word (MN-S2)")
    before, after = item.get("aha_before", 0), item.get("aha_after", 0)
    for key, value in (("aha_before", before), ("aha_after", after)):
        if not _whole(value) or value < 0:
            raise BadSetup(f"{where}.{key}", "must be a whole number of AHA chips, 0 or more")
    joal_raw = item.get("joal", [])
    if not isinstance(joal_raw, list) or not all(_whole(p) for p in joal_raw):
        raise BadSetup(f"{where}.joal", "must be a list of positions in the word (from 0)")
    spell_from = item.get("spell_from", "left")
    word = raw_word.strip().upper()
    problem = word_problem(word, before, after, tuple(joal_raw), spell_from, division, rules)
    if problem is not None:
        field, rule, text = problem
        raise BadSetup(f"{where}{field}", f"{text} ({rule})")
    facts = _facts(item.get("facts"), f"{where}.facts", word, lookup)
    if facts.proper:
        raise BadSetup(f"{where}.word", "is a proper name: proper names are not allowed (MN-S3)")
    return name, secret_word(word, before, after, tuple(joal_raw), spell_from, facts)


def secret_word(
    word: str, before: int, after: int, joal: tuple[int, ...], spell_from: str, facts: WordFacts
) -> SecretWord:
    """The word as laid: upper case, its hyphens among its JOALs (MN-C5)."""
    word = word.strip().upper()
    joals = tuple(sorted({*joal, *(p for p, c in enumerate(word) if c == HYPHEN)}))
    return SecretWord(word, before, after, joals, spell_from, facts)


def word_problem(
    word: str,
    before: int,
    after: int,
    joal: tuple[int, ...],
    spell_from: str,
    division: Division | None,
    rules: HouseRules,
) -> tuple[str, str, str] | None:
    """What is wrong with a word as a player lays it, as (the field: '.word', '.joal', ... or
    '' for the whole side; the rule id; a sentence), or None. `word` is in upper case."""
    if not all(c in SUPPLY or c == HYPHEN for c in word) or not any(c in SUPPLY for c in word):
        return ".word", "MN-S3", "is letters A to Z and hyphens only"
    if before < 0 or after < 0:
        return "", "MN-S4", "a word takes no AHA chips or some at each end, never fewer"
    ahas = before + after
    if division is None:
        if ahas > MAX_AHAS:
            return "", "MN-S4", f"a word takes at most {MAX_AHAS} AHA chips"
    else:
        label = f"division {division.number} ({division.name})"
        letters = len(word)
        if letters < division.fewest or (division.most is not None and letters > division.most):
            most = "or more" if division.most is None else f"to {division.most}"
            return ".word", "MN-DIV", f"{label} plays words of {division.fewest} {most} letters"
        if ahas > division.ahas:
            return "", "MN-DIV", f"{label} allows at most {division.ahas} AHA chips"
        if rules.division_aha_rule == "EXACT" and ahas < division.fewest_ahas:
            wanted = (
                str(division.ahas)
                if division.fewest_ahas == division.ahas
                else f"{division.fewest_ahas} to {division.ahas}"
            )
            return "", "MN-A15", f"{label} under mn.division.ahaRule=EXACT takes {wanted} AHA chips"
    if len(set(joal)) != len(joal) or not all(0 <= p < len(word) for p in joal):
        return ".joal", "MN-A18", f"positions are distinct, 0 .. {len(word) - 1}"
    if spell_from not in SPELL_FROM:
        return ".spell_from", "MN-S2", "must be 'left' or 'right'"
    return None


def _facts(raw: Any, where: str, word: str, lookup: Lookup | None) -> WordFacts:
    if raw is None:
        if lookup is None:
            raise BadSetup(where, "give the word's facts: no word list to look it up in")
        try:
            return lookup(word)
        except LookupError as err:
            raise BadSetup(where, f"cannot look the word up: {err}") from None
    if not isinstance(raw, Mapping) or set(raw) != set(_FACTS):
        raise BadSetup(where, f"must be an object of {', '.join(_FACTS)}")
    if not all(isinstance(raw[k], bool) for k in _FACTS):
        raise BadSetup(where, "each fact is true or false")
    return WordFacts(raw["spelt"], raw["noun"], raw["verb"], raw["reversible"])


def chips_used(words: Iterable[SecretWord | None]) -> tuple[Counter[str], int, int]:
    """The letter chips (by letter), AHA chips and JOAL chips the words take from the box."""
    letters: Counter[str] = Counter()
    ahas = joals = 0
    for w in words:
        if w is None:
            continue
        letters.update(c for i, c in enumerate(w.word) if i not in w.joal)
        ahas += w.ahas
        joals += len(w.joal)
    return letters, ahas, joals


def supply_problem(words: Iterable[SecretWord | None]) -> str | None:
    """MN-S5: what the words together take that the box does not hold, or None."""
    letters, ahas, joals = chips_used(words)
    for letter, count in sorted(letters.items()):
        if count > SUPPLY[letter]:
            return (
                f"the words use {count} {letter} chips; the box has {SUPPLY[letter]}: lay a "
                "JOAL for the others"
            )
    if ahas > AHA_SUPPLY:
        return f"the words use {ahas} AHA chips; the box has {AHA_SUPPLY}"
    if joals > JOAL_SUPPLY:
        return f"the words use {joals} JOAL chips; the box has {JOAL_SUPPLY}"
    return None


def _check_supply(words: list[SecretWord | None]) -> None:
    problem = supply_problem(words)
    if problem is not None:
        raise BadSetup("sides", f"{problem} (MN-S5)")
