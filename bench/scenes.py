"""Physically based camera scenes (vision/pbr, Mitsuba 3) stored as fixed-seed sets: a
validation set the board reader is judged on and never tuned on, and a training set.

Per camera set-up: a calibration picture (the calibration plan's crystals on an empty
board), game frames with random positions (crystals on places and claim diamonds, topology
counters), and hand-over sequences (a hand comes in, puts a crystal down or picks one up,
leaves), each frame a JPEG with its truth as JSON beside it, and a manifest for the set.
The validation set's seeds and the training set's never overlap. Building is resumable:
only frames missing on disk are rendered.

    python bench/scenes.py build [--set validation|training] [--limit N] [--jobs J]
                                 [--size 1280x720] [--spp 8] [--frames 6] [--sequences 1]
                                 [--out DIR]
    python bench/scenes.py samples [--set training] [--dir DIR] OUT

Writes build/scenes/<set>-v3/ (see docs/scenes.md).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, replace
from multiprocessing import get_context
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from bench.vision import CHALLENGE, COLOURS, SIDES, picture
from vision.calibration import calibration_plan
from vision.geometry import Board, load_board
from vision.pbr import SAMPLES, SIZE, SetUp, random_setup
from vision.pbr.layout import offsets, spot_beside
from vision.synth.positions import random_position, random_topology
from vision.synth.scene import Hand, Scene

ROOT = Path(__file__).resolve().parent.parent
VERSION = "v3"
FORMAT = "memwars-pbr-scenes"
SEED_BASE = {"validation": 1_000_000, "training": 2_000_000}
"""Set-up seeds: base + index, index below SEED_SPAN, so the two sets never share one."""
SEED_SPAN = 1_000_000
SET_SIZE = {"validation": 12, "training": 400}
"""Camera set-ups in each set unless --limit says fewer."""
FRAMES_PER_SETUP = 6
SEQUENCES_PER_SETUP = 1


def set_directory(name: str) -> Path:
    return ROOT / "build" / "scenes" / f"{name}-{VERSION}"


@dataclass(frozen=True, slots=True)
class Job:
    """One frame to render: where it goes, what it shows, its seeds."""

    path: str
    """Relative to the set's directory, without the .jpg / .json ending."""
    scene: Scene
    seed: int
    layout_seed: int


@dataclass(frozen=True, slots=True)
class SetupPlan:
    name: str
    seed: int
    setup: SetUp
    calibration: Job
    frames: tuple[Job, ...]
    sequences: tuple[tuple[Job, ...], ...]

    def jobs(self) -> tuple[Job, ...]:
        return (self.calibration, *self.frames, *(job for s in self.sequences for job in s))


def plan_setup(
    board: Board, set_name: str, index: int, frames: int, sequences: int = SEQUENCES_PER_SETUP
) -> SetupPlan:
    if not 0 <= index < SEED_SPAN:
        raise ValueError(f"set-up index {index} out of range")
    seed = SEED_BASE[set_name] + index
    name = f"setup-{index:03d}"
    rng = np.random.default_rng(seed)
    setup = random_setup(rng)
    plan = calibration_plan(COLOURS)
    laid = Scene(crystals={str(p): (colour,) for colour, places in plan.items() for p in places})
    calibration = Job(f"{name}/calibration", laid, seed * 1000, seed * 1000)
    topology = random_topology(board, rng)
    games = tuple(
        Job(f"{name}/frame-{k:02d}", random_position(board, rng, topology), seed * 1000 + 1 + k,
            seed * 1000 + 1 + k)
        for k in range(frames)
    )  # fmt: skip
    filmed = []
    for number in range(sequences):
        layout = seed * 1000 + 500 + 20 * number
        start = random_position(board, rng, topology)
        scenes = hand_over(board, start, np.random.default_rng([seed, number]), layout)
        filmed.append(
            tuple(
                Job(f"{name}/sequence-{number}-{k:02d}", scene, layout + 1 + k, layout)
                for k, scene in enumerate(scenes)
            )
        )
    return SetupPlan(name, seed, setup, calibration, games, tuple(filmed))


