"""The printable board: a board file drawn at print resolution, as a PDF page or a PNG.

    report = write_board(load_board(), Path("board.pdf"), paper="A3",
                         quadrant_names=deck.quadrants, deck_title=deck.title)
    report.sheet.label      # 'A3 at 94 %'
    report.warnings         # e.g. places too small for the board's crystals

The PDF is one page: the board's picture at exactly its printed size, and under it a line of
text giving the board, the paper, the scale and how to print it. The PNG is the picture
alone, `dpi` pixels to the printed inch. See docs/board.md.

On paper too small for the board's crystals (A4, Letter) the PDF has a page per sheet of a
tiled board (board_tiles): each page its part of the one picture, with the cut line, the
glue strip and the registration marks drawn over it, and a footer saying how to put the
sheets together. A tiled board has no PNG: one picture would not print on the paper.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from companion.errors import UserError
from companion.printing.board_sheet import Area
from companion.printing.board_tiles import (
    LINE_GAP,
    MARK_RADIUS,
    BoardPlan,
    Tile,
    TiledBoard,
    board_size,
    plan_board,
)
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
    CutLine,
    Guide,
    Note,
    RasterPage,
    RegistrationMark,
    Wash,
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
    sheet: BoardPlan
    """One sheet, or the tiled board's sheets."""
    dpi: int
    pixels: tuple[int, int]
    """The picture's width and height."""
    warnings: tuple[str, ...]


def board_picture(
    board: Board, sheet: BoardPlan, dpi: int, quadrant_names: Sequence[str] | None
) -> NDArray[np.uint8]:
    """The board at its printed size, `dpi` pixels to the inch, BGR."""
    return draw_board(board, dpi / MM_PER_INCH * sheet.scale, quadrant_names)


def footer(board: Board, sheet: BoardPlan, deck_title: str | None) -> str:
    width, height = board_size(sheet)
    on_sheets = f" on {sheet.sheets} sheets" if isinstance(sheet, TiledBoard) else ""
    parts = [
        f"{board.name} board",
        *([deck_title] if deck_title else []),
        f"{sheet.label} ({width:.1f} x {height:.1f} mm){on_sheets}",
        "print at 100 % / actual size, not fit to page",
    ]
    return "  \u00b7  ".join(parts)


def assembly_note(tile: Tile, sheets: int) -> str:
    """How this sheet joins its neighbours, in the order a player does it."""
    number = tile.number
    steps = []
    if tile.cut is not None:
        steps.append(
            f"cut along the dashed line, lay it over sheet {number + 1} matching the marks"
        )
    if tile.glue is not None:
        steps.append(f"sheet {number - 1} goes over the grey strip, its marks on these")
    return f"sheet {number} of {sheets}: " + "; ".join(steps) + "; glue or tape from behind"


def tile_pages(
    board: Board, tiled: TiledBoard, picture: NDArray[np.uint8], deck_title: str | None
) -> list[RasterPage]:
    """A page per sheet: its part of `picture` (the whole board at the tiled scale), its
    guides, and its footer."""
    width, height = tiled.size
    # Pixels per printed millimetre, from the picture itself, so each part is cut on whole
    # pixels and placed exactly where those pixels belong.
    per_x, per_y = picture.shape[1] / width, picture.shape[0] / height
    about = footer(board, tiled, deck_title)
    pages = []
    for tile in tiled.tiles:
        part = tile.part
        columns = (round(part.left * per_x), round(part.right * per_x))
        rows = (round(part.top * per_y), round(part.bottom * per_y))
        x, y = tile.origin
        area = Area(
            x + columns[0] / per_x,
            y + rows[0] / per_y,
            (columns[1] - columns[0]) / per_x,
            (rows[1] - rows[0]) / per_y,
        )
        guides: list[Guide] = []
        if tile.glue is not None:
            glue = tile.glue
            guides.append(Wash(Area(x + glue.left, y + glue.top, glue.width, glue.height)))
        if tile.cut is not None:
            (x0, y0), (x1, y1) = tile.cut
            guides.append(CutLine((x + x0, y + y0), (x + x1, y + y1)))
        guides += [RegistrationMark((x + mx, y + my), MARK_RADIUS) for mx, my in tile.marks]
        centre = tile.paper.width / 2
        notes = (
            Note(assembly_note(tile, tiled.sheets), centre, tile.footer_baseline),
            Note(about, centre, tile.footer_baseline + LINE_GAP),
        )
        crop = picture[rows[0] : rows[1], columns[0] : columns[1]]
        pages.append(RasterPage(tile.paper, crop, area, notes, tuple(guides)))
    return pages


def write_board(
    board: Board,
    out: Path,
    *,
    paper: str,
    quadrant_names: Sequence[str] | None = None,
    deck_title: str | None = None,
    dpi: int = DEFAULT_DPI,
    one_sheet: bool = False,
) -> PrintedBoard:
    """Writes `board` fitted to `paper` to `out` (.pdf or .png), atomically: on one sheet,
    or tiled over several when one sheet's places are too small (unless `one_sheet`).

    Raises UserError for an unknown paper, a bad resolution, a tiled board asked for as a
    PNG or an output it cannot write.
    """
    kind = output_kind(out)
    check_dpi(dpi)
    sheet = plan_board(board, paper, one_sheet=one_sheet)
    if kind == "png" and isinstance(sheet, TiledBoard):
        raise UserError(
            f"on {sheet.paper.name} the board prints on {sheet.sheets} sheets, which one "
            f"PNG cannot hold: write a .pdf, or add --one-sheet"
        )
    check_writable(out)
    picture = board_picture(board, sheet, dpi, quadrant_names)
    warnings = [w for w in (sheet.warning(),) if w is not None]
    if kind == "png":
        encoded, png = cv2.imencode(".png", as_grey_if_neutral(picture))
        if not encoded:
            raise RuntimeError("OpenCV could not encode the board as PNG")
        write_output(out, png_with_dpi(png.tobytes(), dpi))
    elif isinstance(sheet, TiledBoard):
        pages = tile_pages(board, sheet, picture, deck_title)
        fonts = note_fonts(pages)
        warnings += fonts.warnings
        title = f"{board.name} board, {sheet.label} on {sheet.sheets} sheets"
        write_output(
            out, raster_pdf(pages, fonts=fonts, title=title, creator="companion print board")
        )
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
