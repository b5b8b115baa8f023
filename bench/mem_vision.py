"""The camera on the MeM board: eleven stone colours on rendered deals under random light.

For each of SETS random camera set-ups (vision.synth.random_conditions: pose, light,
sensor, lens) the board is calibrated once as a user would (one stone of each of the
eleven colours on the plan's squares, two frames), then FRAMES_PER_SET dealt positions
(companion.games.mem's deal, 0 to 12 stones taken) are rendered and read.

Prints: the set-ups calibration refused outright and those where it named colours it
cannot tell apart (still read: those colours read as unsure); then over every square of
every frame read, the share read wrong (a wrong colour, a stone missed or invented), the
share read unsure or occluded (no colour named: never a guess), and the frames read
entirely right; the wrong readings by pair; the median read time.

    python bench/mem_vision.py [--quick]     # --quick: a fifth of the set-ups
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2
import numpy as np

from bench.options import options
from companion.games.mem.colours import NAME
from companion.games.mem.setup import parse_setup
from vision.calibrate import calibrate
from vision.geometry import BOARDS_DIR, load_board
from vision.plans import calibration_plan_for
from vision.reader import BoardReader
from vision.synth import Scene, random_conditions, render
from vision.synth.palette import MEM_STONES

SETS = 25
FRAMES_PER_SET = 4
BOARD = BOARDS_DIR / "mem.toml"


def deal(seed: int, taken: int) -> Scene:
    setup = parse_setup({"game": "mem", "sides": [{"name": "Ada"}, {"name": "Bo"}], "seed": seed})
    stones = {square: NAME[colour] for square, colour in enumerate(setup.board())}
    for square in random.Random(f"taken:{seed}").sample(sorted(stones), taken):
        del stones[square]
    return Scene(crystals={str(square): (name,) for square, name in stones.items()})


def main(argv: list[str] | None = None) -> int:
    parser = options(__doc__)
    parser.add_argument("--quick", action="store_true", help="a fifth of the set-ups")
    quick = parser.parse_args(argv).quick
    cv2.setNumThreads(1)
    board = load_board(BOARD)
    plan = calibration_plan_for(board, list(MEM_STONES))
    calibration_scene = Scene(crystals={str(p[0]): (name,) for name, p in plan.items()})
    sets = SETS // 5 if quick else SETS
    squares = wrong = unsure = frames = frames_right = 0
    refused: list[str] = []
    alike: list[str] = []
    pairs: Counter[tuple[str, str]] = Counter()
    read_s: list[float] = []
    started = time.perf_counter()
    for number in range(sets):
        rng = np.random.default_rng(70_000 + number)
        conditions = random_conditions(rng)
        shots = [render(board, calibration_scene, conditions, 80_000 + number, i) for i in (0, 1)]
        result = calibrate(board, [s.image for s in shots], plan, board_file=str(BOARD))
        if not result.calibration.colours:
            refused.append(f"set {number}: {'; '.join(result.problems[:2])}")
            continue
        named = [p for p in result.problems if "look alike" in p or "hides" in p]
        if named:
            alike.append(f"set {number}: " + "; ".join(p.split(":")[0] for p in named))
        reader = BoardReader(result.calibration, board)
        for index in range(FRAMES_PER_SET):
            seed = 90_000 + 100 * number + index
            scene = deal(seed, int(rng.integers(0, 13)))
            shot = render(board, scene, conditions, seed)
            reader.forget_contents()
            began = time.perf_counter()
            reading = reader.read(shot.image)
            read_s.append(time.perf_counter() - began)
            right = True
            for place in board.places:
                key = str(place.number)
                truth = scene.crystals.get(key, ())
                zone = reading.zones.get(key)
                squares += 1
                if zone is None or zone.occluded or zone.confidence < 0.6:
                    unsure += 1
                    right = False
                elif zone.crystals != truth:
                    wrong += 1
                    right = False
                    pairs[(truth[0] if truth else "empty", "+".join(zone.crystals) or "empty")] += 1
            frames += 1
            frames_right += right
    elapsed = time.perf_counter() - started
    print(
        f"MeM vision: {sets} random set-ups, {len(refused)} refused at calibration, "
        f"{len(alike)} with colours named as alike; {frames} frames of dealt stones read"
    )
    for line in refused:
        print(f"  refused {line}")
    for line in alike:
        print(f"  alike {line}")
    total = max(1, squares)
    print(f"  per-square wrong: {wrong / total:.2%} ({wrong} of {squares} squares)")
    print(f"  per-square unsure or occluded (no colour named): {unsure / total:.2%} ({unsure})")
    share = frames_right / max(1, frames)
    print(f"  frames read fully right: {share:.1%} ({frames_right} of {frames})")
    if pairs:
        print("  wrong readings (truth -> read): " + ", ".join(
            f"{a} -> {b} {n}" for (a, b), n in pairs.most_common(10)
        ))  # fmt: skip
    if read_s:
        print(f"  read per frame, one thread: median {statistics.median(read_s) * 1000:.1f} ms")
    print(f"  ({elapsed:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
