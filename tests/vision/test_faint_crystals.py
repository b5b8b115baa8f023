"""A calibration crystal too faint to show plainly coloured or dark pixels (a dim board far
off, a red crystal under a green light) is still found against its zone's own paper; the
paper's grain alone never makes a crystal."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from vision.calibration import crystal_pixels, faint_crystal_pixels

SIZE = 40
RADIUS = 6
LEAST = 0.2 * np.pi * RADIUS**2
"""As calibration asks: a fifth of a crystal's area."""


def zone(
    seed: int, paper: float, grain: float, tint: tuple[float, float, float] | None
) -> tuple[NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_]]:
    rng = np.random.default_rng(seed)
    picture = paper + rng.normal(0.0, grain, (SIZE, SIZE, 3))
    rows, columns = np.mgrid[0:SIZE, 0:SIZE]
    disc = np.hypot(rows - 18, columns - 21) <= RADIUS
    if tint is not None:
        picture[disc] = np.array(tint) + rng.normal(0.0, grain, (int(disc.sum()), 3))
    mask = np.hypot(rows - SIZE / 2, columns - SIZE / 2) <= SIZE / 2
    return np.clip(picture, 0.0, 1.0), mask, disc


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.85, 1.0), st.floats(0.0, 0.012))
def test_paper_grain_alone_is_never_a_crystal(seed: int, paper: float, grain: float) -> None:
    picture, mask, _disc = zone(seed, paper, grain, None)
    assert faint_crystal_pixels(picture, mask).sum() < LEAST


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(0.0, 0.012))
def test_a_dark_barely_red_crystal_is_found_where_the_plain_rule_misses_it(
    seed: int, grain: float
) -> None:
    # BGR reflectance: much darker than the paper, and only a little red.
    picture, mask, disc = zone(seed, 0.95, grain, (0.52, 0.52, 0.58))
    assert crystal_pixels(picture, mask).sum() < LEAST
    found = faint_crystal_pixels(picture, mask)
    assert found.sum() >= LEAST
    assert (found & disc).sum() >= 0.9 * found.sum()
