"""Training samples for the zone network from the virtual camera.

Set-ups are drawn one after another (camera, light, sensor, and three crystal colours from
the palette, so the network learns colour in general rather than three colours); each is
calibrated as a user would, then game-like positions are filmed and measured, and every
zone's shrunk picture is kept with the true number of crystals of each colour on it.

    python -m vision.learning.samples OUT_DIR --setups 200 --frames 10 [--first N] [--rims 0.5]

`--rims` is the share of frames whose crystals are laid one by one from the zone's rim
(vision/synth/positions.py `pushed_to_rims`) rather than centred: crowded places.

One file per set-up (`setup-NNNNN.npz`); set-ups already written are skipped, so a run may
be stopped and started again. Seeds start far from the benchmark's, which are never
trained on.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from vision.calibration import Calibration
from vision.geometry import Board, load_board
from vision.learning.inputs import context_index, shrink, zone_squares
from vision.reader import BoardReader
from vision.synth.conditions import random_conditions
from vision.synth.positions import calibrated, pushed_to_rims, random_position, random_topology
from vision.synth.render import render
from vision.synth.scene import Scene

SEED_BASE = 7_000_000
"""Training set-ups' seeds; the benchmarks use seeds below 1,000,000."""
COLOURS = ("red", "blue", "yellow", "green", "purple", "orange", "pink", "cyan")
"""Crystal colours a set-up may draw three of (the palette's clearly coloured ones)."""
DEFAULT = ("red", "blue", "yellow")
"""The default set, drawn for half of the set-ups: it is what most boards are played with."""


DOUBLES = 0.04
"""The share of held places given a second crystal of a colour already there: games never
do it, but a miscount of two as one must still be learnt as a mistake."""


def with_doubles(scene: Scene, rng: np.random.Generator) -> Scene:
    crystals = dict(scene.crystals)
    for key, held in scene.crystals.items():
        if held and len(held) < 3 and rng.random() < DOUBLES:
            crystals[key] = (*held, held[int(rng.integers(len(held)))])
    return replace(scene, crystals=crystals)


def setup_samples(
    board: Board, number: int, frames: int, rims: float = 0.0
) -> dict[str, np.ndarray] | str:
    """One set-up's samples, or why its calibration was refused; a share `rims` of its
    frames have their crystals pushed to the zones' rims."""
    rng = np.random.default_rng(SEED_BASE + number)
    conditions = random_conditions(rng)
    colours: tuple[str, ...] = DEFAULT
    if rng.random() >= 0.5:
        colours = tuple(str(c) for c in rng.choice(COLOURS, 3, replace=False))
    sides, challenge = colours[:2], colours[2]
    calibration = calibrated(board, conditions, SEED_BASE + 100_000 + number, sides, challenge)
    if isinstance(calibration, str):
        return calibration
    reader = BoardReader(calibration, board)
    names = [model.name for model in calibration.colours]
    topology = random_topology(board, rng)
    cells: list[np.ndarray] = []
    labels: list[np.ndarray] = []
    share: np.ndarray | None = None
    context = context_index(reader.measurer.sampler)
    for index in range(frames):
        scene = with_doubles(random_position(board, rng, topology, sides, challenge), rng)
        if rims and rng.random() < rims:
            scene = pushed_to_rims(board, scene, rng)
        shot = render(board, scene, conditions, SEED_BASE + 200_000 + number * 100 + index)
        sample = frame_sample(reader, context, shot.image, scene, names)
        if sample is not None:
            cells.append(sample[0])
            labels.append(sample[1])
            share = sample[2]
    if not cells or share is None:
        return "no frame measured"
    return setup_arrays(calibration, cells, labels, share)


def frame_sample(
    reader: BoardReader,
    context: np.ndarray,
    image: np.ndarray,
    scene: Scene,
    names: list[str],
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """One frame's zone pictures (float16), the true count of each colour on each zone, and
    the cells' share of the zone's own points; None when the board was not measured whole."""
    measured = reader.measurer.measure(image)
    if measured is None or measured.white is None or not measured.patches.inside.all():
        return None
    squares, own = zone_squares(measured, context)
    mean, share = shrink(squares, own)
    counts = np.zeros((len(squares), len(names)), np.uint8)
    for row, zone in enumerate(measured.sampler.zones):
        held = scene.crystals.get(zone.key, ())
        counts[row] = [held.count(name) for name in names]
    return mean.astype(np.float16), counts, share


def setup_arrays(
    calibration: Calibration,
    cells: list[np.ndarray],
    labels: list[np.ndarray],
    share: np.ndarray,
) -> dict[str, np.ndarray]:
    """A set-up's samples as stored in its file."""
    models = np.array([[m.hue, m.saturation, m.brightness] for m in calibration.colours])
    return {
        "cells": np.stack(cells),
        "share": share,
        "labels": np.stack(labels),
        "colours": models.astype(np.float32),
    }


def save(path: Path, samples: dict[str, np.ndarray]) -> None:
    """Written whole or not at all: a run stopped half way leaves no short file."""
    partial = path.with_suffix(".part.npz")
    np.savez_compressed(partial, allow_pickle=False, **samples)
    partial.rename(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.learning.samples")
    parser.add_argument("out", type=Path)
    parser.add_argument("--setups", type=int, default=200)
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--rims", type=float, default=0.0, help="share of frames crowded")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    board = load_board()
    for number in range(args.first, args.first + args.setups):
        path = args.out / f"setup-{number:05d}.npz"
        if path.exists():
            continue
        start = time.monotonic()
        samples = setup_samples(board, number, args.frames, args.rims)
        if isinstance(samples, str):
            print(f"set-up {number}: refused ({samples})", flush=True)
            continue
        save(path, samples)
        took = time.monotonic() - start
        print(f"set-up {number}: {len(samples['cells'])} frames, {took:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
