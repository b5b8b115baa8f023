"""Where the topology counters go on their sheet: pure geometry, no drawing.

The 36 counters of the box (MW-C7: 12 each of 5, 3 and 2) go on one sheet of A4 or Letter,
portrait, in rows of six, centred. The front page shows their pips, the back page their
logo ring; a back sits in the mirrored column, so after a flip on the long edge it lands
behind its front. Each tile's dark ink runs BLEED past its cut line, so a back printed a
little off still covers the tile to its edge, and a white GUTTER separates neighbours.

Millimetres, x to the right and y down from the page's top-left corner.

    sheet = plan_counter_sheet("A4", size=11)
    sheet.tiles[0]      # Tile(value=5, front=Area(left=..., top=..., width=11, height=11), ...)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.errors import UserError
from companion.games.memwars.setup import COUNTER_VALUES
from companion.printing.board_sheet import Area, PaperSheet
from companion.printing.layout import MM, PAPERS

COUNTERS_PER_VALUE = 12
"""How many counters of each value the box holds (MW-C7)."""
SMALLEST_SIZE = 6.0
"""Below this the pips are too small to see across a table."""
BLEED = 1.0
"""How far a tile's dark ink reaches past its cut line."""
GUTTER = 2.0
"""White between the bleeds of neighbouring tiles."""
MARGIN = 10.0
"""Between the page's edge and the block of tiles; the page note sits in the bottom one."""
COLUMNS = 6
NOTE_DROP = 5.0
"""From the page's bottom edge up to the page note's baseline."""


@dataclass(frozen=True, slots=True)
class Tile:
    value: int
    row: int
    column: int
    """As the front page is seen from its printed side."""
    front: Area
    """The cut line on the front page."""
    back: Area
    """The cut line on the back page, behind `front` once the sheet is flipped."""


@dataclass(frozen=True, slots=True)
class CounterSheet:
    paper: PaperSheet
    size: float
    tiles: tuple[Tile, ...]
    note_baseline: float


def counter_values() -> tuple[int, ...]:
    """Every counter in the box, in print order: the 5s, then the 3s, then the 2s."""
    return tuple(value for value in COUNTER_VALUES for _ in range(COUNTERS_PER_VALUE))


def counter_paper(name: str) -> PaperSheet:
    """'a4' or 'Letter' (any case) -> the paper, portrait."""
    for key, paper in PAPERS.items():
        if key.lower() == name.lower():
            return PaperSheet(key, paper.width / MM, paper.height / MM)
    raise UserError(f"unknown paper {name!r} for the counters (known: {', '.join(PAPERS)})")


def plan_counter_sheet(paper_name: str, size: float) -> CounterSheet:
    """Every counter's tile on the named paper; UserError when they do not fit one sheet."""
    paper = counter_paper(paper_name)
    if not size >= SMALLEST_SIZE:
        raise UserError(f"counters of {size:g} mm are too small: {SMALLEST_SIZE:g} mm at least")
    layout = _layout(paper, size)
    if layout is None:
        raise UserError(
            f"{len(counter_values())} counters of {size:g} mm do not fit on one sheet of "
            f"{paper.name}: {largest_size(paper):g} mm at most"
        )
    columns, rows = layout
    pitch = size + 2 * BLEED + GUTTER
    block_width = columns * pitch - GUTTER
    block_height = rows * pitch - GUTTER
    left = (paper.width - block_width) / 2 + BLEED
    top = (paper.height - block_height) / 2 + BLEED
    tiles = []
    for index, value in enumerate(counter_values()):
        row, column = divmod(index, columns)
        front = Area(left + column * pitch, top + row * pitch, size, size)
        back = Area(paper.width - front.right, front.top, size, size)
        tiles.append(Tile(value, row, column, front, back))
    return CounterSheet(paper, size, tuple(tiles), paper.height - NOTE_DROP)


def largest_size(paper: PaperSheet) -> float:
    """The largest tile (to half a millimetre) of which a whole box fits on `paper`."""
    size = SMALLEST_SIZE
    while _layout(paper, size + 0.5) is not None:
        size += 0.5
    return size


def _layout(paper: PaperSheet, size: float) -> tuple[int, int] | None:
    """(columns, rows) for every counter on one page, or None when they do not fit."""
    pitch = size + 2 * BLEED + GUTTER
    fitting_columns = math.floor((paper.width - 2 * MARGIN + GUTTER) / pitch)
    columns = min(COLUMNS, fitting_columns)
    if columns < 1:
        return None
    rows = math.ceil(len(counter_values()) / columns)
    if rows * pitch - GUTTER > paper.height - 2 * MARGIN:
        return None
    return columns, rows
