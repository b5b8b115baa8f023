"""The board reader on rendered frames: accuracy, hands, and speed against JPEG decoding.

Random camera set-ups (pose, light, sensor, lens) are drawn one after another; for each the
board is calibrated once, as a user would, then FRAMES_PER_SET random game positions are
rendered and read by one reader, as from a camera bolted over the table: crystals on places
and claim diamonds (one, two or three, sides' and challenge colours), topology counters.
Set-ups are drawn until FRAMES frames have been read (a set-up refused at calibration reads
none, and is listed). Then, on set-ups of their own, hand-over sequences (a hand comes in,
puts a crystal down or picks one up, leaves) go through the reader and the temporal filter
until SEQUENCES have been filmed, and every commit is checked against the truth.

Prints: per-zone error rate, the share of frames read entirely right, false commits during
occlusion, the median time to read one 1280x720 frame on one thread next to the median
time to JPEG-decode the same frame, and their ratio. Floors: per-zone error <= 0.1 %, fully
right >= 97 %, false commits 0, read <= 3x decode. Exits 1 when a floor is missed.

    python bench/vision.py [--quick]    # --quick: a tenth of the work, floors not enforced
    python bench/vision.py --set pbr    # the stored physically based validation set instead
    python bench/vision.py --counting rules     # the rules alone, without the zone network
    python bench/vision.py --scenes build/scenes/training-v3   # another stored set
    python bench/vision.py --model zones.onnx  # another zone network (vision/learning/train.py)
    python bench/vision.py --sides red,blue,green,purple,orange   # every side colour at once

`--sides` calibrates and plays with those sides' crystals (and the yellow challenge pieces)
on the virtual camera: the board of a 3- or 4-side game, or every colour a side may take.
The figures then also say, colour by colour, how many of the zones holding it were misread.

With `--set pbr` the same measurements run on the physically based scenes of
build/scenes/validation-v3 (bench/scenes.py, docs/scenes.md), built first when missing: each
set-up is calibrated on its calibration picture, its game frames are read and its hand-over
sequences go through the temporal filter. That set is the judge: the reader is never tuned
on it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2
import numpy as np
from numpy.typing import NDArray

from bench.options import options
from vision.calibrate import calibrate
from vision.calibration import Calibration, calibration_plan
from vision.geometry import Board, load_board
from vision.learning.model import ZoneModel
from vision.reader import BoardReader
from vision.reading import BoardReading, ZoneReading
from vision.synth import Scene, SyntheticCamera, random_conditions, render
from vision.synth.positions import calibrated, random_position, random_topology
from vision.temporal import FilterState, step

T = TypeVar("T")
SIDES = ("red", "blue")
CHALLENGE = "yellow"
COLOURS = (*SIDES, CHALLENGE)
PLAYED: dict[str, tuple[str, ...]] = {"sides": SIDES}
"""The sides' colours the virtual camera's set-ups are calibrated and played with (`--sides`)."""
FRAMES = 500
FRAMES_PER_SET = 10
SEQUENCES = 200
SEQUENCES_PER_SET = 10
SETTLE_FRAMES = 8
"""Still frames after a hand has left: the filter commits a clear-cut change on the second,
and an unsure one (or one beside a zone still settling) within 250 ms, about 4 frames at 15/s:
the longest it waits, so 8 are room enough."""
ERROR_FLOOR = 0.001
FULLY_RIGHT_FLOOR = 0.97
READ_RATIO_FLOOR = 3.0
NEVER_COMMITTED_FLOOR = 0.02
"""The most of the hand-overs that changed the board whose change may never be committed."""


@dataclass
class Tally:
    setups: int = 0
    zones: int = 0
    zone_errors: int = 0
    frames: int = 0
    frames_right: int = 0
    counters: int = 0
    counters_exact: int = 0
    false_hands: int = 0
    """Still frames (no hand in them) read as having a hand over the board."""
    counter_errors: int = 0
    false_hand_signs: dict[str, int] = field(default_factory=dict)
    """What made the reader see those hands: frames per sign."""
    zones_on_counters: int = 0
    """Zones with a topology counter on them (a crystal there stands on black)."""
    errors_on_counters: int = 0
    refused: list[str] = field(default_factory=list)
    read_s: list[float] = field(default_factory=list)
    decode_s: list[float] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)
    colour_zones: dict[str, int] = field(default_factory=dict)
    """Colour -> zones that held a crystal of it."""
    colour_errors: dict[str, int] = field(default_factory=dict)
    """Colour -> those of them misread, and zones read as holding it that did not."""
    error_kinds: dict[tuple[str, str], int] = field(default_factory=dict)
    """(what went wrong, where) -> zones misread so (see `error_kind`)."""
    setup_errors: dict[str, int] = field(default_factory=dict)
    """Set-up -> zones it misread: where the errors lie, without a frame being looked at."""


def timed(function: Callable[..., T], *args: Any) -> tuple[T, float]:
    start = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - start


def read_frames(board: Board, at_least: int, frames: int, tally: Tally) -> None:
    number = -1
    while tally.frames < at_least:
        number += 1
        rng = np.random.default_rng(10_000 + number)
        conditions = random_conditions(rng)
        tally.setups += 1
        sides = PLAYED["sides"]
        calibration = calibrated(board, conditions, 20_000 + number, sides)
        if isinstance(calibration, str):
            tally.refused.append(f"set {number}: {calibration}")
            continue
        reader = reader_for(calibration, board)
        topology = random_topology(board, rng)
        for index in range(frames):
            scene = random_position(board, rng, topology, sides)
            shot = render(board, scene, conditions, 30_000 + number * 100 + index)
            reader.forget_contents()
            reading, seconds = timed(reader.read, shot.image)
            _image, decode = timed(cv2.imdecode, np.frombuffer(shot.jpeg, np.uint8), 1)
            tally.read_s.append(seconds)
            tally.decode_s.append(decode)
            check_frame(board, scene, reading, tally, f"set {number} frame {index}")


def check_frame(
    board: Board, scene: Scene, reading: BoardReading, tally: Tally, label: str
) -> None:
    """Tally one still frame's reading (no hand in it) against its truth."""
    tally.false_hands += reading.hands
    if reading.hands:
        for reason in {reason.sign.value for reason in reading.hand_reasons}:
            tally.false_hand_signs[reason] = tally.false_hand_signs.get(reason, 0) + 1
    wrong = []
    for zone in board.zones():
        want = tuple(sorted(scene.crystals.get(zone.key, ())))
        got = reading.zones[zone.key].crystals if zone.key in reading.zones else None
        want_counters = scene.counters.get(zone.key, ())
        if want_counters:
            tally.zones_on_counters += 1
            tally.errors_on_counters += got != want
        for colour in set(want):
            tally.colour_zones[colour] = tally.colour_zones.get(colour, 0) + 1
        if got != want:
            wrong.append(f"{zone.key}: {want} read {got}")
            occluded = zone.key not in reading.zones or reading.zones[zone.key].occluded
            kind = error_kind(want, () if got is None else got, occluded, bool(want_counters))
            tally.error_kinds[kind] = tally.error_kinds.get(kind, 0) + 1
            for colour in set(want) | set(got or ()):
                tally.colour_errors[colour] = tally.colour_errors.get(colour, 0) + 1
        seen = reading.zones[zone.key].counters if zone.key in reading.zones else ()
        if want_counters:
            tally.counters += 1
            tally.counters_exact += tuple(seen) == tuple(want_counters)
        # A value read is never allowed to be wrong; unreadable (0) is honest.
        tally.counter_errors += any(value != 0 and value not in want_counters for value in seen)
    tally.zones += len(board.zones())
    tally.zone_errors += len(wrong)
    if wrong:
        setup = label.rsplit(" frame", 1)[0]
        tally.setup_errors[setup] = tally.setup_errors.get(setup, 0) + len(wrong)
    tally.frames += 1
    tally.frames_right += not wrong
    if wrong and len(tally.examples) < 12:
        tally.examples.append(f"{label}: " + "; ".join(wrong[:3]))


