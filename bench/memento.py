"""memento ludis rules and opponent speed.

1. Listing every legal action of the player on turn (`legal_actions`) on 2,000 positions
   from random games of 2 to 4 players under random house rules, each the least of five
   runs: median and p99 microseconds; floor p99 <= 1 ms, so a screen can list them after
   every action.
2. The companion opponent at its default strength choosing an action on 40 of those
   positions: median and worst seconds; floor worst <= 2 s.
3. The opponent's win rate against the random player over 20 two-player games.

Exits 1 when a floor is missed. Run with `make bench`.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.options import options as command_line
from companion.games.memento.engine import MementoEngine
from companion.games.memento.legal import legal_actions
from companion.games.memento.opponent import Opponent
from companion.games.memento.players import random_action
from companion.games.memento.rules import HOUSE_RULES
from companion.games.memento.state import State

P99_US_FLOOR = 1000.0
OPPONENT_FLOOR_S = 2.0
POSITIONS = 2000
REPEATS = 5
OPPONENT_POSITIONS = 40
GAMES = 20
NAMES = ("Ada", "Bo", "Cy", "Di")


def positions(count: int) -> list[State]:
    """Positions of random legal games, each kept with probability one half."""
    engine = MementoEngine()
    out: list[State] = []
    seed = 0
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        rules = {rule.key: rng.choice(rule.choices) for rule in HOUSE_RULES}
        players = rng.randint(2, 4)
        sides = [{"name": n} for n in NAMES[:players]]
        state = engine.new_game({"sides": sides, "seed": seed, "house_rules": rules})
        for _ in range(150):
            if engine.is_over(state) or len(out) >= count:
                break
            state, _ = engine.apply(state, random_action(state, rng))
            if rng.random() < 0.5 and not engine.is_over(state):
                out.append(state)
    return out


def win_rate(games: int) -> float:
    engine = MementoEngine()
    wins = 0
    for seed in range(games):
        me = seed % 2
        state = engine.new_game(
            {"sides": [{"name": "Ada"}, {"name": "Bo"}], "seed": seed, "first_player": seed % 2}
        )
        rng = random.Random(seed)
        opponent = Opponent(seed=seed)
        for _ in range(200):
            if engine.is_over(state):
                break
            action = opponent.choose(state) if state.turn == me else random_action(state, rng)
            state, _ = engine.apply(state, action)
        wins += state.outcome is not None and state.outcome.winner == me
    return wins / games


def main(argv: list[str] | None = None) -> int:
    command_line(__doc__).parse_args(argv)
    sample = positions(POSITIONS)
    timings = []
    listed = 0
    for state in sample:
        # The least of a few runs: listing is deterministic, so anything above the least is
        # the machine busy with something else.
        runs = []
        for _ in range(REPEATS):
            began = time.perf_counter()
            actions = legal_actions(state)
            runs.append((time.perf_counter() - began) * 1e6)
        timings.append(min(runs))
        listed += len(actions)
    timings.sort()
    p99 = timings[int(len(timings) * 0.99) - 1]
    print(
        f"legal actions: {len(sample)} positions, {listed / len(sample):.0f} actions each on "
        f"average, most {max(len(legal_actions(s)) for s in sample)}"
    )
    print(
        f"  median {statistics.median(timings):.0f} us, p99 {p99:.0f} us "
        f"(floor p99 {P99_US_FLOOR:.0f} us)"
    )

    seconds = []
    for state in sample[:: len(sample) // OPPONENT_POSITIONS][:OPPONENT_POSITIONS]:
        began = time.perf_counter()
        Opponent(seed=1).choose(state)
        seconds.append(time.perf_counter() - began)
    worst = max(seconds)
    print(
        f"opponent at default strength, {len(seconds)} positions: median "
        f"{statistics.median(seconds):.3f} s, worst {worst:.3f} s "
        f"(floor {OPPONENT_FLOOR_S:.0f} s)"
    )
    print(f"opponent against the random player: won {win_rate(GAMES):.0%} of {GAMES} games")
    ok = p99 <= P99_US_FLOOR and worst <= OPPONENT_FLOOR_S
    print("floors met" if ok else "FLOOR MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
