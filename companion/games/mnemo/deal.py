"""The companion's own words, for a player who has none to lay: dealt at setup (the setup's
`words` "dealt": the touch screen's default) or laid for a player at the table in play (the
touch screen's "Deal Ada a word" while the rules wait for her word). Pure: a fixed list with
the facts the word list gives each word, and draws from the seed.

    deal_words([None, None], seed=7, division=None, rules=HouseRules())
    dealt_word(state_words, side=1, seed=7, division=None, rules=HouseRules())
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from companion.games.mnemo.letters import AHA_SUPPLY, JOAL_SUPPLY, MAX_AHAS, SUPPLY, Division
from companion.games.mnemo.rules import HouseRules
from companion.games.mnemo.setup import SecretWord, Setup, chips_used, secret_word
from companion.games.mnemo.words import WordFacts

DEAL: tuple[tuple[str, bool, bool, bool], ...] = (
    ("STAR", True, True, True),
    ("LEVEL", True, True, True),
    ("KAYAK", True, True, True),
    ("PLANET", True, False, False),
    ("GARDEN", True, True, False),
    ("RIVER", True, False, False),
    ("WINDOW", True, False, False),
    ("HAPPY", False, False, False),
    ("STONE", True, True, False),
    ("BRIDGE", True, True, False),
    ("DRAGON", True, False, False),
    ("LISTEN", False, True, False),
    ("SILVER", True, True, False),
    ("PENCIL", True, True, False),
    ("ROTOR", True, False, True),
    ("REWARD", True, True, True),
    ("LEMON", True, False, False),
    ("CANDLE", True, True, False),
    ("JUNGLE", True, False, False),
    ("TRAVEL", True, True, False),
    ("YELLOW", True, True, False),
    ("BASKET", True, False, False),
    ("RADAR", True, False, True),
    ("TIGER", True, False, False),
    ("DRAWER", True, False, True),
)
"""Words the companion deals, with their facts (noun, verb, reversible) as the word list
gives them: 4 to 6 letters, so every division takes them."""


def _one(
    laid: Sequence[SecretWord | None],
    rng: random.Random,
    division: Division | None,
    rules: HouseRules,
) -> SecretWord:
    """A word from DEAL within what the box has left (MN-S5), a JOAL standing in for a
    letter it has run out of, with as many decoys as the division allows (MN-S4, MN-DIV)."""
    letters, ahas_used, joals_used = chips_used(laid)
    left = {c: SUPPLY[c] - letters[c] for c in SUPPLY}
    fits = [w for w in DEAL if all(w[0].count(c) <= left[c] for c in set(w[0]))]
    word, noun, verb, reversible = rng.choice(fits or DEAL)
    joal: list[int] = []
    for i, c in enumerate(word):
        if left[c] > 0:
            left[c] -= 1
        elif joals_used + len(joal) < JOAL_SUPPLY:
            joal.append(i)
    most = min(division.ahas if division else 2, MAX_AHAS, max(0, AHA_SUPPLY - ahas_used))
    fewest = division.fewest_ahas if division and rules.division_aha_rule == "EXACT" else 0
    ahas = rng.randint(min(fewest, most), most)
    before = rng.randint(0, min(1, ahas))
    facts = WordFacts(spelt=True, noun=noun, verb=verb, reversible=reversible)
    side = rng.choice(("left", "right"))
    return secret_word(word, before, ahas - before, tuple(joal), side, facts)


def deal_words(
    words: Sequence[SecretWord | None], seed: int, division: Division | None, rules: HouseRules
) -> tuple[SecretWord, ...]:
    """`words` with a word dealt from the seed for each side that has none."""
    rng = random.Random(f"mnemo:deal:{seed}")
    out = list(words)
    for side, word in enumerate(out):
        if word is None:
            out[side] = _one(out, rng, division, rules)
    return tuple(w for w in out if w is not None)


def with_dealt(setup: Setup) -> Setup:
    """Under `words` "dealt", the setup with a word dealt to each side that has none."""
    if setup.dealing != "dealt" or all(w is not None for w in setup.words):
        return setup
    words = deal_words(setup.words, setup.seed, setup.division_rules, setup.rules)
    return replace(setup, words=words)


def dealt_word(
    words: Sequence[SecretWord | None],
    side: int,
    seed: int,
    division: Division | None,
    rules: HouseRules,
) -> SecretWord:
    """The word the companion lays for `side` in play, from the seed and the words laid so
    far."""
    return _one(words, random.Random(f"mnemo:lay:{seed}:{side}"), division, rules)