def error_kind(
    want: tuple[str, ...], got: tuple[str, ...], occluded: bool, on_counter: bool
) -> tuple[str, str]:
    """What went wrong on a misread zone, and where: (called occluded, crystal missed,
    crystal too many, colour mistaken), (on a counter, on paper)."""
    where = "on a counter" if on_counter else "on paper"
    if occluded:
        return "called occluded", where
    if len(got) < len(want):
        return "crystal missed", where
    if len(got) > len(want):
        return "crystal too many", where
    return "colour mistaken", where


@dataclass
class Occlusion:
    sequences: int = 0
    commits: int = 0
    false_commits: int = 0
    settled_right: int = 0
    moves: int = 0
    """Hand-overs that changed the board."""
    never_committed: int = 0
    """Of them, those after which a zone the hand changed still held what it held before."""
    examples: list[str] = field(default_factory=list)
    last: BoardReading | None = None
    """The last frame's reading, to say why a move was never committed."""
    before_last: BoardReading | None = None
    """The reading of the frame before it: a zone read one way, then another, is never
    stable enough to commit."""

    def count_move(
        self,
        before: Mapping[str, tuple[str, ...]],
        after: Mapping[str, tuple[str, ...]],
        state: FilterState,
        label: str,
    ) -> None:
        """One hand-over, from the board `before` to the board `after`, once the filter has
        seen it through to `state`."""
        changed = [
            key
            for key in set(before) | set(after)
            if sorted(before.get(key, ())) != sorted(after.get(key, ()))
        ]
        if changed:
            self.moves += 1
            never = [k for k in changed if state.contents(k) == tuple(sorted(before.get(k, ())))]
            self.never_committed += bool(never)
            for key in never[:1]:
                zone = None if self.last is None else self.last.zones.get(key)
                seen = "nothing" if zone is None else _zone_text(zone)
                if self.last is not None and self.last.hands:
                    signs = ", ".join(reason.text() for reason in self.last.hand_reasons)
                    seen += f", with a hand seen ({signs})"
                earlier = None if self.before_last is None else self.before_last.zones.get(key)
                if earlier is not None and zone is not None and earlier != zone:
                    seen += f"; the frame before, {_zone_text(earlier)}"
                    if self.before_last is not None and self.before_last.hands:
                        seen += " with a hand seen"
                if len(self.examples) < 12:
                    self.examples.append(
                        f"{label}: {key} {tuple(sorted(after.get(key, ())))} never committed;"
                        f" the last frame read {seen}"
                    )


