"""The board as a picture: the one drawing the printer prints and the virtual camera films.

    image = draw_board(load_board(), px_per_mm=4, quadrant_names=("Greek", ...))  # BGR

Places are white discs with a grey outline and their number in small grey type (dark,
neutral ink is never mistaken for a crystal); quincunxes are thin lines between their
places; quadrants are framed and named; claim diamonds and the deck area are outlined; the
ArUco markers sit where the board file says, each with a white quiet zone around it. On the
MeM board (game "mem") each place is a square, `place_radius` from its centre to its sides,
numbered in its top-left corner, and the board's name is printed in the left margin.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageDraw, ImageFont

from vision.geometry import Board, Point

Picture = NDArray[np.uint8]

INK = (40, 40, 40)
LINE = (150, 150, 150)
NUMBER = (120, 120, 120)
FONT_FILES = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/TTF/DejaVuSans.ttf"),
)

QUINCUNX_LINKS = ((0, 2), (1, 2), (3, 2), (4, 2))
"""Within a quincunx (its five places in Z order) every corner is joined to the centre."""


def aruco_dictionary(name: str) -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def draw_board(
    board: Board,
    px_per_mm: float,
    quadrant_names: Sequence[str] | None = None,
    title: str | None = None,
) -> Picture:
    """The whole sheet, white background, BGR, `px_per_mm` pixels per millimetre."""
    width = round(board.width * px_per_mm)
    height = round(board.height * px_per_mm)
    image = np.full((height, width, 3), 255, np.uint8)

    def px(point: Point) -> tuple[int, int]:
        return (round(point[0] * px_per_mm), round(point[1] * px_per_mm))

    thin = max(1, round(0.3 * px_per_mm))
    play = board.play_area
    centres = {p.number: p.centre for p in board.places}
    squares = board.game == "mem"
    if board.game == "memwars" and len(centres) == 100:
        _draw_quincunxes(image, centres, board.place_radius, px_per_mm, thin)
        _draw_quadrants(image, centres, board.place_radius, px_per_mm, thin)
    elif squares:
        _draw_squares(image, board, px_per_mm, thin * 2)
    else:
        cv2.rectangle(image, px((play.left, play.top)), px(play.corners()[2]), LINE, thin)
    dictionary = aruco_dictionary(board.marker_dictionary)
    _clear_quiet_zones(image, board, dictionary, px_per_mm)
    for place in () if squares else board.places:
        cv2.circle(
            image, px(place.centre), round(board.place_radius * px_per_mm), LINE, thin, cv2.LINE_AA
        )
    for diamond in board.diamonds:
        x, y = diamond.centre
        r = diamond.radius
        points = np.array([px((x, y - r)), px((x + r, y)), px((x, y + r)), px((x - r, y))])
        cv2.polylines(image, [points.astype(np.int32)], True, INK, thin * 2, cv2.LINE_AA)
    deck = board.deck
    if not deck.empty:
        cv2.rectangle(image, px((deck.left, deck.top)), px(deck.corners()[2]), INK, thin * 2)
    for marker in board.markers:
        side = round(marker.size * px_per_mm)
        art = cv2.aruco.generateImageMarker(dictionary, marker.id, side)
        left, top = px(marker.corners()[0])
        image[top : top + side, left : left + side] = art[:, :, None]
    return _draw_texts(image, board, px_per_mm, quadrant_names, title)


def _clear_quiet_zones(
    image: Picture, board: Board, dictionary: cv2.aruco.Dictionary, scale: float
) -> None:
    """White round every marker, one module wide, over the frames and quincunx lines.

    A line drawn up to a marker's edge merges with its black border once the camera blurs
    it, and the marker is lost. The places are drawn after this, so a disc that reaches a
    quiet zone's edge stays whole.
    """
    for marker in board.markers:
        quiet = marker.size / (dictionary.markerSize + 2)
        left, top = _px(marker.corners()[0], scale)
        right, bottom = _px(marker.corners()[2], scale)
        margin = round(quiet * scale)
        rows = slice(max(0, top - margin), bottom + margin)
        columns = slice(max(0, left - margin), right + margin)
        image[rows, columns] = 255


def _draw_quincunxes(
    image: Picture, centres: dict[int, Point], radius: float, scale: float, width: int
) -> None:
    for first in range(1, 101, 5):
        spots = [centres[first + i] for i in range(5)]
        for a, b in QUINCUNX_LINKS:
            start, end = _between(spots[a], spots[b], radius)
            cv2.line(image, _px(start, scale), _px(end, scale), LINE, width, cv2.LINE_AA)


def _draw_quadrants(
    image: Picture, centres: dict[int, Point], radius: float, scale: float, width: int
) -> None:
    margin = radius + 2.5
    for quadrant in range(4):
        points = [centres[25 * quadrant + i] for i in range(1, 26)]
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        top_left = (min(xs) - margin, min(ys) - margin)
        bottom_right = (max(xs) + margin, max(ys) + margin)
        cv2.rectangle(image, _px(top_left, scale), _px(bottom_right, scale), INK, width)


def _draw_squares(image: Picture, board: Board, scale: float, width: int) -> None:
    """Each place as a square, its sides `place_radius` from its centre: neighbouring
    squares share a side."""
    r = board.place_radius
    for place in board.places:
        x, y = place.centre
        cv2.rectangle(image, _px((x - r, y - r), scale), _px((x + r, y + r), scale), LINE, width)


def _between(a: Point, b: Point, radius: float) -> tuple[Point, Point]:
    """The part of segment a-b outside both places' discs."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = max(1e-9, (dx * dx + dy * dy) ** 0.5)
    ux, uy = dx / length, dy / length
    gap = radius + 1.0
    return (a[0] + ux * gap, a[1] + uy * gap), (b[0] - ux * gap, b[1] - uy * gap)