def hand_over(board: Board, start: Scene, rng: np.random.Generator, layout: int) -> list[Scene]:
    """Eight frames: the board still, a hand coming in, over the zone, putting a crystal down
    (or picking one up), going, and the board still twice."""
    start = _pinned(board, start, layout)
    zones = board.zones()
    zone = zones[int(rng.integers(len(zones)))]
    here = start.crystals.get(zone.key, ())
    crystals, placements = dict(start.crystals), dict(start.placements)
    spots = placements.get(zone.key, ())
    if here and rng.random() < 0.4:
        index = int(rng.integers(len(here)))
        put, took = None, here[index]
        left = here[:index] + here[index + 1 :]
        crystals[zone.key], placements[zone.key] = left, spots[:index] + spots[index + 1 :]
    else:
        missing = [c for c in COLOURS if c not in here] or [CHALLENGE]
        put, took = str(rng.choice(missing)), None
        crystals[zone.key] = (*here, put)
        placements[zone.key] = (*spots, spot_beside(board, zone.key, spots, layout))
    after = replace(start, crystals=crystals, placements=placements)
    side = float(rng.choice([90.0, 270.0, 0.0, 180.0], p=[0.4, 0.35, 0.15, 0.1]))
    angle = side + float(rng.normal(0.0, 18.0))
    way = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
    outside = np.asarray(zone.centre) + way * (_to_edge(board, zone.centre, way) + 70.0)
    width = float(rng.uniform(75.0, 95.0))

    def hand(share: float, height: float, holding: str | None) -> tuple[Hand, ...]:
        x, y = outside + (np.asarray(zone.centre) - outside) * share
        return (Hand((float(x), float(y)), angle, width, height, holding),)

    return [
        start,
        replace(start, hands=hand(0.35, 140.0, put)),
        replace(start, hands=hand(0.8, 90.0, put)),
        replace(start, hands=hand(1.0, 45.0, put)),
        replace(after, hands=hand(1.0, 40.0, took)),
        replace(after, hands=hand(0.45, 110.0, took)),
        after,
        after,
    ]


def _pinned(board: Board, scene: Scene, layout: int) -> Scene:
    """The scene with every crystal's spot written out, as the renderer would lay them."""
    placements = {key: offsets(board, scene, layout, key) for key in scene.crystals}
    return replace(scene, placements=placements)


def _to_edge(board: Board, point: tuple[float, float], way: np.ndarray) -> float:
    """How far from `point` along `way` the sheet ends."""
    reach = math.inf
    for axis, size in ((0, board.width), (1, board.height)):
        if abs(way[axis]) > 1e-9:
            bound = size if way[axis] > 0 else 0.0
            reach = min(reach, (bound - point[axis]) / way[axis])
    return float(reach)


def scene_json(scene: Scene) -> dict[str, Any]:
    return {
        "crystals": {k: list(v) for k, v in scene.crystals.items()},
        "counters": {
            k: ["face-down" if v is None else v for v in values]
            for k, values in scene.counters.items()
        },
        "placements": {k: [list(p) for p in v] for k, v in scene.placements.items()},
        "hands": [
            {
                "tip": list(h.tip),
                "angle": h.angle,
                "width": h.width,
                "height": h.height,
                "holding": h.holding,
            }
            for h in scene.hands
        ],
    }


def scene_from_json(data: dict[str, Any]) -> Scene:
    return Scene(
        crystals={k: tuple(v) for k, v in data["crystals"].items()},
        counters={
            k: tuple(None if v == "face-down" else int(v) for v in values)
            for k, values in data["counters"].items()
        },
        placements={
            k: tuple((float(x), float(y)) for x, y in v) for k, v in data["placements"].items()
        },
        hands=tuple(
            Hand(
                (float(h["tip"][0]), float(h["tip"][1])),
                float(h["angle"]),
                float(h["width"]),
                float(h["height"]),
                h["holding"],
            )
            for h in data["hands"]
        ),
    )


def _write(path: Path, data: bytes) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, path)


