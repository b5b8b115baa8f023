"""Markers too soft to decode found by their known patterns: from the sheet's outline with
none decoded, and never on a card that holds no markers."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.helpers import EASY
from vision.geometry import load_board
from vision.marker_search import MarkerSearch
from vision.registration import MarkerFinder
from vision.synth import Scene, render

INNER = 21
"""A marker among the places, not on the sheet's edge."""


def test_with_no_marker_decoded_the_sheets_outline_finds_them() -> None:
    board = load_board()
    shot = render(board, Scene(), EASY.replace(table="black-cloth", fill=0.45), 3)
    grey = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    soft = np.asarray(cv2.GaussianBlur(grey, (0, 0), 2.0), np.uint8)
    ids, corners = MarkerSearch(board).from_outline(soft)
    assert len(ids) >= 20
    for marker_id, seen in zip(ids, corners, strict=True):
        truth = cv2.perspectiveTransform(
            np.array(board.marker_corners(marker_id), np.float64).reshape(-1, 1, 2),
            shot.homography,
        ).reshape(4, 2)
        assert np.abs(seen - truth).max() < 1.5, marker_id


def test_a_white_card_without_markers_gives_none() -> None:
    board = load_board()
    table = np.full((720, 1280), 40, np.uint8)
    cv2.rectangle(table, (400, 200), (820, 497), 230, -1)
    assert MarkerSearch(board).from_outline(table) == ((), ())
    speckled = table.copy()
    speckled[200:497, 400:820] = np.random.default_rng(0).integers(0, 255, (297, 420))
    assert MarkerSearch(board).from_outline(speckled) == ((), ())


def test_one_inner_marker_decoded_does_not_keep_the_outline_from_finding_the_rest() -> None:
    board = load_board()
    shot = render(board, Scene(), EASY.replace(table="black-cloth", fill=0.25), 3)
    grey = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    soft = np.asarray(cv2.GaussianBlur(grey, (0, 0), 1.5), np.uint8)
    # One marker inside the sheet, among the places, is sharp enough to be decoded.
    corners = cv2.perspectiveTransform(
        np.array(board.marker_corners(INNER), np.float64).reshape(-1, 1, 2), shot.homography
    ).reshape(4, 2)
    (left, top), (right, bottom) = corners.min(axis=0) - 4, corners.max(axis=0) + 4
    rows, columns = slice(int(top), int(bottom) + 1), slice(int(left), int(right) + 1)
    soft[rows, columns] = grey[rows, columns]
    # Grown from that marker alone the search finds no other at this size; the outline does.
    assert len(MarkerFinder(board).find(soft, effort=2).ids) >= 20