def _px(point: Point, scale: float) -> tuple[int, int]:
    return (round(point[0] * scale), round(point[1] * scale))


@lru_cache(maxsize=16)
def _font(size_px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    for file in FONT_FILES:
        if file.is_file():
            return ImageFont.truetype(str(file), size_px)
    return ImageFont.load_default(size_px)


def _draw_texts(
    image: Picture,
    board: Board,
    scale: float,
    quadrant_names: Sequence[str] | None,
    title: str | None,
) -> Picture:
    picture = Image.fromarray(image[:, :, ::-1])
    draw = ImageDraw.Draw(picture)
    squares = board.game == "mem"
    number_font = _font(max(6, round((4.5 if squares else 2.6) * scale)))
    for place in board.places:
        x, y = place.centre
        r = board.place_radius
        draw.text(
            _px((x - r * 0.72, y - r * 0.72) if squares else (x, y - r * 0.55), scale),
            str(place.number),
            fill=NUMBER,
            font=number_font,
            anchor="mm",
        )
    label_font = _font(max(8, round(4.0 * scale)))
    names = list(quadrant_names or ())
    for diamond in board.diamonds:
        x, y = diamond.centre
        name = names[diamond.quadrant - 1] if len(names) >= diamond.quadrant else ""
        compass = ("NW", "NE", "SW", "SE")[diamond.quadrant - 1] if diamond.quadrant <= 4 else ""
        label = f"{compass} {name}".strip()
        draw.text(
            _px((x, y + diamond.radius + 4), scale), label, fill=INK, font=label_font, anchor="mm"
        )
    deck = board.deck
    if not deck.empty:
        draw.text(_px(deck.centre, scale), "deck", fill=NUMBER, font=label_font, anchor="mm")
    if board.diamonds:
        top = min(d.centre[1] - d.radius for d in board.diamonds)
        x = sum(d.centre[0] for d in board.diamonds) / len(board.diamonds)
        draw.text(_px((x, top - 5), scale), "claims", fill=NUMBER, font=label_font, anchor="mm")
    heading = title if title is not None else board.name
    if heading and board.diamonds:
        bottom = max(d.centre[1] + d.radius for d in board.diamonds)
        x = sum(d.centre[0] for d in board.diamonds) / len(board.diamonds)
        draw.text(
            _px((x, bottom + 16), scale),
            heading,
            fill=INK,
            font=_font(max(10, round(7 * scale))),
            anchor="mm",
        )
    if heading and squares:
        play = board.play_area
        draw.text(
            _px((play.left / 2, play.centre[1]), scale),
            heading,
            fill=INK,
            font=_font(max(10, round(7 * scale))),
            anchor="mm",
        )
    return np.asarray(picture)[:, :, ::-1].copy()
