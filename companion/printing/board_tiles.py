"""The board on two or more sheets of small paper, cut and taped into one board.

Pure geometry in millimetres, like board_sheet. When the board fitted to one sheet of the
paper has places too small for its crystals (MemWars on A4 or Letter), it is printed larger
across a row of sheets turned the other way (portrait sheets side by side for a wide board).
Every sheet carries its part of the board at one scale; neighbouring sheets meet at a seam:

- the sheet before the seam carries the board up to the seam and a little past it (the
  bleed, so a cut slightly outside the line leaves board, not white paper), with a dashed
  cut line on the seam;
- the sheet after the seam carries the board from a strip before the seam (the glue strip,
  shaded), which the cut sheet covers;
- both carry registration marks centred on the seam at the same board coordinates: once
  the first sheet is cut, half of each mark stays on its edge and must continue the whole
  mark on the next sheet.

A seam never crosses an ArUco marker or the white round it (nor comes so close that a mark
would touch one), so every marker is printed whole on one sheet and the assembled board is
the single-sheet board at the same scale.

    tiled = plan_board(load_board(), "A4")   # a TiledBoard: 2 sheets at 87 %
    tiled.tiles[0].cut                       # the dashed line, in printed-board millimetres
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from companion.printing.board_sheet import (
    FOOTER_DROP,
    MARGIN,
    SMALLEST_PERCENT,
    Area,
    BoardSheet,
    PaperSheet,
    board_paper,
    plan_board_sheet,
    small_places_warning,
)
from vision.geometry import Board, Point

GLUE = 10.0
"""The strip of a sheet that the sheet before it is laid over: room for glue or tape."""
MARK_RADIUS = 3.0
"""A registration mark's arms reach this far from its centre (its ring a little less)."""
BLEED = MARK_RADIUS
"""How far a cut sheet's board runs past its cut line: as far as its marks reach, so
they print whole on the white round the board."""
FOOTER_LINES = 2
"""A tiled sheet's footer: how to put it together, then the board, paper and scale."""
LINE_GAP = 3.0
"""From one footer baseline to the next."""
TILED_FOOTER_BAND = FOOTER_DROP + LINE_GAP + 1.5
"""The room under a tiled sheet's drawing for its two footer lines."""
MOST_SHEETS = 4


@dataclass(frozen=True, slots=True)
class Tile:
    """One sheet of a tiled board. Board coordinates are printed millimetres from the
    printed board's top-left corner, x to the right and y down."""

    paper: PaperSheet
    number: int
    """1 for the first sheet."""
    part: Area
    """The part of the printed board this sheet carries."""
    origin: Point
    """Where the printed board's top-left corner lies on this paper (off it for all but the
    first sheet): paper position = origin + board position."""
    cut: tuple[Point, Point] | None
    """The dashed line to cut along, in board coordinates; None on the last sheet."""
    glue: Area | None
    """The strip the sheet before this one covers, in board coordinates; None on the first."""
    marks: tuple[Point, ...]
    """Registration marks' centres, in board coordinates: on both seams' sheets alike."""
    footer_baseline: float
    """How far down the paper the first footer line sits; the second is LINE_GAP lower."""

    @property
    def drawing(self) -> Area:
        """Where `part` goes on the paper."""
        x, y = self.origin
        part = self.part
        return Area(x + part.left, y + part.top, part.width, part.height)


@dataclass(frozen=True, slots=True)
class TiledBoard:
    paper: PaperSheet
    """Turned across the board: portrait for a board wider than it is tall."""
    percent: int
    size: tuple[float, float]
    """The whole printed board, width and height."""
    tiles: tuple[Tile, ...]
    place_diameter: float
    crystal_diameter: float

    @property
    def scale(self) -> float:
        return self.percent / 100

    @property
    def sheets(self) -> int:
        return len(self.tiles)

    @property
    def label(self) -> str:
        return f"{self.paper.name} at {self.percent} %"

    @property
    def crystals_fit(self) -> bool:
        """Whether the printed places take the board's crystals."""
        return self.warning() is None

    def warning(self) -> str | None:
        return small_places_warning(
            f"{self.label} on {self.sheets} sheets", self.place_diameter, self.crystal_diameter
        )


