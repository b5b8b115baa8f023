"""Glare told apart from the room's light: one soft patch of the lamp's colour over a
smooth field, found where it is and taken away; none where there is none."""

from __future__ import annotations

import numpy as np

from vision.geometry import Board
from vision.glare import encoded, find_glare, linear

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