def render_job(directory: str, job: Job, setup: SetUp, size: tuple[int, int], spp: int) -> float:
    """Render one frame and store it with its truth (the JSON last: it marks it done)."""
    from vision.pbr import render_frame

    board = load_board()
    scene = _pinned(board, job.scene, job.layout_seed)
    frame = render_frame(board, scene, setup, job.seed, size, spp, layout_seed=job.layout_seed)
    base = Path(directory) / job.path
    base.parent.mkdir(parents=True, exist_ok=True)
    _write(base.with_suffix(".jpg"), frame.jpeg)
    truth = {
        "scene": scene_json(scene),
        "hand_over_board": frame.hand_over_board,
        "seed": job.seed,
        "layout_seed": job.layout_seed,
        "render_seconds": round(frame.seconds, 2),
    }
    _write(base.with_suffix(".json"), json.dumps(truth, indent=1).encode())
    return frame.seconds


def done(directory: Path, job: Job) -> bool:
    base = directory / job.path
    return base.with_suffix(".json").is_file() and base.with_suffix(".jpg").is_file()


def manifest(
    set_name: str, plans: Sequence[SetupPlan], size: tuple[int, int], spp: int
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "set": set_name,
        "size": list(size),
        "samples_per_pixel": spp,
        "colours": {"sides": list(SIDES), "challenge": CHALLENGE},
        "setups": [
            {
                "name": plan.name,
                "seed": plan.seed,
                "conditions": asdict(plan.setup),
                "calibration": plan.calibration.path,
                "frames": [job.path for job in plan.frames],
                "sequences": [[job.path for job in s] for s in plan.sequences],
            }
            for plan in plans
        ],
    }


def build(
    set_name: str,
    limit: int | None = None,
    jobs: int = 1,
    size: tuple[int, int] = SIZE,
    spp: int = SAMPLES,
    frames: int = FRAMES_PER_SETUP,
    out: Path | None = None,
    sequences: int = SEQUENCES_PER_SETUP,
) -> Path:
    directory = out or set_directory(set_name)
    directory.mkdir(parents=True, exist_ok=True)
    board = load_board()
    count = SET_SIZE[set_name] if limit is None else limit
    plans = [plan_setup(board, set_name, index, frames, sequences) for index in range(count)]
    _write(directory / "manifest.json", json.dumps(manifest(set_name, plans, size, spp)).encode())
    started = time.perf_counter()
    rendered = 0
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn")) as pool:
        for plan in plans:
            began = time.perf_counter()
            todo = [job for job in plan.jobs() if not done(directory, job)]
            count = len(todo)
            seconds = list(
                pool.map(render_job, [str(directory)] * count, todo, [plan.setup] * count,
                         [size] * count, [spp] * count)
            )  # fmt: skip
            rendered += len(todo)
            took = time.perf_counter() - began
            each = f", {sum(seconds) / len(seconds):.1f} s a frame" if seconds else ""
            print(
                f"{plan.name}: {len(plan.jobs())} frames, {len(todo)} rendered, "
                f"{len(plan.jobs()) - len(todo)} already there; {took:.0f} s{each}",
                flush=True,
            )
    print(
        f"{set_name}: {len(plans)} set-ups in {directory}, {rendered} frames rendered in "
        f"{time.perf_counter() - started:.0f} s"
    )
    return directory


@dataclass(frozen=True, slots=True)
class Shot:
    path: Path
    scene: Scene
    hand_over_board: bool


@dataclass(frozen=True, slots=True)
class StoredSetup:
    name: str
    calibration: Path
    frames: tuple[Shot, ...]
    sequences: tuple[tuple[Shot, ...], ...]


@dataclass(frozen=True, slots=True)
class StoredSet:
    name: str
    size: tuple[int, int]
    setups: tuple[StoredSetup, ...]


def complete(directory: Path) -> bool:
    """Whether the set's manifest is there and every frame it lists."""
    try:
        load_set(directory)
    except (OSError, ValueError, KeyError):
        return False
    return True


