"""Train the zone network on samples from the virtual camera (and from any other scene
source written in the same form), and export it for OpenCV's DNN module.

    python -m vision.learning.train SAMPLES_DIR[:WEIGHT[:FRAMES]] ... --out zones.onnx

Each folder's set-ups count WEIGHT times in an epoch (default 1), with at most FRAMES of
their frames (default --frames): a few set-ups from a costly source (the physically based
renderer) weigh as much as many cheap ones. Every
zone-colour pair worth showing is worked out once, up front; a tenth of each folder's
set-ups is held out, and the figures on them are printed folder by folder after each
epoch.

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
from vision.learning.variation import varied

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
    source: int = 0
    """Which of the sample folders it came from."""


@dataclass
class Pairs:
    """Every zone-colour pair worth showing the network, computed once."""

    inputs: np.ndarray
    """(pairs, CHANNELS, GRID, GRID) float16."""
    targets: np.ndarray
    setup: np.ndarray
    """Per pair: its set-up's number."""
    zone: np.ndarray
    """Per pair: a number for its zone in its frame, unique across all set-ups."""


SIZES = ("standard", "small")
"""The networks this script builds. small: about a quarter of standard's sums per zone (its
first layer already halves the picture), for cameras read on a slow core."""


def network(size: str = "standard") -> nn.Module:
    if size == "small":
        return nn.Sequential(
            nn.Conv2d(CHANNELS, 12, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Conv2d(12, 24, 3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Flatten(),
            nn.Linear(24 * (GRID // 4) ** 2, 32),
            nn.ReLU(),
            nn.Linear(32, MAX_COUNT + 1),
        )
    return nn.Sequential(
        nn.Conv2d(CHANNELS, 16, 3, padding=1),
        nn.ReLU(),
        nn.Conv2d(16, 24, 3, stride=2, padding=1),
        nn.ReLU(),
        nn.Conv2d(24, 32, 3, padding=1),
        nn.ReLU(),
        nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(32 * (GRID // 4) ** 2, 64),
        nn.ReLU(),
        nn.Linear(64, MAX_COUNT + 1),
    )


@dataclass(frozen=True)
class Folder:
    path: Path
    weight: int = 1
    """How many times each of its set-ups counts in an epoch."""
    frames: int | None = None
    """The most frames of each set-up used (None: --frames)."""

    @classmethod
    def parse(cls, text: str) -> Folder:
        """`DIR`, `DIR:WEIGHT` or `DIR:WEIGHT:FRAMES`."""
        name, *rest = text.split(":")
        weight = max(1, int(rest[0])) if rest else 1
        frames = int(rest[1]) if len(rest) > 1 else None
        return cls(Path(name), weight, frames)


def load(folders: list[Folder], frames: int) -> list[SetUp]:
    setups = []
    for source, folder in enumerate(folders):
        most = folder.frames or frames
        for path in sorted(folder.path.glob("*.npz")):
            if path.name.endswith(".part.npz"):
                continue
            data = np.load(path)
            cells, labels = data["cells"][:most], data["labels"][:most]
            setups.append(SetUp(cells, data["share"], labels, data["colours"], source))
    return setups


def pairs_of(
    setups: list[SetUp],
    rng: np.random.Generator,
    keep_easy: float,
    variants: int = 0,
    held: np.ndarray | None = None,
) -> Pairs:
    """The pairs of every frame: those with a cell near the colour, and a few easy ones
    (none of the colour there, nothing near it) so the network learns those too. Each
    frame of a set-up not held out is shown `variants` more times as another camera and
    calibration might have given it (`varied`)."""
    copies_of = [1 if held is not None and held[n] else 1 + variants for n in range(len(setups))]
    # The inputs take most of the memory training needs. They are written straight into
    # room reserved for every pair there could be, of which only the pages written are
    # ever taken from the system: parts joined at the end would be held twice at once.
    most = sum(
        len(s.cells) * s.labels.shape[1] * s.labels.shape[2] * c
        for s, c in zip(setups, copies_of, strict=True)
    )
    inputs = np.empty((most, CHANNELS, GRID, GRID), np.float16)
    count = 0
    targets, setup_of, zone_of = [], [], []
    zone_base = 0
    for number, setup in enumerate(setups):
        colours = setup.labels.shape[2]
        for frame in range(len(setup.cells)):
            # The labels are the same for every copy of a frame: nothing varied moves a crystal.
            y = np.minimum(setup.labels[frame].reshape(-1), MAX_COUNT).astype(np.int64)
            for copy in range(copies_of[number]):
                cells = setup.cells[frame].astype(np.float32)
                axes = setup.axes
                if copy:
                    cells, axes = varied(cells, axes, rng)
                x = cell_inputs(cells, setup.share, axes)
                zones = np.repeat(np.arange(setup.labels.shape[1]), colours) + zone_base
                zone_base += setup.labels.shape[1]
                keep = (y > 0) | near_colour(x) | (rng.random(len(y)) < keep_easy)
                kept = int(keep.sum())
                inputs[count : count + kept] = x[keep]
                count += kept
                targets.append(y[keep])
                setup_of.append(np.full(kept, number, np.int32))
                zone_of.append(zones[keep])
    return Pairs(
        inputs[:count], np.concatenate(targets), np.concatenate(setup_of),
        np.concatenate(zone_of),
    )  # fmt: skip


def turned(x: torch.Tensor, rng: np.random.Generator) -> torch.Tensor:
    """The same zones turned and mirrored: crystals lie any way round."""
    x = torch.rot90(x, int(rng.integers(4)), dims=(2, 3))
    return torch.flip(x, dims=(3,)) if rng.random() < 0.5 else x


def evaluate(model: nn.Module, pairs: Pairs, chosen: np.ndarray) -> str:
    """Zone-colour pairs and whole zones counted wrong among the chosen pairs (held-out
    set-ups). A pair not shown holds none of its colour, as at run time: those kept only
    as easy examples are right by construction and left out of the figures."""
    model.eval()
    got = np.empty(len(chosen), np.int64)
    with torch.no_grad():
        for first in range(0, len(chosen), 4096):
            part = chosen[first : first + 4096]
            x = torch.from_numpy(pairs.inputs[part].astype(np.float32))
            got[first : first + len(part)] = model(x).argmax(dim=1).numpy()
    model.train()
    wrong = got != pairs.targets[chosen]
    zones = np.unique(pairs.zone[chosen])
    wrong_zones = np.unique(pairs.zone[chosen][wrong])
    return (
        f"pairs wrong {int(wrong.sum())}/{len(chosen)}, "
        f"zones wrong {len(wrong_zones)} of {len(zones)} looked at "
        f"({100 * len(wrong_zones) / max(len(zones), 1):.3f} %)"
    )


def train(
    setups: list[SetUp],
    weights: list[int],
    epochs: int,
    seed: int,
    batch_size: int,
    size: str = "standard",
    variants: int = 0,
) -> nn.Module:
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    # Set-ups held out from each source alike, so each is judged on ones it never saw.
    held = np.zeros(len(setups), bool)
    for source in sorted({s.source for s in setups}):
        members = [n for n, s in enumerate(setups) if s.source == source]
        picked = rng.permutation(members)[: max(1, int(len(members) * HELD_OUT))]
        held[picked] = True
    pairs = pairs_of(setups, rng, EASY, variants, held)
    source = np.array([s.source for s in setups])[pairs.setup]
    training = np.flatnonzero(~held[pairs.setup])
    repeats = np.array(weights)[source[training]]
    training = np.repeat(training, repeats)
    checks = {int(k): np.flatnonzero(held[pairs.setup] & (source == k)) for k in np.unique(source)}
    print(
        f"{len(pairs.targets)} pairs; {len(training)} shown an epoch; held out: "
        + ", ".join(f"source {k}: {len(v)}" for k, v in checks.items()),
        flush=True,
    )
    model = network(size)
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = epochs * (len(training) // batch_size)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps)
    loss_of = nn.CrossEntropyLoss()
    step = 0
    for epoch in range(epochs):
        start = time.monotonic()
        shuffled = training[rng.permutation(len(training))]
        total = 0.0
        batches = 0
        for first in range(0, len(shuffled) - batch_size + 1, batch_size):
            part = shuffled[first : first + batch_size]
            inputs = turned(torch.from_numpy(pairs.inputs[part].astype(np.float32)), rng)
            loss = loss_of(model(inputs), torch.from_numpy(pairs.targets[part]))
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            if step < steps:
                schedule.step()
            step += 1
            batches += 1
            total += float(loss.detach())
        took = time.monotonic() - start
        figures = "; ".join(f"source {k}: {evaluate(model, pairs, v)}" for k, v in checks.items())
        loss = total / max(1, batches)
        print(f"epoch {epoch + 1}: loss {loss:.4f}, {took:.0f} s; held out {figures}", flush=True)
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
    parser.add_argument(
        "samples", nargs="+", help="sample folders, each DIR, DIR:WEIGHT or DIR:WEIGHT:FRAMES"
    )
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--frames", type=int, default=10, help="the most frames a set-up")
    parser.add_argument("--size", choices=SIZES, default="standard", help="the network's size")
    parser.add_argument(
        "--variants", type=int, default=0, help="varied copies of every training frame"
    )
    args = parser.parse_args(argv)
    folders = [Folder.parse(text) for text in args.samples]
    setups = load(folders, args.frames)
    if len(setups) < 2:
        print("too few set-ups to train on", file=sys.stderr)
        return 2
    print(f"{len(setups)} set-ups, {sum(len(s.cells) for s in setups)} frames", flush=True)
    weights = [folder.weight for folder in folders]
    model = train(setups, weights, args.epochs, args.seed, args.batch, args.size, args.variants)
    export(model, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
