"""Printing a board a game gives as shapes (companion/games/drawing.py): drawn with OpenCV
at the resolution asked, as large as the paper allows inside the printer's margin (turned
like the board), with the game's name on a footer line; one page of PDF, or a PNG.

    report = write_drawing(drawing, Path("memento.pdf"), paper="A3", title="memento ludis")
    report.path, report.size_mm          # where it went, and the board's printed size
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import UserError
from companion.games.drawing import Drawing, Point
from companion.printing.board_sheet import BOARD_PAPERS, FOOTER_BAND, MARGIN, Area, PaperSheet
from companion.printing.output import (
    check_dpi,
    check_writable,
    output_kind,
    png_with_dpi,
    write_output,
)
from companion.printing.raster_pdf import Note, RasterPage, note_fonts, raster_pdf

MM_PER_INCH = 25.4


@dataclass(frozen=True, slots=True)
class PrintedDrawing:
    path: Path
    kind: str
    paper: PaperSheet
    size_mm: tuple[float, float]
    pixels: tuple[int, int]
    warnings: tuple[str, ...] = ()


def bgr(colour: str, default: tuple[int, int, int] = (128, 128, 128)) -> tuple[int, int, int]:
    """'#rrggbb' as OpenCV's (blue, green, red)."""
    text = colour.lstrip("#")
    if len(text) != 6:
        return default
    try:
        r, g, b = (int(text[i : i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return default
    return (b, g, r)


def fit(drawing: Drawing, paper_name: str) -> tuple[PaperSheet, Area]:
    """The paper (turned like the board) and where the board goes on it, in millimetres."""
    if paper_name not in BOARD_PAPERS:
        raise UserError(f"no paper {paper_name!r}: use {', '.join(BOARD_PAPERS)}")
    long, short = BOARD_PAPERS[paper_name]
    wide = drawing.width >= drawing.height
    paper = PaperSheet(paper_name, long if wide else short, short if wide else long)
    room_w = paper.width - 2 * MARGIN
    room_h = paper.height - 2 * MARGIN - FOOTER_BAND
    scale = min(room_w / drawing.width, room_h / drawing.height)
    width, height = drawing.width * scale, drawing.height * scale
    area = Area((paper.width - width) / 2, MARGIN + (room_h - height) / 2, width, height)
    return paper, area


def picture(drawing: Drawing, width_px: int) -> NDArray[np.uint8]:
    """The drawing as a BGR picture `width_px` wide: its paper, lines, points, pieces and
    labels; texts about the game in play (a pool's count) are left out of a board."""
    scale = width_px / drawing.width
    height_px = max(1, round(drawing.height * scale))
    image = np.full((height_px, width_px, 3), bgr(drawing.background, (255, 255, 255)), np.uint8)

    def at(point: Point) -> tuple[int, int]:
        return (round(point[0] * scale), round(point[1] * scale))

    for line in drawing.lines:
        points = np.array([at(p) for p in line.points], np.int32)
        thickness = max(1, round(line.width * scale))
        cv2.polylines(image, [points], False, bgr(line.colour), thickness, cv2.LINE_AA)
    for spot in drawing.spots:
        centre, radius = at(spot.at), max(1, round(spot.radius * scale))
        fill = bgr(spot.fill, (255, 255, 255)) if spot.fill else (255, 255, 255)
        cv2.circle(image, centre, radius, fill, -1, cv2.LINE_AA)
        outline = max(1, round(spot.radius * scale * 0.16))
        cv2.circle(image, centre, radius, bgr(spot.outline), outline, cv2.LINE_AA)
    return image


def write_drawing(
    drawing: Drawing, out: Path, *, paper: str, title: str, dpi: int
) -> PrintedDrawing:
    kind = output_kind(out)
    check_dpi(dpi)
    check_writable(out)
    drawing = drawing.with_margin(2 * drawing.reach)
    sheet, area = fit(drawing, paper)
    width_px = round(area.width / MM_PER_INCH * dpi)
    image = picture(drawing, width_px)
    size = (round(area.width, 1), round(area.height, 1))
    footer = f"{title}: the board, {size[0]:g} x {size[1]:g} mm at 100 %"
    if kind == "png":
        ok, encoded = cv2.imencode(".png", image)
        if not ok:
            raise UserError(f"could not draw {out}")
        write_output(out, png_with_dpi(encoded.tobytes(), dpi))
        pixels = (image.shape[1], image.shape[0])
        return PrintedDrawing(out, kind, sheet, size, pixels)
    page = RasterPage(
        sheet,
        image,
        area,
        (Note(footer, sheet.width / 2, area.bottom + FOOTER_BAND - 1.5),),
    )
    fonts = note_fonts([page])
    data = raster_pdf([page], fonts=fonts, title=footer, creator="tabletop companion")
    write_output(out, data)
    pixels = (image.shape[1], image.shape[0])
    return PrintedDrawing(out, kind, sheet, size, pixels, tuple(fonts.warnings))
