"""MnemoGame guess checking, turn scoring and the word list.

1. Checking a guess and scoring it: `apply` of a guess (the checks, the judgement against
   the secret word, the score and the chip exposed, a word's bonus and the end when they
   follow) on 2,000 guessing positions from random games of 2 to 4 players under random
   house rules, each the least of five runs: median and p99 microseconds; floor p99
   <= 1 ms.
2. A whole turn: every action from a roll to the turn's last guess, applied in a row, on
   the turns of those games: median and p99 microseconds; floor p99 <= 1 ms.
3. The word list: reading the Debian lists once (reported), then the facts of 2,000 words
   from it (spelling, proper name, noun, verb, reversible): median and p99 microseconds
   per word; floor p99 <= 5 ms.

Exits 1 when a floor is missed; without the word list (apt-get install wamerican
wordnet-base) part 3 is skipped. Run with `make bench`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.options import options as command_line
from companion.games import find_plugin
from companion.games.contract import Action
from companion.games.mnemo.actions import Guess
from companion.games.mnemo.dictionary import WORD_LIST, lexicon, word_facts
from companion.games.mnemo.engine import MnemoEngine
from companion.games.mnemo.players import random_action
from companion.games.mnemo.rules import HOUSE_RULES
from companion.games.mnemo.state import State

GUESS_P99_US_FLOOR = 1000.0
TURN_P99_US_FLOOR = 1000.0
WORD_P99_US_FLOOR = 5000.0
POSITIONS = 2000
WORDS = 2000
REPEATS = 5


def games() -> list[list[tuple[State, Action]]]:
    """Random games, as (state, action taken) pairs, until POSITIONS guesses are seen."""
    plugin = find_plugin("mnemo")
    engine = MnemoEngine()
    out: list[list[tuple[State, Action]]] = []
    guesses = 0
    seed = 0
    while guesses < POSITIONS:
        seed += 1
        rng = random.Random(seed)
        setup = dict(rng.choice(list(plugin.example_setups())))
        rules = {rule.key: rng.choice(rule.choices) for rule in HOUSE_RULES}
        rules["mn.division.ahaRule"] = "MAXIMUM"
        state = engine.new_game({**setup, "seed": seed, "house_rules": rules})
        played: list[tuple[State, Action]] = []
        for _ in range(300):
            if engine.is_over(state):
                break
            action = random_action(state, rng)
            played.append((state, action))
            guesses += isinstance(action, Guess)
            state, _ = engine.apply(state, action)
        out.append(played)
    return out


def least(run: object, repeats: int = REPEATS) -> float:
    """The least of a few runs in microseconds: anything above it is the machine busy."""
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        run()  # type: ignore[operator]
        times.append((time.perf_counter() - began) * 1e6)
    return min(times)


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * 0.99) - 1)]


def main(argv: list[str] | None = None) -> int:
    command_line(__doc__).parse_args(argv)
    engine = MnemoEngine()
    played = games()
    guesses = [(s, a) for game in played for s, a in game if isinstance(a, Guess)][:POSITIONS]
    guess_us = [least(lambda s=s, a=a: engine.apply(s, a)) for s, a in guesses]
    guess_p99 = p99(guess_us)
    print(f"a guess checked and scored: {len(guesses)} guesses")
    print(
        f"  median {statistics.median(guess_us):.0f} us, p99 {guess_p99:.0f} us "
        f"(floor p99 {GUESS_P99_US_FLOOR:.0f} us)"
    )

    turns: list[list[tuple[State, Action]]] = []
    for game in played:
        turn: list[tuple[State, Action]] = []
        for state, action in game:
            if turn and state.turn_number != turn[0][0].turn_number:
                turns.append(turn)
                turn = []
            turn.append((state, action))

    def whole(turn: list[tuple[State, Action]]) -> None:
        state = turn[0][0]
        for _, action in turn:
            state, _events = engine.apply(state, action)

    turn_us = [least(lambda t=t: whole(t)) for t in turns]
    turn_p99 = p99(turn_us)
    print(f"a whole turn applied: {len(turns)} turns")
    print(
        f"  median {statistics.median(turn_us):.0f} us, p99 {turn_p99:.0f} us "
        f"(floor p99 {TURN_P99_US_FLOOR:.0f} us)"
    )

    ok = guess_p99 <= GUESS_P99_US_FLOOR and turn_p99 <= TURN_P99_US_FLOOR
    if WORD_LIST.exists():
        began = time.perf_counter()
        words = sorted(lexicon().words)
        print(f"word list read once: {time.perf_counter() - began:.2f} s, {len(words)} words")
        sample = random.Random(1).sample(words, min(WORDS, len(words)))
        word_us = [least(lambda w=w: word_facts(w)) for w in sample]
        word_p99 = p99(word_us)
        print(f"a word's facts: {len(sample)} words")
        print(
            f"  median {statistics.median(word_us):.0f} us, p99 {word_p99:.0f} us "
            f"(floor p99 {WORD_P99_US_FLOOR:.0f} us)"
        )
        ok = ok and word_p99 <= WORD_P99_US_FLOOR
    else:
        print("word list: not installed (apt-get install wamerican wordnet-base), skipped")
    print("floors met" if ok else "FLOOR MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
