"""The camera's view with what was read drawn over it, for setting the camera up.

    picture = annotate(image, reading, board, fit.mapping, markers)

Each zone is outlined where the board registration puts it: green when read empty, in
the crystals' colour names (a label beside it) when holding some, amber when unsure, grey
hatched when occluded. Found markers are outlined in blue. A banner says how many markers
were seen, the registration error, where North is, and whether a hand is over the board;
under it, why a hand is thought to be there ("rim crossed on the south edge", "paper
covered near place 47"), also given in words by `banner_lines`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import Board
from vision.reading import BoardReading, Edge
from vision.registration import BoardMapping

if TYPE_CHECKING:
    from vision.reader import BoardReader

Image = NDArray[np.uint8]

GREEN = (60, 180, 60)
AMBER = (0, 170, 255)
GREY = (150, 150, 150)
BLUE = (255, 120, 0)
WHITE = (255, 255, 255)
RED = (40, 40, 230)
EDGE_ORDER = (Edge.NORTH, Edge.EAST, Edge.SOUTH, Edge.WEST)
"""The sheet's edges clockwise from its top-left corner."""


def annotate(
    image: Image,
    reading: BoardReading,
    board: Board,
    mapping: BoardMapping | NDArray[np.float64] | None,
    markers: Sequence[NDArray[np.float32]] = (),
) -> Image:
    """`mapping` places the board in the picture: the registration's (which follows a sheet
    that is not flat), or a bare homography."""
    picture = image.copy()
    for corners in markers:
        cv2.polylines(picture, [corners.astype(np.int32)], True, BLUE, 2, cv2.LINE_AA)
    if mapping is not None:
        if not isinstance(mapping, BoardMapping):
            mapping = BoardMapping(np.asarray(mapping, np.float64))
        _draw_zones(picture, reading, board, mapping)
        _draw_hand_signs(picture, reading, board, mapping)
    _banner(picture, reading)
    return picture


def _outline(
    centre: tuple[float, float], radius: float, mapping: BoardMapping
) -> NDArray[np.int32]:
    angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    circle = np.stack(
        [centre[0] + radius * np.cos(angles), centre[1] + radius * np.sin(angles)], axis=1
    )
    projected = mapping.to_image(circle)
    return np.asarray(np.round(projected), np.int32).reshape(-1, 1, 2)


def _draw_zones(picture: Image, reading: BoardReading, board: Board, mapping: BoardMapping) -> None:
    scale = max(0.35, min(1.0, picture.shape[1] / 2400))
    for zone in board.zones():
        result = reading.zones.get(zone.key)
        radius = board.place_radius if zone.key.isdigit() else zone.radius
        outline = _outline(zone.centre, radius, mapping)
        if result is None or result.occluded:
            cv2.polylines(picture, [outline], True, GREY, 1, cv2.LINE_AA)
            continue
        colour = GREEN if result.confidence >= 0.75 else AMBER
        thickness = 2 if result.crystals else 1
        cv2.polylines(picture, [outline], True, colour, thickness, cv2.LINE_AA)
        if result.crystals:
            label = "+".join(result.crystals)
            if result.confidence < 0.75:
                label += f" {result.confidence:.0%}"
            x, y = outline.reshape(-1, 2).max(axis=0)
            _text(picture, label, (int(x) + 2, int(y)), scale, colour)
        if result.counters:
            shown = ",".join(
                "?" if v == 0 else "down" if v is None else str(v) for v in result.counters
            )
            x, y = outline.reshape(-1, 2).min(axis=0)
            _text(picture, f"[{shown}]", (int(x), int(y) - 2), scale, WHITE)


def _draw_hand_signs(
    picture: Image, reading: BoardReading, board: Board, mapping: BoardMapping
) -> None:
    """Where a hand was seen: the crossed edge of the sheet, the place by covered paper."""
    corners = ((0.0, 0.0), (board.width, 0.0), (board.width, board.height), (0.0, board.height))
    for reason in reading.hand_reasons:
        if reason.edge is not None:
            side = EDGE_ORDER.index(reason.edge)
            start, end = np.array(corners[side]), np.array(corners[(side + 1) % 4])
            line = mapping.to_image(start + np.linspace(0, 1, 16)[:, None] * (end - start))
            points = np.asarray(np.round(line), np.int32).reshape(-1, 1, 2)
            cv2.polylines(picture, [points], False, AMBER, 3, cv2.LINE_AA)
        if reason.zone is not None:
            zone = next((z for z in board.zones() if z.key == reason.zone), None)
            if zone is not None:
                outline = _outline(zone.centre, zone.radius * 1.6, mapping)
                cv2.polylines(picture, [outline], True, AMBER, 3, cv2.LINE_AA)


def _text(
    picture: Image, text: str, where: tuple[int, int], scale: float, colour: tuple[int, int, int]
) -> None:
    cv2.putText(picture, text, where, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(picture, text, where, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)


def banner_lines(reading: BoardReading) -> list[str]:
    """The banner's text: how the board was found, and whether (and why) a hand is over
    it, one reason a line after the first."""
    registration = reading.registration
    if registration is None:
        line = "board not found: are the markers in view?"
    else:
        line = (
            f"markers {registration.markers_seen}/{registration.markers_total}"
            f"  error {registration.error_mm:.1f} mm  north: {registration.north}"
        )
        if registration.held:
            line += "  (holding the last registration)"
    if reading.hands:
        line += "  HAND OVER THE BOARD"
    return [line, *(f"hand: {reason.text()}" for reason in reading.hand_reasons)]


def _banner(picture: Image, reading: BoardReading) -> None:
    colour = RED if reading.registration is None else WHITE
    if reading.hands:
        colour = AMBER
    lines = banner_lines(reading)
    cv2.rectangle(picture, (0, 0), (picture.shape[1], 30 + 24 * (len(lines) - 1)), (0, 0, 0), -1)
    for row, line in enumerate(lines):
        cv2.putText(
            picture, line, (8, 21 + 24 * row), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 1, cv2.LINE_AA
        )


def annotate_read(reader: BoardReader, image: Image) -> tuple[Image, BoardReading]:
    """Reads `image` with `reader` and draws what it read over it: (picture, reading)."""
    reading = reader.read(image)
    fit = reader.fit
    picture = annotate(
        image,
        reading,
        reader.board,
        None if fit is None else fit.mapping,
        () if fit is None else fit.detection.corners,
    )
    return picture, reading
