"""A PDF of pictures at exact physical sizes, with small vector text beside them.

The board and the counters are drawn once, as pixels (vision/board_art.py and
vision/counter_art.py, the same drawings the virtual camera films); this puts such a picture
on a page at a given place and size in millimetres, and adds notes (the scale, how to print)
as text, sharp at any printer resolution.

    page = RasterPage(paper, picture, Area(12.6, 8.0, 394.8, 279.2), (Note("...", 210, 292),))
    pdf = raster_pdf([page], fonts=note_fonts([page]), title="MemWars board", creator="...")

A page may also carry guides for putting sheets together, drawn over the picture as thin
vector lines: a dashed cut line, registration marks (a ring and a cross) and a light wash
over a glue strip.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from PIL import Image
from reportlab.lib.colors import Color
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from companion.printing.board_sheet import Area, PaperSheet
from companion.printing.fonts import Fonts, Labelled, choose_fonts
from companion.printing.layout import MM

NOTE_SIZE = 6.5
"""Points."""
NOTE_COLOUR = Color(0.42, 0.42, 0.45)
GUIDE_COLOUR = Color(0.1, 0.1, 0.1)
GUIDE_WIDTH = 0.2
"""Millimetres: thin, so a mark's centre is exact, yet printed by any printer."""
CUT_DASH = (2.0, 1.5)
"""Millimetres of line, then of gap."""
WASH = Color(0.55, 0.55, 0.55, alpha=0.18)
"""Light enough that the board under a glue strip still shows."""


@dataclass(frozen=True, slots=True)
class Note:
    text: str
    centre: float
    """Millimetres from the paper's left edge."""
    baseline: float
    """Millimetres from the paper's top edge."""


@dataclass(frozen=True, slots=True)
class CutLine:
    """A dashed line from `start` to `end`, millimetres from the paper's top-left corner."""

    start: tuple[float, float]
    end: tuple[float, float]


@dataclass(frozen=True, slots=True)
class RegistrationMark:
    """A ring with a cross through it, its arms `radius` long."""

    centre: tuple[float, float]
    radius: float


@dataclass(frozen=True, slots=True)
class Wash:
    """A light grey wash over an area of the page."""

    area: Area


Guide = CutLine | RegistrationMark | Wash


@dataclass(frozen=True, slots=True)
class RasterPage:
    paper: PaperSheet
    picture: NDArray[np.uint8]
    """BGR (as OpenCV draws) or grey."""
    area: Area
    """Where the picture goes, stretched to exactly this size."""
    notes: tuple[Note, ...] = ()
    guides: tuple[Guide, ...] = ()


def as_pillow(picture: NDArray[np.uint8]) -> Image.Image:
    """A Pillow image of `picture`: grey when every pixel is grey (a third of the size)."""
    if picture.ndim == 2:
        return Image.fromarray(picture, "L")
    blue = picture[:, :, 0]
    if np.array_equal(blue, picture[:, :, 1]) and np.array_equal(blue, picture[:, :, 2]):
        return Image.fromarray(np.ascontiguousarray(blue), "L")
    return Image.fromarray(np.ascontiguousarray(picture[:, :, ::-1]), "RGB")


def as_grey_if_neutral(picture: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """`picture` with one channel when its three are equal, for smaller files."""
    image = as_pillow(picture)
    if image.mode == "L":
        return np.asarray(image)
    return picture


def note_fonts(pages: Sequence[RasterPage]) -> Fonts:
    """The font for the pages' notes (its warnings say which characters it cannot print)."""
    return choose_fonts(Labelled("the page notes", n.text) for p in pages for n in p.notes)


def raster_pdf(pages: Sequence[RasterPage], *, fonts: Fonts, title: str, creator: str) -> bytes:
    """The PDF's bytes: one page per RasterPage, each the size of its paper."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, invariant=1)
    canvas.setTitle(title)
    canvas.setCreator(creator)
    for page in pages:
        height = page.paper.height * MM
        canvas.setPageSize((page.paper.width * MM, height))
        area = page.area
        canvas.drawImage(
            ImageReader(as_pillow(page.picture)),
            area.left * MM,
            height - area.bottom * MM,
            width=area.width * MM,
            height=area.height * MM,
            preserveAspectRatio=False,
        )
        _draw_guides(canvas, page.guides, height)
        canvas.setFillColor(NOTE_COLOUR)
        canvas.setFont(fonts.regular, NOTE_SIZE)
        for note in page.notes:
            canvas.drawCentredString(note.centre * MM, height - note.baseline * MM, note.text)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _draw_guides(canvas: Canvas, guides: Sequence[Guide], page_height: float) -> None:
    """The guides over the picture: washes first, so lines and marks stay dark on them."""

    def at(point: tuple[float, float]) -> tuple[float, float]:
        return point[0] * MM, page_height - point[1] * MM

    canvas.saveState()
    canvas.setFillColor(WASH)
    for wash in (g for g in guides if isinstance(g, Wash)):
        area = wash.area
        canvas.rect(*at((area.left, area.bottom)), area.width * MM, area.height * MM, 0, 1)
    canvas.setStrokeColor(GUIDE_COLOUR)
    canvas.setLineWidth(GUIDE_WIDTH * MM)
    canvas.setDash([CUT_DASH[0] * MM, CUT_DASH[1] * MM])
    for line in (g for g in guides if isinstance(g, CutLine)):
        canvas.line(*at(line.start), *at(line.end))
    canvas.setDash()
    for mark in (g for g in guides if isinstance(g, RegistrationMark)):
        (x, y), arm = mark.centre, mark.radius
        canvas.line(*at((x - arm, y)), *at((x + arm, y)))
        canvas.line(*at((x, y - arm)), *at((x, y + arm)))
        canvas.circle(*at((x, y)), arm * 0.6 * MM, 1, 0)
    canvas.restoreState()