def load_set(directory: Path, whole: bool = True) -> StoredSet:
    """The set in `directory`; with `whole=False`, only its set-ups already rendered in full
    (a set still being built), otherwise a missing frame is an error."""
    data = json.loads((directory / "manifest.json").read_text())
    if data.get("format") != FORMAT:
        raise ValueError(f"{directory} holds no {FORMAT} manifest")

    def shot(path: str) -> Shot:
        base = directory / path
        truth = json.loads(base.with_suffix(".json").read_text())
        if not base.with_suffix(".jpg").is_file():
            raise ValueError(f"{base}.jpg is missing")
        return Shot(base.with_suffix(".jpg"), scene_from_json(truth["scene"]),
                    bool(truth["hand_over_board"]))  # fmt: skip

    setups = []
    for entry in data["setups"]:
        try:
            setups.append(
                StoredSetup(
                    entry["name"],
                    shot(entry["calibration"]).path,
                    tuple(shot(p) for p in entry["frames"]),
                    tuple(tuple(shot(p) for p in s) for s in entry["sequences"]),
                )
            )
        except (OSError, ValueError):
            if whole:
                raise
    return StoredSet(data["set"], (int(data["size"][0]), int(data["size"][1])), tuple(setups))


def write_samples(directory: Path, out: Path) -> None:
    """Training samples for the zone network from a stored set (vision.learning.samples'
    form): each set-up calibrated on its calibration picture, then its frames with no hand
    over the board, every zone's picture with the true crystals on it."""
    from vision.calibrate import calibrate
    from vision.learning.inputs import context_index
    from vision.learning.samples import frame_sample, save, setup_arrays
    from vision.reader import BoardReader

    board = load_board()
    stored = load_set(directory, whole=False)
    out.mkdir(parents=True, exist_ok=True)
    plan = calibration_plan(COLOURS)
    roles = {"side-1": SIDES[0], "side-2": SIDES[1], "challenge": CHALLENGE}
    for setup in stored.setups:
        path = out / f"{stored.name}-{setup.name}.npz"
        if path.exists():
            continue
        result = calibrate(board, [picture(setup.calibration)], plan, roles=roles)
        if result.problems:
            print(f"{setup.name}: refused ({result.problems[0]})", flush=True)
            continue
        reader = BoardReader(result.calibration, board)
        context = context_index(reader.measurer.sampler)
        names = [model.name for model in result.calibration.colours]
        still = [*setup.frames, *(s for seq in setup.sequences for s in seq)]
        cells, labels, share = [], [], None
        for shot in still:
            if shot.hand_over_board:
                continue
            sample = frame_sample(reader, context, picture(shot.path), shot.scene, names)
            if sample is not None:
                cells.append(sample[0])
                labels.append(sample[1])
                share = sample[2]
        if share is None:
            print(f"{setup.name}: no frame measured", flush=True)
            continue
        save(path, setup_arrays(result.calibration, cells, labels, share))
        print(f"{setup.name}: {len(cells)} frames", flush=True)


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="bench/scenes.py", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("build", help="render the missing frames of a set")
    make.add_argument("--set", choices=sorted(SEED_BASE), default="validation")
    make.add_argument("--limit", type=int, help="only the first N camera set-ups")
    make.add_argument("--jobs", type=int, default=1, help="frames rendered at once")
    make.add_argument("--size", default=f"{SIZE[0]}x{SIZE[1]}", help="WIDTHxHEIGHT")
    make.add_argument("--spp", type=int, default=SAMPLES, help="samples per pixel")
    make.add_argument("--frames", type=int, default=FRAMES_PER_SETUP, help="game frames a set-up")
    make.add_argument(
        "--sequences", type=int, default=SEQUENCES_PER_SETUP, help="hand-overs a set-up"
    )
    make.add_argument("--out", type=Path, help="instead of build/scenes/<set>-v3")
    samples = commands.add_parser("samples", help="zone network training samples from a set")
    samples.add_argument("--set", choices=sorted(SEED_BASE), default="training")
    samples.add_argument("--dir", type=Path, help="instead of build/scenes/<set>-v3")
    samples.add_argument("out", type=Path, help="where the samples go, one file a set-up")
    args = parser.parse_args(argv)
    if args.command == "samples":
        if args.set == "validation":
            print("the validation set is never trained on")
            return 2
        write_samples(args.dir or set_directory(args.set), args.out)
        return 0
    width, height = (int(v) for v in args.size.lower().split("x"))
    build(
        args.set, args.limit, args.jobs, (width, height), args.spp, args.frames, args.out,
        args.sequences,
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    from bench.scenes import main as run

    sys.exit(run(sys.argv[1:]))
