"""The zone network's inputs, and the shipped model through OpenCV's DNN module."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.vision.helpers import BLUE, EASY, RED, YELLOW
from vision.calibration import Calibration
from vision.colours import ColourModel
from vision.geometry import Board
from vision.learning.inputs import (
    CHANNELS,
    GRID,
    cell_inputs,
    colour_axes,
    context_index,
    near_colour,
    near_inputs,
    shrink,
)
from vision.learning.model import MAX_COUNT, SHIPPED, ZoneModel
from vision.learning.variation import varied
from vision.reader import BoardReader
from vision.sampling import Sampler
from vision.synth import Scene, render
from vision.temporal import MIN_CONFIDENCE


@pytest.fixture(scope="module")
def sampler(board: Board) -> Sampler:
    return Sampler(board)


def test_a_zones_own_pixels_show_its_own_points(sampler: Sampler) -> None:
    index = context_index(sampler).reshape(len(sampler.zones), -1)
    for zone in range(len(sampler.zones)):
        own = sampler.masks[zone].reshape(-1)
        assert (sampler.zone_of_point[index[zone][own]] == zone).all()


def test_a_neighbours_pixels_show_the_neighbours_points(sampler: Sampler) -> None:
    index = context_index(sampler).reshape(len(sampler.zones), -1)
    reached = 0
    for zone in range(len(sampler.zones)):
        owners = sampler.owners[zone].reshape(-1)
        own = sampler.masks[zone].reshape(-1)
        other = ~own & (owners >= 0) & (owners != zone) & (index[zone] >= 0)
        assert (sampler.zone_of_point[index[zone][other]] == owners[other]).all()
        reached += int(other.sum())
    # Places are close enough that every square reaches into some neighbour.
    assert reached > len(sampler.zones) * 50


def colour(hue: float, saturation: float = 0.2, brightness: float = -0.9) -> ColourModel:
    return ColourModel("c", hue, 0.1, saturation, brightness, 150.0)


def patch_of(hue: float, saturation: float, level: float) -> np.ndarray:
    """Reflectance (BGR) whose chromaticity lies `saturation` from grey towards `hue`."""
    b = 1 / 3 + saturation * np.cos(hue)
    r = 1 / 3 + saturation * np.sin(hue)
    g = 1 - b - r
    return np.array([b, g, r], np.float32) * 3 * level


@settings(max_examples=40, deadline=None)
@given(
    hue=st.floats(-3.1, 3.1),
    saturation=st.floats(0.08, 0.18),
    level=st.floats(0.2, 0.9),
)
def test_a_colour_reads_the_same_whatever_its_hue(
    hue: float, saturation: float, level: float
) -> None:
    # One cell the calibrated colour itself, the rest bare paper: the inputs against that
    # colour are the same for a red as for a blue, which is what lets one network count
    # colours it never saw.
    squares = np.ones((1, 2 * GRID, 2 * GRID, 3), np.float32)
    squares[0, 18:22, 18:22] = patch_of(hue, saturation, level)
    own = np.ones((1, 2 * GRID, 2 * GRID), bool)
    mean, share = shrink(squares, own)
    against = cell_inputs(mean, share, colour_axes([colour(hue, saturation, np.log(level))]))
    assert against.shape == (1, CHANNELS, GRID, GRID)
    assert against[0, 0, 9, 9] == pytest.approx(1.0, abs=0.02)
    assert against[0, 1, 9, 9] == pytest.approx(0.0, abs=0.02)
    assert against[0, 2, 9, 9] == pytest.approx(0.0, abs=0.02)
    assert against[0, 0, 0, 0] == pytest.approx(0.0, abs=0.02)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), zones=st.integers(0, 6), colours=st.integers(1, 4))
def test_the_pairs_near_a_colour_get_the_inputs_all_pairs_would(
    seed: int, zones: int, colours: int
) -> None:
    rng = np.random.default_rng(seed)
    mean = rng.uniform(0.0, 1.6, (zones, GRID, GRID, 3)).astype(np.float32)
    share = rng.uniform(0.0, 1.0, (zones, GRID, GRID)).astype(np.float32)
    axes = np.column_stack(
        [rng.uniform(-3.1, 3.1, colours), rng.uniform(0.0, 0.4, colours), rng.normal(0, 1, colours)]
    ).astype(np.float32)
    every = cell_inputs(mean, share, axes)
    pairs, inputs = near_inputs(mean, share, axes)
    assert pairs.tolist() == np.flatnonzero(near_colour(every)).tolist()
    np.testing.assert_array_equal(inputs, every[pairs])


def test_the_shipped_model_counts_a_batch() -> None:
    model = ZoneModel.load(SHIPPED)
    counts, sure = model.counts(np.zeros((5, CHANNELS, GRID, GRID), np.float32))
    assert counts.shape == (5,) and sure.shape == (5,)
    assert ((counts >= 0) & (counts <= MAX_COUNT)).all()
    assert ((sure > 0) & (sure <= 1)).all()
    empty, _ = model.counts(np.zeros((0, CHANNELS, GRID, GRID), np.float32))
    assert len(empty) == 0


class _OneCell:
    """A zone network that looks at one cell of a square, beside its top left corner: the
    count nearest its first channel's value there, and the nearer, the surer (`sharpness`).
    It sees each of the eight ways the square can be turned or mirrored differently."""

    def __init__(self, sharpness: float = 1.0) -> None:
        self.sharpness = sharpness
        self.batches: list[int] = []

    def setInput(self, inputs: Any) -> None:  # OpenCV's name
        self.inputs = np.asarray(inputs)
        self.batches.append(len(inputs))

    def forward(self) -> Any:
        value = self.inputs[:, 0, 0, 1]
        counts = np.arange(MAX_COUNT + 1)
        return (-self.sharpness * np.abs(value[:, None] - counts[None, :])).astype(np.float32)


def _orientations(square: np.ndarray) -> list[np.ndarray]:
    turned = [np.rot90(square, turn, axes=(1, 2)) for turn in range(4)]
    return turned + [t[..., ::-1] for t in turned]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0.0, float(MAX_COUNT)), min_size=8, max_size=8))
def test_an_unsure_count_is_the_same_however_the_square_is_turned(values: list[float]) -> None:
    # The eight cells the turns and mirror images bring beside the top left corner.
    square = np.zeros((CHANNELS, GRID, GRID), np.float32)
    last = GRID - 1
    cells = [(0, 1), (1, 0), (0, last - 1), (1, last), (last, 1), (last - 1, 0)]
    cells += [(last, last - 1), (last - 1, last)]
    for (row, column), value in zip(cells, values, strict=True):
        square[0, row, column] = value
    model = ZoneModel(_OneCell())
    readings = [model.counts(view[None].copy()) for view in _orientations(square)]
    counts = {int(count[0]) for count, _ in readings}
    sure = [float(s[0]) for _, s in readings]
    assert len(counts) == 1
    assert max(sure) - min(sure) < 1e-5


def test_a_sure_count_is_looked_at_once() -> None:
    inputs = np.zeros((3, CHANNELS, GRID, GRID), np.float32)
    inputs[:, 0, 0, 1] = [1.0, 2.0, 2.5]
    network = _OneCell(sharpness=8.0)
    counts, sure = ZoneModel(network).counts(inputs)
    # Only the third, halfway between two counts, is looked at again: eight ways.
    assert network.batches == [3, 8]
    assert counts[:2].tolist() == [1, 2]
    assert (sure[:2] > 0.99).all() and sure[2] < 0.9


def test_the_reader_counts_with_the_network_when_given_one(
    easy_calibration: Calibration, board: Board
) -> None:
    scene = Scene(crystals={"17": (RED,), "40": (BLUE,), "63": (YELLOW,), "diamond-2": (BLUE,)})
    shot = render(board, scene, EASY, seed=7)
    reader = BoardReader(easy_calibration, board, zone_model=ZoneModel.load())
    assert reader.learned is not None
    reading = reader.read(shot.image)
    held = {key: zone.crystals for key, zone in reading.zones.items() if zone.crystals}
    assert held == {key: tuple(sorted(v)) for key, v in scene.crystals.items()}
    assert not reading.hands


def test_the_network_is_asked_only_where_the_rules_are_unsure_or_a_counter_lies(
    easy_calibration: Calibration, board: Board
) -> None:
    scene = Scene(crystals={"17": (RED,), "20": (BLUE,), "40": (BLUE,)}, counters={"20": (3,)})
    shot = render(board, scene, EASY, seed=7)
    reader = BoardReader(easy_calibration, board, zone_model=ZoneModel.load())
    assert reader.learned is not None
    asked: list[str] = []
    counter = reader.learned
    keys = [zone.key for zone in reader.measurer.sampler.zones]

    def count(measured: Any, only: Any = None, reflectance: Any = None) -> Any:
        asked.extend(keys[i] for i in (range(len(keys)) if only is None else only))
        return type(counter).count(counter, measured, only, reflectance)

    counter.count = count  # type: ignore[method-assign]
    reading = reader.read(shot.image)
    assert "20" in asked
    # Plain places, a crystal or none on paper, are the rules' to read: most of the board.
    assert "17" not in asked and "40" not in asked
    assert len(asked) < len(keys) // 4
    assert reading.zones["17"].crystals == (RED,)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), colours=st.integers(1, 5))
def test_varied_frames_keep_bare_paper_bare_and_their_shape(seed: int, colours: int) -> None:
    cells = np.ones((4, GRID, GRID, 3), np.float32)
    cells[1, 5:12, 5:12] = [0.2, 0.3, 0.9]  # a crystal on the second zone
    drawn = np.random.default_rng(seed + 1).uniform(
        [-np.pi, 0.05, -1.0], [np.pi, 0.3, 0.0], (colours, 3)
    )
    axes = drawn.astype(np.float32)
    shown, shown_axes = varied(cells, axes, np.random.default_rng(seed))
    again, again_axes = varied(cells, axes, np.random.default_rng(seed))
    assert shown.shape == cells.shape and shown_axes.shape == axes.shape
    # Bare paper is bare paper however the camera is set: only what lies on it varies.
    assert np.allclose(shown[[0, 2, 3]], 1.0)
    assert np.isfinite(shown).all() and shown.max() <= 1.0 + 1e-6
    # A crystal is never made to vanish into the paper.
    assert (shown[1] < 0.95).any()
    assert np.array_equal(again, shown) and np.array_equal(again_axes, shown_axes)


class _Blind:
    """A zone network that sees no crystal anywhere, and is fairly sure of it."""

    def setInput(self, inputs: Any) -> None:  # OpenCV's name
        self.pairs = len(inputs)

    def forward(self) -> Any:
        scores = np.zeros((self.pairs, MAX_COUNT + 1), np.float32)
        scores[:, 0] = 1.5
        return scores


def test_a_whole_crystal_the_network_gives_to_no_place_is_the_place_holding_it(
    easy_calibration: Calibration, board: Board
) -> None:
    # The yellow lies half off place 3, towards the empty places below it: no other place
    # shows any yellow, so however the network counts, the crystal is place 3's.
    scene = Scene(
        crystals={"3": (BLUE, YELLOW)},
        placements={"3": ((-0.1, 0.1), (-1.5, 9.5))},
    )
    reader = BoardReader(easy_calibration, board, zone_model=ZoneModel(_Blind()))
    reading = reader.read(render(board, scene, EASY, seed=8).image)
    held = {key: zone.crystals for key, zone in reading.zones.items() if zone.crystals}
    assert held == {"3": (BLUE, YELLOW)}
    assert reading.zones["3"].confidence >= MIN_CONFIDENCE
