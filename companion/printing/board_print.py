"""The printable board: a board file drawn at print resolution, as a PDF page or a PNG.

    report = write_board(load_board(), Path("board.pdf"), paper="A3",
                         quadrant_names=deck.quadrants, deck_title=deck.title)
    report.sheet.label      # 'A3 at 94 %'
    report.warnings         # e.g. places too small for the board's crystals

The PDF is one page: the board's picture at exactly its printed size, and under it a line of
text giving the board, the paper, the scale and how to print it. The PNG is the picture
alone, `dpi` pixels to the printed inch. See docs/board.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.printing.board_sheet import BoardSheet, plan_board_sheet
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
from vision.board_art import draw_board
from vision.geometry import Board

MM_PER_INCH = 25.4


@dataclass(frozen=True, slots=True)
class PrintedBoard:
    path: Path
    kind: OutputKind
    sheet: BoardSheet
    dpi: int
    pixels: tuple[int, int]
    """The picture's width and height."""
    warnings: tuple[str, ...]


def board_picture(
    board: Board, sheet: BoardSheet, dpi: int, quadrant_names: Sequence[str] | None
) -> NDArray[np.uint8]:
    """The board at its printed size, `dpi` pixels to the inch, BGR."""
    return draw_board(board, dpi / MM_PER_INCH * sheet.scale, quadrant_names)


def footer(board: Board, sheet: BoardSheet, deck_title: str | None) -> str:
    drawing = sheet.drawing
    parts = [
        f"{board.name} board",
        *([deck_title] if deck_title else []),
        f"{sheet.label} ({drawing.width:.1f} x {drawing.height:.1f} mm)",
        "print at 100 % / actual size, not fit to page",
    ]
    return "  \u00b7  ".join(parts)


def write_board(
    board: Board,
    out: Path,
    *,
    paper: str,
    quadrant_names: Sequence[str] | None = None,
    deck_title: str | None = None,
    dpi: int = DEFAULT_DPI,
) -> PrintedBoard:
    """Writes `board` fitted to `paper` to `out` (.pdf or .png), atomically.

    Raises UserError for an unknown paper, a bad resolution or an output it cannot write.
    """
    kind = output_kind(out)
    check_dpi(dpi)
    sheet = plan_board_sheet(board, paper)
    check_writable(out)
    picture = board_picture(board, sheet, dpi, quadrant_names)
    warnings = [w for w in (sheet.warning(),) if w is not None]
    if kind == "png":
        encoded, png = cv2.imencode(".png", as_grey_if_neutral(picture))
        if not encoded:
            raise RuntimeError("OpenCV could not encode the board as PNG")
        write_output(out, png_with_dpi(png.tobytes(), dpi))
    else:
        text = footer(board, sheet, deck_title)
        page = RasterPage(
            sheet.paper,
            picture,
            sheet.drawing,
            (Note(text, sheet.paper.width / 2, sheet.footer_baseline),),
        )
        fonts = note_fonts([page])
        warnings += fonts.warnings
        title = f"{board.name} board, {sheet.label}"
        write_output(
            out, raster_pdf([page], fonts=fonts, title=title, creator="companion print board")
        )
    height, width = picture.shape[:2]
    return PrintedBoard(out, kind, sheet, dpi, (width, height), tuple(warnings))
