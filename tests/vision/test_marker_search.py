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


def _soft(shot_image: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    grey = cv2.cvtColor(shot_image, cv2.COLOR_BGR2GRAY)
    return grey, np.asarray(cv2.GaussianBlur(grey, (0, 0), sigma), np.uint8)


def test_a_lamps_pool_of_light_beside_the_sheet_does_not_hide_its_outline() -> None:
    board = load_board()
    shot = render(board, Scene(), EASY.replace(table="black-cloth", fill=0.4), 3)
    _grey, soft = _soft(shot.image, 2.0)
    # A pool of light on the table, brighter than Otsu's level but darker than the paper,
    # spreading from one of the sheet's corners.
    outline = cv2.perspectiveTransform(
        np.array([[[0, 0], [board.width, 0], [board.width, board.height], [0, board.height]]],
                 np.float64),
        shot.homography,
    ).reshape(4, 2)  # fmt: skip
    rows, columns = np.mgrid[0 : soft.shape[0], 0 : soft.shape[1]]
    reach = np.hypot(columns - outline[2, 0], rows - outline[2, 1]) / 260.0
    pool = np.clip(175.0 * np.exp(-(reach**2)), 0, 255)
    sheet = np.zeros(soft.shape, np.uint8)
    cv2.fillConvexPoly(sheet, outline.round().astype(np.int32), 1)
    lit = np.where(sheet > 0, soft, np.maximum(soft, pool)).astype(np.uint8)
    paper = float(np.percentile(soft, 99.5))
    otsu, _bright = cv2.threshold(lit, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    assert otsu < 175.0 < paper  # the pool joins the sheet at Otsu's level
    assert len(MarkerSearch(board).from_outline(lit)[0]) >= 20


def test_markers_decoded_along_one_edge_only_do_not_keep_the_rest_from_being_found() -> None:
    board = load_board()
    shot = render(board, Scene(), EASY.replace(table="black-cloth", fill=0.3), 3)
    grey, soft = _soft(shot.image, 2.0)
    # The markers along the sheet's top edge are sharp enough to be decoded: a row says
    # nothing of the sheet's other way, so no fit on them alone places the rest.
    row = [m.id for m in board.markers if m.centre[1] == board.markers[0].centre[1]]
    assert len(row) >= 5
    for marker_id in row:
        corners = cv2.perspectiveTransform(
            np.array(board.marker_corners(marker_id), np.float64).reshape(-1, 1, 2),
            shot.homography,
        ).reshape(4, 2)
        (left, top), (right, bottom) = corners.min(axis=0) - 4, corners.max(axis=0) + 4
        rows, columns = slice(int(top), int(bottom) + 1), slice(int(left), int(right) + 1)
        soft[rows, columns] = grey[rows, columns]
    assert len(MarkerFinder(board).find(soft, effort=2).ids) >= 20
