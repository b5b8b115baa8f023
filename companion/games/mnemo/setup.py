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
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
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
    words: tuple[SecretWord, ...]
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

    @property
    def side_count(self) -> int:
        return len(self.names)

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
                {"name": n, **w.to_dict()} for n, w in zip(self.names, self.words, strict=True)
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
    raw = data.get("sides")
    if not isinstance(raw, list) or not FEWEST <= len(raw) <= MOST:
        raise BadSetup("sides", f"MnemoGame is played by {FEWEST} to {MOST} players")
    names: list[str] = []
    words: list[SecretWord] = []
    for i, item in enumerate(raw):
        name, word = _side(item, i, DIVISIONS.get(division or 0), rules, lookup)
        names.append(name)
        words.append(word)
    _check_supply(words)
    first = data.get("first_player")
    if first is not None and (not _whole(first) or not 0 <= first < len(names)):
        raise BadSetup("first_player", f"must be a player index 0 .. {len(names) - 1}")
    return Setup(tuple(names), tuple(words), seed, first, division, numbers, icecq, seconds, rules)


def _side(
    item: Any, i: int, division: Division | None, rules: HouseRules, lookup: Lookup | None
) -> tuple[str, SecretWord]:
    where = f"sides[{i}]"
    if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
        raise BadSetup(where, 'must be an object with a "name" and a "word"')
    extra = set(item) - _SIDE_KEYS
    if extra:
        raise BadSetup(f"{where}.{sorted(extra)[0]}", "is not a side key")
    name = item["name"].strip() or f"Player {i + 1}"
    raw_word = item.get("word")
    if not isinstance(raw_word, str) or not raw_word.strip():
        raise BadSetup(f"{where}.word", "every player lays a secret word (MN-S2)")
    word = raw_word.strip().upper()
    if not all(c in SUPPLY or c == HYPHEN for c in word) or not any(c in SUPPLY for c in word):
        raise BadSetup(f"{where}.word", "is letters A to Z and hyphens only (MN-S3)")
    before, after = item.get("aha_before", 0), item.get("aha_after", 0)
    for key, value in (("aha_before", before), ("aha_after", after)):
        if not _whole(value) or value < 0:
            raise BadSetup(f"{where}.{key}", "must be a whole number of AHA chips, 0 or more")
    _check_division(where, len(word), before + after, division, rules)
    joal_raw = item.get("joal", [])
    if not isinstance(joal_raw, list) or not all(_whole(p) for p in joal_raw):
        raise BadSetup(f"{where}.joal", "must be a list of positions in the word (from 0)")
    if len(set(joal_raw)) != len(joal_raw) or not all(0 <= p < len(word) for p in joal_raw):
        raise BadSetup(f"{where}.joal", f"positions are distinct, 0 .. {len(word) - 1} (MN-A18)")
    joal = tuple(sorted({*joal_raw, *(p for p, c in enumerate(word) if c == HYPHEN)}))
    spell_from = item.get("spell_from", "left")
    if spell_from not in ("left", "right"):
        raise BadSetup(f"{where}.spell_from", "must be 'left' or 'right' (MN-S2)")
    facts = _facts(item.get("facts"), f"{where}.facts", word, lookup)
    if facts.proper:
        raise BadSetup(f"{where}.word", "is a proper name: proper names are not allowed (MN-S3)")
    return name, SecretWord(word, before, after, joal, spell_from, facts)


def _check_division(
    where: str, letters: int, ahas: int, division: Division | None, rules: HouseRules
) -> None:
    if division is None:
        if ahas > MAX_AHAS:
            raise BadSetup(where, f"a word takes at most {MAX_AHAS} AHA chips (MN-S4)")
        return
    label = f"division {division.number} ({division.name})"
    if letters < division.fewest or (division.most is not None and letters > division.most):
        most = "or more" if division.most is None else f"to {division.most}"
        raise BadSetup(
            f"{where}.word", f"{label} plays words of {division.fewest} {most} letters (MN-DIV)"
        )
    if ahas > division.ahas:
        raise BadSetup(where, f"{label} allows at most {division.ahas} AHA chips (MN-DIV)")
    if rules.division_aha_rule == "EXACT" and ahas < division.fewest_ahas:
        wanted = (
            str(division.ahas)
            if division.fewest_ahas == division.ahas
            else f"{division.fewest_ahas} to {division.ahas}"
        )
        raise BadSetup(
            where, f"{label} under mn.division.ahaRule=EXACT takes {wanted} AHA chips (MN-A15)"
        )


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


def _check_supply(words: list[SecretWord]) -> None:
    """MN-S5: together the words use no more of a letter, of AHA or of JOAL chips than the
    box holds."""
    letters: Counter[str] = Counter()
    for w in words:
        letters.update(c for i, c in enumerate(w.word) if i not in w.joal)
    for letter, count in sorted(letters.items()):
        if count > SUPPLY[letter]:
            raise BadSetup(
                "sides",
                f"the words use {count} {letter} chips; the box has {SUPPLY[letter]}: lay a "
                "JOAL for the others (MN-S5)",
            )
    ahas = sum(w.ahas for w in words)
    if ahas > AHA_SUPPLY:
        raise BadSetup("sides", f"the words use {ahas} AHA chips; the box has {AHA_SUPPLY}")
    joals = sum(len(w.joal) for w in words)
    if joals > JOAL_SUPPLY:
        raise BadSetup("sides", f"the words use {joals} JOAL chips; the box has {JOAL_SUPPLY}")