def _zone_text(zone: ZoneReading) -> str:
    if zone.occluded:
        return "it occluded"
    return f"{zone.crystals} at {zone.confidence:.2f}"


def hand_sequences(board: Board, at_least: int, per_set: int, result: Occlusion) -> None:
    number = -1
    while result.sequences < at_least:
        number += 1
        rng = np.random.default_rng(40_000 + number)
        conditions = random_conditions(rng)
        sides = PLAYED["sides"]
        calibration = calibrated(board, conditions, 50_000 + number, sides)
        if isinstance(calibration, str):
            continue
        reader = reader_for(calibration, board)
        camera = SyntheticCamera(board, conditions, seed=60_000 + number)
        start = random_position(board, rng, random_topology(board, rng), sides)
        camera.set_scene(Scene(crystals=start.crystals))
        state = FilterState.start(start.crystals)
        for _ in range(per_set):
            zone = str(rng.choice([z.key for z in board.zones()]))
            here = camera.scene.crystals.get(zone, ())
            if here and rng.random() < 0.4:
                frames = camera.sequence_hand_over(zone, take=str(rng.choice(here)))
            else:
                missing = [c for c in (*sides, CHALLENGE) if c not in here]
                if not missing:
                    continue
                frames = camera.sequence_hand_over(zone, put=str(rng.choice(missing)))
            result.sequences += 1
            before = dict(camera.scene.crystals)
            filmed = list(frames) + [camera.grab() for _ in range(SETTLE_FRAMES)]
            shots = [(f.image, f.t_ns, f.scene, f.hand_over_board, f.index) for f in filmed]
            state = follow(reader, state, shots, result, f"set {number}")
            result.count_move(before, camera.scene.crystals, state, f"set {number}")
            truth_now = {k: tuple(sorted(v)) for k, v in camera.scene.crystals.items() if v}
            result.settled_right += dict(state.committed) == truth_now


Shot = tuple[NDArray[np.uint8], int, Scene, bool, int]
"""A filmed frame: picture, time (ns), truth, whether a hand is over the board, index."""


def follow(
    reader: BoardReader, state: FilterState, shots: Iterable[Shot], result: Occlusion, label: str
) -> FilterState:
    """Read frames through the temporal filter, checking every commit against the truth."""
    for image, t_ns, scene, hand_over_board, index in shots:
        reading = reader.read(image, t_ns)
        result.before_last, result.last = result.last, reading
        state, observation = step(state, reading)
        if observation is None:
            continue
        for change in observation.changes:
            result.commits += 1
            truth = tuple(sorted(scene.crystals.get(change.key, ())))
            if change.after != truth:
                result.false_commits += 1
                if len(result.examples) < 8:
                    result.examples.append(
                        f"{label}, frame {index}: committed {change.key}"
                        f" {change.after}, truth {truth} (hand over board: {hand_over_board})"
                    )
    return state


