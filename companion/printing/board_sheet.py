"""Fitting a board's sheet onto paper: the scale, where the drawing goes, whether crystals fit.

Pure geometry in millimetres, x to the right and y down from the paper's top-left corner,
as in a board file. The whole sheet the board file describes (its white border included) is
scaled by a whole percentage, the largest that fits inside the printer margin with a band
for the footer line under it; the paper is turned like the board (landscape for a wide
board).

    sheet = plan_board_sheet(load_board(), "A2")
    sheet.label, sheet.drawing      # 'A2 at 136 %', Area(left=..., top=..., width=571.2, ...)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.errors import UserError
from vision.geometry import Board

BOARD_PAPERS: dict[str, tuple[float, float]] = {
    "A4": (297.0, 210.0),
    "A3": (420.0, 297.0),
    "A2": (594.0, 420.0),
    "Letter": (279.4, 215.9),
    "Tabloid": (431.8, 279.4),
}
"""The papers a board prints on: (long side, short side) in millimetres."""

MARGIN = 5.0
"""Nothing is printed this close to the paper's edge: most printers cannot print there."""
FOOTER_BAND = 5.0
"""The room under the drawing for the footer line."""
FOOTER_DROP = 3.5
"""From the drawing's bottom edge down to the footer's baseline."""
CRYSTAL_ROOM = 1.5
"""A place's printed disc should be at least this many crystal diameters across, so a
crystal lies inside it with the disc's outline showing round it for the camera."""
SMALLEST_PERCENT = 10


@dataclass(frozen=True, slots=True)
class PaperSheet:
    name: str
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class Area:
    left: float
    top: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def bottom(self) -> float:
        return self.top + self.height


@dataclass(frozen=True, slots=True)
class BoardSheet:
    paper: PaperSheet
    """Turned like the board: landscape for a board wider than it is tall."""
    percent: int
    drawing: Area
    """Where the board's whole sheet goes, exactly `scale` times its size."""
    footer_baseline: float
    """How far down the paper the footer line sits."""
    place_diameter: float
    """A place's printed disc, across."""
    crystal_diameter: float
    """The crystals the board file is drawn for."""

    @property
    def scale(self) -> float:
        return self.percent / 100

    @property
    def label(self) -> str:
        return f"{self.paper.name} at {self.percent} %"

    @property
    def crystals_fit(self) -> bool:
        """Whether the printed places take the board's crystals."""
        return self.warning() is None

    def warning(self) -> str | None:
        """One line when the places print too small for the board's crystals, else None."""
        return small_places_warning(self.label, self.place_diameter, self.crystal_diameter)


def board_paper(name: str, *, portrait: bool = False) -> PaperSheet:
    """'a2' or 'Tabloid' (any case) -> the paper, landscape unless `portrait`."""
    for key, (long, short) in BOARD_PAPERS.items():
        if key.lower() == name.lower():
            return PaperSheet(key, short, long) if portrait else PaperSheet(key, long, short)
    known = ", ".join(BOARD_PAPERS)
    raise UserError(f"unknown paper {name!r} for the board (known: {known})")


def plan_board_sheet(board: Board, paper_name: str) -> BoardSheet:
    """Where `board`'s sheet goes on the named paper, and at what scale."""
    paper = board_paper(paper_name, portrait=board.height > board.width)
    room_width = paper.width - 2 * MARGIN
    room_height = paper.height - 2 * MARGIN - FOOTER_BAND
    fit = min(room_width / board.width, room_height / board.height)
    # A whole percentage, rounded down, so the scale printed is the scale a ruler finds.
    percent = math.floor(fit * 100 + 1e-9)
    if percent < SMALLEST_PERCENT:
        raise UserError(
            f"the board ({board.width:g} x {board.height:g} mm) would print at {percent} % "
            f"on {paper.name}; use larger paper"
        )
    scale = percent / 100
    width, height = board.width * scale, board.height * scale
    drawing = Area(
        left=(paper.width - width) / 2,
        top=MARGIN + (room_height - height) / 2,
        width=width,
        height=height,
    )
    return BoardSheet(
        paper=paper,
        percent=percent,
        drawing=drawing,
        footer_baseline=drawing.bottom + FOOTER_DROP,
        place_diameter=2 * board.place_radius * scale,
        crystal_diameter=board.crystal_diameter,
    )


def small_places_warning(where: str, place_diameter: float, crystal_diameter: float) -> str | None:
    """One line when places printed `place_diameter` across are too small for the board's
    crystals, else None; `where` names the print ("A4 at 87 %")."""
    largest = place_diameter / CRYSTAL_ROOM
    if largest >= crystal_diameter:
        return None
    return (
        f"{where}: small, crystals up to ~{round(largest * 2) / 2:g} mm (places print "
        f"{place_diameter:.1f} mm across; the board is drawn for {crystal_diameter:g} mm "
        "crystals)"
    )
