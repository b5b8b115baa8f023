"""Train the zone network on samples from the virtual camera (and from any other scene
source written in the same form), and export it for OpenCV's DNN module.

    python -m vision.learning.train SAMPLES_DIR [SAMPLES_DIR ...] --out vision/models/zones.onnx

Needs PyTorch and onnx, which the companion itself never does (`make train-vision` makes a
separate environment for them). The same samples and seed give the same model.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from vision.learning.inputs import CHANNELS, GRID, cell_inputs, near_colour
from vision.learning.model import MAX_COUNT

HELD_OUT = 0.1
"""The share of set-ups kept out of training to say how well it went."""
EASY = 0.08
"""The share of easy zone-colour pairs kept: nothing near the colour and none of it there."""


@dataclass
class SetUp:
    cells: np.ndarray
    """(frames, zones, GRID, GRID, 3) float16."""
    share: np.ndarray
    labels: np.ndarray
    """(frames, zones, colours) crystals of each colour on each zone."""
    axes: np.ndarray


def network() -> nn.Module:
    return nn.Sequential(
        nn.Conv2d(CHANNELS, 12, 5, stride=2, padding=2),
        nn.ReLU(),
        nn.Conv2d(12, 16, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(16 * (GRID // 4) ** 2, 32),
        nn.ReLU(),
        nn.Linear(32, MAX_COUNT + 1),
    )


def load(folders: list[Path]) -> list[SetUp]:
    setups = []
    for folder in folders:
        for path in sorted(folder.glob("setup-*.npz")):
            if path.name.endswith(".part.npz"):
                continue
            data = np.load(path)
            setups.append(SetUp(data["cells"], data["share"], data["labels"], data["colours"]))
    return setups


def batch(
    setups: list[SetUp], picks: list[tuple[int, int]], rng: np.random.Generator, keep_easy: float
) -> tuple[np.ndarray, np.ndarray]:
    inputs = []
    targets = []
    for number, frame in picks:
        setup = setups[number]
        x = cell_inputs(setup.cells[frame].astype(np.float32), setup.share, setup.axes)
        y = np.minimum(setup.labels[frame].reshape(-1), MAX_COUNT).astype(np.int64)
        # An easy pair: none of the colour there, and no cell anywhere near it.
        near = near_colour(x)
        keep = (y > 0) | near | (rng.random(len(y)) < keep_easy)
        inputs.append(x[keep])
        targets.append(y[keep])
    return np.concatenate(inputs), np.concatenate(targets)


def turned(x: torch.Tensor, rng: np.random.Generator) -> torch.Tensor:
    """The same zones turned and mirrored: crystals lie any way round."""
    x = torch.rot90(x, int(rng.integers(4)), dims=(2, 3))
    return torch.flip(x, dims=(3,)) if rng.random() < 0.5 else x


def evaluate(model: nn.Module, setups: list[SetUp], frames: list[tuple[int, int]]) -> str:
    """Zone-colour pairs and whole zones counted wrong on held-out set-ups."""
    pairs = wrong_pairs = zones = wrong_zones = 0
    model.eval()
    with torch.no_grad():
        for number, frame in frames:
            setup = setups[number]
            x = cell_inputs(setup.cells[frame].astype(np.float32), setup.share, setup.axes)
            y = np.minimum(setup.labels[frame], MAX_COUNT)
            # As at run time: a pair with nothing near its colour holds none of it.
            got = np.zeros(len(x), np.int64)
            looked = near_colour(x)
            got[looked] = model(torch.from_numpy(x[looked])).argmax(dim=1).numpy()
            got = got.reshape(y.shape)
            pairs += y.size
            wrong_pairs += int((got != y).sum())
            zones += len(y)
            wrong_zones += int((got != y).any(axis=1).sum())
    model.train()
    return (
        f"pairs wrong {wrong_pairs}/{pairs} ({100 * wrong_pairs / max(pairs, 1):.3f} %), "
        f"zones wrong {wrong_zones}/{zones} ({100 * wrong_zones / max(zones, 1):.3f} %)"
    )


def train(setups: list[SetUp], epochs: int, seed: int, frames_per_step: int) -> nn.Module:
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    order = rng.permutation(len(setups))
    held = set(order[: max(1, int(len(setups) * HELD_OUT))].tolist())
    training = [
        (n, f) for n in range(len(setups)) if n not in held for f in range(len(setups[n].cells))
    ]
    checking = [(n, f) for n in sorted(held) for f in range(len(setups[n].cells))]
    model = network()
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * (len(training) // frames_per_step)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    loss_of = nn.CrossEntropyLoss()
    step = 0
    for epoch in range(epochs):
        start = time.monotonic()
        shuffled = [training[i] for i in rng.permutation(len(training))]
        total = 0.0
        for first in range(0, len(shuffled) - frames_per_step + 1, frames_per_step):
            x, y = batch(setups, shuffled[first : first + frames_per_step], rng, EASY)
            inputs = turned(torch.from_numpy(x), rng)
            loss = loss_of(model(inputs), torch.from_numpy(y))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            if step < steps:
                schedule.step()
            step += 1
            total += float(loss.detach())
        took = time.monotonic() - start
        print(
            f"epoch {epoch + 1}: loss {total / max(1, len(shuffled) // frames_per_step):.4f}, "
            f"{took:.0f} s; held-out {evaluate(model, setups, checking)}",
            flush=True,
        )
    return model


def export(model: nn.Module, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    model.eval()
    example = torch.zeros(1, CHANNELS, GRID, GRID)
    kwargs: dict[str, Any] = {"dynamo": False}
    torch.onnx.export(
        model,
        (example,),
        str(path),
        input_names=["zones"],
        output_names=["counts"],
        dynamic_axes={"zones": {0: "n"}, "counts": {0: "n"}},
        opset_version=13,
        **kwargs,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.learning.train")
    parser.add_argument("samples", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--frames-per-step", type=int, default=6)
    args = parser.parse_args(argv)
    setups = load(args.samples)
    if len(setups) < 2:
        print("too few set-ups to train on", file=sys.stderr)
        return 2
    print(f"{len(setups)} set-ups, {sum(len(s.cells) for s in setups)} frames", flush=True)
    model = train(setups, args.epochs, args.seed, args.frames_per_step)
    export(model, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