BoardPlan = BoardSheet | TiledBoard


def board_size(plan: BoardPlan) -> tuple[float, float]:
    """The printed board's width and height, whichever way it is printed."""
    if isinstance(plan, TiledBoard):
        return plan.size
    return plan.drawing.width, plan.drawing.height


def plan_board(board: Board, paper_name: str, *, one_sheet: bool = False) -> BoardPlan:
    """The board on one sheet of the paper, or tiled over the fewest sheets of it that
    give its crystals room when one sheet does not (and `one_sheet` is not asked for)."""
    single = plan_board_sheet(board, paper_name)
    if one_sheet or single.crystals_fit:
        return single
    tried = []
    for sheets in range(2, MOST_SHEETS + 1):
        tiled = plan_board_tiles(board, paper_name, sheets)
        if tiled is None:
            continue
        if tiled.crystals_fit:
            return tiled
        tried.append(tiled)
    # No number of sheets gives the crystals room: the largest print, with its warning.
    best = max(tried, key=lambda plan: plan.percent, default=None)
    return best if best is not None and best.percent > single.percent else single


def plan_board_tiles(board: Board, paper_name: str, sheets: int) -> TiledBoard | None:
    """`board` over `sheets` sheets of the paper, at the largest whole percentage whose
    seams miss every marker; None when no scale does."""
    wide = board.width >= board.height
    # Sheets side by side along the board's long side, each turned across it.
    paper = board_paper(paper_name, portrait=wide)
    room_width = paper.width - 2 * MARGIN
    room_height = paper.height - 2 * MARGIN - TILED_FOOTER_BAND
    length, breadth = (board.width, board.height) if wide else (board.height, board.width)
    room_along, room_across = (room_width, room_height) if wide else (room_height, room_width)
    fit = min(room_across / breadth, sheets * room_along / length)
    for percent in range(math.floor(fit * 100 + 1e-9), SMALLEST_PERCENT - 1, -1):
        scale = percent / 100
        blocked = [
            (start * scale - MARK_RADIUS, end * scale + MARK_RADIUS)
            for start, end in _marker_spans(board, along_x=wide)
        ]
        seams = _seams(length * scale, room_along, blocked, sheets)
        if seams is not None:
            return _tiled(board, paper, percent, seams, wide)
    return None


def _marker_spans(board: Board, *, along_x: bool) -> list[tuple[float, float]]:
    """Each marker with the white round it, as a span along the tiling's axis (design mm)."""
    # A marker of n x n bits is n + 2 modules across (its black border); one module of white
    # round it is its quiet zone (vision/board_art.py clears it).
    modules = int(board.marker_dictionary.split("_")[1].split("X")[0]) + 2
    spans = []
    for marker in board.markers:
        centre = marker.centre[0] if along_x else marker.centre[1]
        reach = marker.size / 2 + marker.size / modules
        spans.append((centre - reach, centre + reach))
    return spans


@dataclass(frozen=True, slots=True)
class Seam:
    at: float
    """The cut line, along the tiling's axis of the printed board."""
    next_start: float
    """Where the sheet after it starts: its glue strip runs from here to the seam."""