def read_stored_set(
    board: Board, tally: Tally, occlusion: Occlusion, directory: Path | None = None
) -> None:
    """The measurements on the stored physically based validation set (built when missing)."""
    from bench.scenes import build, complete, load_set, set_directory

    if directory is None:
        directory = set_directory("validation")
        if not complete(directory):
            print(f"building the validation set in {directory} (resumable; see docs/scenes.md)")
            build("validation")
    # Another set (the training set, say) is read as far as it has been rendered.
    stored = load_set(directory, whole=directory == set_directory("validation"))
    plan = calibration_plan(COLOURS)
    roles = {"side-1": SIDES[0], "side-2": SIDES[1], "challenge": CHALLENGE}
    for setup in stored.setups:
        tally.setups += 1
        result = calibrate(board, [picture(setup.calibration)], plan, roles=roles)
        if result.problems:
            tally.refused.append(f"{setup.name}: " + "; ".join(result.problems[:2]))
            continue
        reader = reader_for(result.calibration, board)
        for index, shot in enumerate(setup.frames):
            jpeg = np.fromfile(shot.path, np.uint8)
            image, decode = timed(cv2.imdecode, jpeg, 1)
            reader.forget_contents()
            reading, seconds = timed(reader.read, image)
            tally.read_s.append(seconds)
            tally.decode_s.append(decode)
            check_frame(board, shot.scene, reading, tally, f"{setup.name} frame {index}")
        for number, sequence in enumerate(setup.sequences):
            reader = reader_for(result.calibration, board)
            start = sequence[0].scene.crystals
            state = FilterState.start(start)
            filmed = [(s.path, s.scene, s.hand_over_board) for s in sequence]
            # The board stays still after the hand has gone: its last two frames, again and
            # again, until the filter has had time to commit.
            filmed += [filmed[-2 + k % 2] for k in range(SETTLE_FRAMES)]
            shots = [
                (picture(path), round(i * 1e9 / 15), scene, hand, i)
                for i, (path, scene, hand) in enumerate(filmed)
            ]
            state = follow(reader, state, shots, occlusion, f"{setup.name} sequence {number}")
            occlusion.sequences += 1
            last = sequence[-1].scene.crystals
            occlusion.count_move(start, last, state, f"{setup.name} sequence {number}")
            truth_now = {k: tuple(sorted(v)) for k, v in last.items() if v}
            occlusion.settled_right += dict(state.committed) == truth_now


COUNTING: dict[str, ZoneModel | None] = {"model": None}
"""The zone network the readers count with where the rules are unsure (the shipped one
unless `--counting rules`, then None: the rules alone)."""


def reader_for(calibration: Calibration, board: Board) -> BoardReader:
    return BoardReader(calibration, board, zone_model=COUNTING["model"])


