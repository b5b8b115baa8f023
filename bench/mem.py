"""MeM rules and solver speed.

1. Listing every legal move and capture of both players (`legal_options`) on 1,000 random
   mid-game positions of the MEM game: median and p99 microseconds; floor p99 <= 2 ms, so
   the companion can list them after every move.
2. Solving MEM-Solitaire (the longest pattern, and whether 16 stones win) on 20 fixed
   seeds: median seconds, how many proved optimal, how many 16-stone wins.

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
from companion.games.contract import Action
from companion.games.mem import actions as A
from companion.games.mem.board import geometry
from companion.games.mem.engine import MemEngine
from companion.games.mem.legal import geo_of, legal_captures, legal_moves
from companion.games.mem.solitaire import solve_solitaire
from companion.games.mem.solver import legal_options
from companion.games.mem.state import State

P99_US_FLOOR = 2000.0
POSITIONS = 1000
SOLITAIRE_SEEDS = range(1, 21)
SOLITAIRE_BUDGET = 200_000


def _random_action(state: State, rng: random.Random) -> Action:
    engine_expected = MemEngine().expected(state)
    assert engine_expected is not None
    actor, options = engine_expected.actor, engine_expected.actions
    if "block" in options:
        return A.Allow(actor)
    if "capture" in options and (rng.random() < 0.5 or "move" not in options):
        group = legal_captures(state, actor)[0]
        return A.Capture(actor, geo_of(state).squares(group)[0])
    if "move" in options:
        choices = [m for m in legal_moves(state, actor) if m[0] not in state.barred]
        square, (row, col) = rng.choice(choices)
        return A.Move(actor, square, row, col)
    return A.EndTurn(actor) if "end_turn" in options else A.Pass(actor)


def positions(count: int) -> list[State]:
    """Mid-game MEM positions: random legal games, sampled after 4 to 20 moves."""
    engine = MemEngine()
    out: list[State] = []
    seed = 0
    while len(out) < count:
        seed += 1
        rng = random.Random(seed)
        state = engine.new_game(
            {"game": "mem", "sides": [{"name": "Ada"}, {"name": "Bo"}], "seed": seed}
        )
        while not engine.is_over(state) and len(out) < count:
            state, _ = engine.apply(state, _random_action(state, rng))
            if 4 <= state.moves <= 20 and state.pending is None and rng.random() < 0.5:
                out.append(state)
    return out


def main(argv: list[str] | None = None) -> int:
    command_line(__doc__).parse_args(argv)
    sample = positions(POSITIONS)
    timings = []
    listed = 0
    for state in sample:
        began = time.perf_counter()
        options = legal_options(state)
        timings.append((time.perf_counter() - began) * 1e6)
        listed += sum(len(o.moves) + len(o.captures) for o in options)
    timings.sort()
    median = statistics.median(timings)
    p99 = timings[int(len(timings) * 0.99) - 1]
    print(
        f"legal moves and captures, both players: {len(sample)} mid-game positions, "
        f"{listed / len(sample):.0f} options each on average"
    )
    print(f"  median {median:.0f} us, p99 {p99:.0f} us (floor p99 {P99_US_FLOOR:.0f} us)")

    seconds = []
    proved = wins = 0
    for seed in SOLITAIRE_SEEDS:
        board = MemEngine().new_game({"game": "solitaire", "sides": [{"name": "A"}], "seed": seed})
        began = time.perf_counter()
        result = solve_solitaire(board.board, geometry(), budget=SOLITAIRE_BUDGET)
        seconds.append(time.perf_counter() - began)
        proved += result.proved
        wins += result.win
    print(
        f"MEM-Solitaire on {len(SOLITAIRE_SEEDS)} seeds (budget {SOLITAIRE_BUDGET} nodes): "
        f"median {statistics.median(seconds):.4f} s, worst {max(seconds):.4f} s; "
        f"{proved} proved optimal, {wins} won with 16 stones"
    )
    ok = p99 <= P99_US_FLOOR
    print("floors met" if ok else "FLOOR MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