def _seams(
    length: float, room: float, blocked: Sequence[tuple[float, float]], sheets: int
) -> tuple[Seam, ...] | None:
    """Where the `sheets` - 1 seams go along a printed board `length` long, each sheet
    holding at most `room`, no seam inside a `blocked` span; None if they cannot."""
    seams: list[Seam] = []
    start = 0.0
    for number in range(1, sheets):
        after = sheets - number
        # The sheets after this seam must still reach the board's end: each but the last
        # moves on by its room less a glue strip and a bleed, the last by its whole room.
        lowest = length - room + GLUE - (after - 1) * (room - GLUE - BLEED)
        highest = min(start + room - BLEED, length - GLUE)
        seam = _nearest_clear(number * length / sheets, max(lowest, GLUE), highest, blocked)
        if seam is None:
            return None
        # The next sheet starts a glue strip before the seam, or further back if that edge
        # would cut a marker: a marker on a sheet is printed whole, covered or not.
        next_start = _nearest_clear(seam - GLUE, 0.0, seam - GLUE, blocked)
        if next_start is None:
            return None
        seams.append(Seam(seam, next_start))
        start = next_start
    if length - start > room + 1e-9:
        return None
    return tuple(seams)


def _nearest_clear(
    wanted: float, lowest: float, highest: float, blocked: Sequence[tuple[float, float]]
) -> float | None:
    """The point of [lowest, highest] outside every blocked span nearest `wanted`."""
    if lowest > highest:
        return None
    edges = sorted(blocked)
    free: list[tuple[float, float]] = []
    at = lowest
    for start, end in edges:
        if start > at:
            free.append((at, min(start, highest)))
        at = max(at, end)
        if at >= highest:
            break
    if at < highest:
        free.append((at, highest))
    candidates = [min(max(wanted, a), b) for a, b in free if a <= b]
    if not candidates:
        return None
    return min(candidates, key=lambda point: abs(point - wanted))


def _tiled(
    board: Board, paper: PaperSheet, percent: int, seams: Sequence[Seam], wide: bool
) -> TiledBoard:
    scale = percent / 100
    width, height = board.width * scale, board.height * scale
    length, breadth = (width, height) if wide else (height, width)
    # The registration marks sit on each seam in the outermost rows of markers, where the
    # board is white between the markers.
    across = [(m.centre[1] if wide else m.centre[0]) * scale for m in board.markers]
    rows = (min(across), max(across))
    room_width = paper.width - 2 * MARGIN
    room_height = paper.height - 2 * MARGIN - TILED_FOOTER_BAND
    tiles = []
    for index in range(len(seams) + 1):
        start = 0.0 if index == 0 else seams[index - 1].next_start
        end = length if index == len(seams) else seams[index].at + BLEED
        seam_marks = [seams[i].at for i in (index - 1, index) if 0 <= i < len(seams)]
        marks = tuple(_point(s, row, wide) for s in seam_marks for row in rows)
        cut = None
        if index < len(seams):
            at = seams[index].at
            cut = (_point(at, 0.0, wide), _point(at, breadth, wide))
        glue = None
        if index > 0:
            glue = _span(start, seams[index - 1].at, breadth, wide)
        part = _span(start, end, breadth, wide)
        # Each sheet's part centred in the room the printer and the footer leave.
        origin = (
            MARGIN + (room_width - part.width) / 2 - part.left,
            MARGIN + (room_height - part.height) / 2 - part.top,
        )
        tiles.append(
            Tile(
                paper=paper,
                number=index + 1,
                part=part,
                origin=origin,
                cut=cut,
                glue=glue,
                marks=marks,
                footer_baseline=origin[1] + part.bottom + FOOTER_DROP,
            )
        )
    return TiledBoard(
        paper=paper,
        percent=percent,
        size=(width, height),
        tiles=tuple(tiles),
        place_diameter=2 * board.place_radius * scale,
        crystal_diameter=board.crystal_diameter,
    )


def _point(along: float, across: float, wide: bool) -> Point:
    return (along, across) if wide else (across, along)


def _span(start: float, end: float, breadth: float, wide: bool) -> Area:
    """The band of the printed board from `start` to `end` along the tiling's axis."""
    if wide:
        return Area(start, 0.0, end - start, breadth)
    return Area(0.0, start, breadth, end - start)
