"""MemWars engine speed: mean microseconds per `apply`, and milliseconds to replay a complete
100-place Standard game with challenges, competitive topology and multipliers.

Floors on a 2-core machine: <= 50 us per action, <= 20 ms per full replay. Exits 1 when a
floor is missed. Run with `make bench`.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.options import options
from companion.decks import find_deck
from companion.games.contract import Action
from companion.games.memwars.engine import MemWarsEngine, apply
from companion.games.memwars.players import SimulatedTable
from companion.games.memwars.state import State

US_PER_ACTION_FLOOR = 50.0
MS_PER_REPLAY_FLOOR = 20.0
SEEDS = range(1, 11)
REPEATS = 15


def full_game(engine: MemWarsEngine, seed: int) -> tuple[State, list[Action], int]:
    deck = find_deck("mythologies-of-earth")
    setup = {
        "sides": [{"name": "Ada"}, {"name": "Basil"}],
        "mode": "standard",
        "depth": 2,
        "max_depth": deck.depth,
        "cards": deck.board_map(),
        "topology": {"kind": "competitive"},
        "multipliers": {"centre_place": 2, "centre_quincunx": 2},
        "seed": seed,
    }
    start = engine.new_game(setup)
    table = SimulatedTable(start.setup, (0.85, 0.6), seed)
    state, actions, challenges = start, [], 0
    while (expectation := engine.expected(state)) is not None:
        action = table.next_action(state, expectation)
        challenges += action.kind == "challenge"
        state, _ = engine.apply(state, action)
        actions.append(action)
    return start, actions, challenges


def main(argv: list[str] | None = None) -> int:
    options(__doc__).parse_args(argv)
    engine = MemWarsEngine()
    per_action: list[float] = []
    per_replay: list[float] = []
    counts = []
    for seed in SEEDS:
        start, actions, challenges = full_game(engine, seed)
        counts.append((len(actions), challenges))
        lines = [json.dumps(engine.action_to_dict(a)) for a in actions]
        for _ in range(REPEATS):
            began = time.perf_counter()
            state = start
            for action in actions:
                state, _ = apply(state, action)
            applied = time.perf_counter() - began
            per_action.append(applied / len(actions) * 1e6)
            # A replay from the record: parse every action line, then apply it.
            began = time.perf_counter()
            state = engine.new_game(engine.setup_of(start))
            for line in lines:
                state, _ = apply(state, engine.action_from_dict(json.loads(line)))
            per_replay.append((time.perf_counter() - began) * 1e3)
            assert engine.is_over(state)
    mean_us = statistics.fmean(per_action)
    replay_ms = statistics.median(per_replay)
    actions_mean = statistics.fmean(n for n, _ in counts)
    challenges_mean = statistics.fmean(c for _, c in counts)
    print(
        f"games: {len(SEEDS)} complete 100-place Standard games, {actions_mean:.0f} actions "
        f"and {challenges_mean:.0f} challenges each on average"
    )
    print(f"apply: {mean_us:.1f} us per action (mean; floor {US_PER_ACTION_FLOOR:.0f})")
    print(
        f"replay: {replay_ms:.1f} ms per full game from its record (median; "
        f"floor {MS_PER_REPLAY_FLOOR:.0f}); worst {max(per_replay):.1f} ms"
    )
    ok = mean_us <= US_PER_ACTION_FLOOR and replay_ms <= MS_PER_REPLAY_FLOOR
    print("floors met" if ok else "FLOOR MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
