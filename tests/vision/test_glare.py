"""Glare told apart from the room's light: one soft patch of the lamp's colour over a
smooth field, found where it is and taken away; none where there is none."""

from __future__ import annotations

from functools import cache

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.geometry import Board
from vision.glare import encoded, find_glare, linear
from vision.measure import Measurer, without_glare

LAMP = np.array([0.7, 0.85, 1.0])
"""A warm lamp, BGR."""


def paper_under(
    board: Board, patch: tuple[float, float, float, float] | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The board's paper points lit by a smooth, uneven light (a quadratic) and, when given,
    a patch (x, y, spread, amount) of the lamp's light."""
    points = np.array(board.paper, np.float64).reshape(-1, 2)
    x = (points[:, 0] - points[:, 0].mean()) / 200
    y = (points[:, 1] - points[:, 1].mean()) / 200
    light = (0.45 + 0.08 * x - 0.05 * y - 0.04 * x * x)[:, None] * LAMP
    field = encoded(light)
    if patch is not None:
        cx, cy, spread, amount = patch
        d2 = (points[:, 0] - cx) ** 2 + (points[:, 1] - cy) ** 2
        light = light + amount * np.exp(-d2 / (2 * spread**2))[:, None] * LAMP
    paper = np.clip(encoded(light) + np.random.default_rng(1).normal(0, 1.0, light.shape), 0, 255)
    return points, paper, field


def test_a_patch_of_glare_is_found_where_it_is(board: Board) -> None:
    points, paper, field = paper_under(board, (200.0, 120.0, 25.0, 0.25))
    glare = find_glare(points, paper, np.ones(len(points), bool), field)
    assert glare is not None and len(glare.patches) == 1
    (patch,) = glare.patches
    assert np.hypot(patch.centre[0] - 200, patch.centre[1] - 120) < 12
    middle = glare.added(np.array([[200.0, 120.0]]))[0]
    assert np.allclose(middle, 0.25 * LAMP, rtol=0.35), middle
    # Taken away, the paper is the smooth field again.
    assert np.abs(glare.without(points, paper) - field).max() < 12


def test_no_glare_no_patch(board: Board) -> None:
    points, paper, field = paper_under(board, None)
    assert find_glare(points, paper, np.ones(len(points), bool), field) is None


def test_light_brighter_along_the_sheets_edge_is_not_taken_for_glare(board: Board) -> None:
    """Nothing shows a bright corner fading away beyond the sheet: it may be the room's
    light, which the white field follows, so it is not taken away as glare."""
    points, paper, field = paper_under(board, None)
    corner = points[np.argmin(points[:, 0] + points[:, 1])]
    d2 = ((points - corner) ** 2).sum(axis=1)
    paper = encoded(linear(paper) + 0.3 * np.exp(-d2 / (2 * 30.0**2))[:, None] * LAMP)
    glare = find_glare(points, paper, np.ones(len(points), bool), field)
    assert glare is None or all(
        np.hypot(*(np.array(patch.centre) - corner)) > 60 for patch in glare.patches
    )


def test_a_crystal_that_caught_less_glare_than_the_paper_keeps_its_colour() -> None:
    # A blue crystal in a glare patch, its facets turned away from the lamp: taking the
    # paper's glare off it whole would leave black.
    lamp = np.array([0.257, 0.243, 0.235])
    blue, green, red = without_glare(np.array([[135.0, 105.0, 96.0]]), lamp)[0]
    assert blue > 60
    assert blue > 1.5 * max(green, red)


def test_paper_under_glare_is_given_back_its_own_white() -> None:
    lamp = np.array([0.2, 0.22, 0.25])
    paper = np.array([[200.0, 205.0, 190.0]])
    under_glare = encoded(linear(paper) + lamp)
    assert np.allclose(without_glare(under_glare, lamp), paper, atol=1.0)


def test_a_grey_under_more_glare_than_it_caught_stays_grey() -> None:
    # The little a grey keeps once the glare is taken off is dark, and its channels' small
    # differences are the glare's error, not a colour.
    left = without_glare(np.array([[152.0, 149.0, 147.0]]), np.array([0.273, 0.279, 0.281]))[0]
    assert np.ptp(left) < 1.0


@settings(max_examples=25, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=200), st.integers(0, 2**31 - 1))
def test_glare_is_taken_from_the_glared_zones_points_alone(
    board: Board, pattern: list[bool], seed: int
) -> None:
    measurer = _measurer(board)
    sampler = measurer.sampler
    zones = len(sampler.zones)
    glared = np.resize(np.array(pattern), zones)
    rng = np.random.default_rng(seed)
    pixels = rng.integers(0, 256, (len(sampler.zone_of_point), 3), dtype=np.uint8)
    added = np.where(glared[:, None], rng.uniform(0.01, 0.3, (zones, 3)), 0.0)
    values = measurer._without_glare(pixels, added)
    for index, (first, end) in enumerate(sampler.spans):
        expected = (
            without_glare(pixels[first:end], added[index]) if glared[index] else pixels[first:end]
        )
        assert np.array_equal(values[first:end], expected), index


@cache
def _measurer(board: Board) -> Measurer:
    return Measurer(board)