def picture(path: Path) -> NDArray[np.uint8]:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"cannot read {path}")
    return np.asarray(image, np.uint8)


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = options(__doc__)
    parser.add_argument(
        "--quick", action="store_true", help="a tenth of the work, floors not enforced"
    )
    parser.add_argument(
        "--set",
        choices=("own", "pbr"),
        default="own",
        help="own: the virtual camera (default); pbr: the stored physically based set",
    )
    parser.add_argument(
        "--scenes", type=Path, help="another stored set of scenes (bench/scenes.py)"
    )
    parser.add_argument(
        "--counting",
        choices=("default", "rules"),
        default="default",
        help="rules: the rules alone, without the zone network",
    )
    parser.add_argument(
        "--model", type=Path, help="another zone network (ONNX) instead of the shipped one"
    )
    parser.add_argument(
        "--sides",
        default=",".join(SIDES),
        metavar="NAME,NAME",
        help="the sides' crystal colours on the virtual camera (default: red,blue); the "
        "challenge pieces are yellow",
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    quick = args.quick
    scenes = args.scenes
    source = "pbr" if scenes is not None else args.set
    counting = args.counting
    PLAYED["sides"] = tuple(name.strip() for name in args.sides.split(",") if name.strip())
    if source == "pbr" and PLAYED["sides"] != SIDES:
        print("--sides is for the virtual camera: the stored scenes hold red, blue and yellow")
        return 2
    # The reader's own default: the zone network where the rules are unsure.
    if counting == "rules":
        COUNTING["model"] = None
    else:
        COUNTING["model"] = ZoneModel.load(args.model) if args.model else ZoneModel.shipped()
    cv2.setNumThreads(1)
    board = load_board()
    tally = Tally()
    occlusion = Occlusion()
    started = time.perf_counter()
    if source == "pbr":
        read_stored_set(board, tally, occlusion, scenes)
    else:
        scale = 10 if quick else 1
        read_frames(board, FRAMES // scale, FRAMES_PER_SET, tally)
        hand_sequences(board, SEQUENCES // scale, SEQUENCES_PER_SET, occlusion)
    missed = report(tally, occlusion, time.perf_counter() - started, source)
    return 1 if missed and not quick else 0


def report(tally: Tally, occlusion: Occlusion, elapsed: float, source: str = "own") -> bool:
    """Print the figures; whether a floor was missed."""
    error = tally.zone_errors / max(1, tally.zones)
    right = tally.frames_right / max(1, tally.frames)
    read_ms = statistics.median(tally.read_s) * 1000 if tally.read_s else float("nan")
    decode_ms = statistics.median(tally.decode_s) * 1000 if tally.decode_s else float("nan")
    ratio = read_ms / decode_ms
    scenes = "physically based scenes (build/scenes)" if source == "pbr" else "camera set-ups"
    print(
        f"vision: {tally.frames} frames read from {tally.setups} {scenes}, "
        f"{len(tally.refused)} of which were refused at calibration"
    )
    for refusal in tally.refused:
        print(f"  refused {refusal}")
    print(
        f"  per-zone error: {error:.4%} ({tally.zone_errors} of {tally.zones} zones)"
        f"  floor <= {ERROR_FLOOR:.1%}; on a counter: {tally.errors_on_counters} of "
        f"{tally.zones_on_counters}"
    )
    print(
        f"  frames read fully right: {right:.2%} ({tally.frames_right} of {tally.frames})"
        f"  floor >= {FULLY_RIGHT_FLOOR:.0%}"
    )
    signs = ", ".join(f"{sign} {n}" for sign, n in sorted(tally.false_hand_signs.items()))
    print(
        f"  hands seen where there were none: {tally.false_hands} of {tally.frames} frames"
        + (f" ({signs})" if signs else "")
    )
    print(
        f"  topology counters: {tally.counters_exact} of {tally.counters} read exactly (value,"
        f" or face down); wrong values read: {tally.counter_errors}"
    )
    if tally.error_kinds:
        kinds = sorted({kind for kind, _where in tally.error_kinds})
        parts = []
        for kind in kinds:
            places = (
                f"{tally.error_kinds.get((kind, where), 0)} {where}"
                for where in ("on paper", "on a counter")
            )
            parts.append(f"{kind} {', '.join(places)}")
        print("  misread by kind: " + "; ".join(parts))
        worst = sorted(tally.setup_errors.items(), key=lambda item: (-item[1], item[0]))
        print("  misread by set-up: " + ", ".join(f"{name} {n}" for name, n in worst))
    for example in tally.examples:
        print(f"    {example}")
    if PLAYED["sides"] != SIDES:
        print("  zones misread, colour by colour (held it, or read as holding it):")
        for colour in (*PLAYED["sides"], CHALLENGE):
            held = tally.colour_zones.get(colour, 0)
            print(f"    {colour}: {tally.colour_errors.get(colour, 0)} of {held}")
    print(
        f"  hand sequences: {occlusion.sequences}, commits {occlusion.commits}, "
        f"false commits {occlusion.false_commits} (floor 0), "
        f"board right after the hand left: {occlusion.settled_right} of {occlusion.sequences}"
    )
    never = occlusion.never_committed / max(1, occlusion.moves)
    print(
        f"  moves never committed: {occlusion.never_committed} of {occlusion.moves} hand-overs "
        f"that changed the board ({never:.1%})  floor <= {NEVER_COMMITTED_FLOOR:.0%}"
    )
    for example in occlusion.examples:
        print(f"    {example}")
    print(
        f"  read per 1280x720 frame, one thread: median {read_ms:.2f} ms; JPEG decode of the "
        f"same frame: median {decode_ms:.2f} ms; ratio {ratio:.2f}x  floor <= "
        f"{READ_RATIO_FLOOR:.0f}x"
    )
    print(f"  ({elapsed:.0f} s)")
    return (
        error > ERROR_FLOOR
        or right < FULLY_RIGHT_FLOOR
        or occlusion.false_commits > 0
        or never > NEVER_COMMITTED_FLOOR
        or ratio > READ_RATIO_FLOOR
    )


if __name__ == "__main__":
    sys.exit(main())
