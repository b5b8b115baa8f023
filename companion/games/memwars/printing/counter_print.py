"""The printable topology counters: a duplex sheet as a two-page PDF, or its fronts as a PNG.

    report = write_counters(Path("counters.pdf"), paper="A4", size=load_board().counter_size)
    report.sheet.tiles      # where each counter went, front and back

Each page is drawn as one picture (the tiles come from vision/counter_art.py, the drawing
the camera is taught with), placed on the page at its exact size, with a line of text at
the foot saying which side it is and how to print it. See docs/board.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.games.memwars.printing.counter_sheet import (
    BLEED,
    CounterSheet,
    plan_counter_sheet,
)
from companion.printing.board_sheet import Area
from companion.printing.output import (
    DEFAULT_DPI,
    OutputKind,
    check_dpi,
    check_writable,
    output_kind,
    png_with_dpi,
    write_output,
)
from companion.printing.raster_pdf import (
    Note,
    RasterPage,
    as_grey_if_neutral,
    note_fonts,
    raster_pdf,
)
from vision.counter_art import draw_counter

Side = Literal["front", "back"]

MM_PER_INCH = 25.4
CUT_LINE = (150, 150, 150)
"""Grey: visible on the dark tiles and on white paper alike."""
CUT_LINE_WIDTH = 0.2
"""Millimetres."""


@dataclass(frozen=True, slots=True)
class PrintedCounters:
    path: Path
    kind: OutputKind
    sheet: CounterSheet
    dpi: int
    pages: int
    warnings: tuple[str, ...]


def counter_page(sheet: CounterSheet, side: Side, dpi: int) -> NDArray[np.uint8]:
    """One side of the sheet as a BGR picture of the whole page, `dpi` pixels to the inch."""
    scale = dpi / MM_PER_INCH
    paper = sheet.paper
    page = np.full((round(paper.height * scale), round(paper.width * scale), 3), 255, np.uint8)
    arts: dict[int | None, NDArray[np.uint8]] = {}
    line = max(1, round(CUT_LINE_WIDTH * scale))
    for tile in sheet.tiles:
        value = tile.value if side == "front" else None
        if value not in arts:
            arts[value] = draw_counter(value, scale, sheet.size)
        art = arts[value]
        area = tile.front if side == "front" else tile.back
        left, top = round(area.left * scale), round(area.top * scale)
        side_px = art.shape[0]
        bleed = round(BLEED * scale)
        dark = tuple(int(c) for c in art[0, 0])
        _fill(page, left - bleed, top - bleed, side_px + 2 * bleed, dark)
        page[top : top + side_px, left : left + side_px] = art
        right, bottom = left + side_px - 1, top + side_px - 1
        cv2.rectangle(page, (left, top), (right, bottom), CUT_LINE, line)
    return page


def _fill(page: NDArray[np.uint8], left: int, top: int, side: int, colour: tuple[int, ...]) -> None:
    page[max(0, top) : top + side, max(0, left) : left + side] = colour


def page_note(sheet: CounterSheet, side: Side) -> str:
    count = len(sheet.tiles)
    dot = "  \u00b7  "
    head = f"MemWars topology counters{dot}{count} of {sheet.size:g} mm"
    if side == "front":
        return f"{head}{dot}fronts{dot}print double-sided, flip on the long edge, at 100 %"
    return f"{head}{dot}backs (the logo ring): print on the back of the fronts"


def write_counters(
    out: Path, *, paper: str, size: float, dpi: int = DEFAULT_DPI
) -> PrintedCounters:
    """Writes the counters to `out`: a PDF of fronts and backs, or a PNG of the fronts.

    Raises UserError for an unknown paper, a size that does not fit, a bad resolution or an
    output it cannot write.
    """
    kind = output_kind(out)
    check_dpi(dpi)
    sheet = plan_counter_sheet(paper, size)
    check_writable(out)
    warnings: list[str] = []
    if kind == "png":
        front = as_grey_if_neutral(counter_page(sheet, "front", dpi))
        encoded, png = cv2.imencode(".png", front)
        if not encoded:
            raise RuntimeError("OpenCV could not encode the counters as PNG")
        write_output(out, png_with_dpi(png.tobytes(), dpi))
        return PrintedCounters(out, kind, sheet, dpi, 1, ())
    whole = Area(0, 0, sheet.paper.width, sheet.paper.height)
    sides: tuple[Side, Side] = ("front", "back")
    pages = [
        RasterPage(
            sheet.paper,
            counter_page(sheet, side, dpi),
            whole,
            (Note(page_note(sheet, side), sheet.paper.width / 2, sheet.note_baseline),),
        )
        for side in sides
    ]
    fonts = note_fonts(pages)
    warnings += fonts.warnings
    data = raster_pdf(
        pages, fonts=fonts, title="MemWars topology counters", creator="companion print counters"
    )
    write_output(out, data)
    return PrintedCounters(out, kind, sheet, dpi, len(pages), tuple(warnings))
