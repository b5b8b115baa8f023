"""A board's printed geometry, in millimetres: the one description the printer draws and the
camera reads.

A board file (TOML, see vision/boards/memwars.toml) names the markers (ArUco id, centre,
side), the places, the quadrant claim diamonds, the deck area and bare paper points (the
diamonds and the deck are optional: the MeM board, vision/boards/mem.toml, has neither). All
lengths are millimetres on the sheet, x to the right and y down from its top-left corner,
North at the top. Scale does not matter to the reader (only the markers' relative
positions do), so `companion print board` may print the same file on any paper.

    board = load_board()                       # the MemWars board shipped with the package
    board.places[0].number, board.places[0].centre      # 1, (38.0, 38.0)
    board.marker_corners(0)                    # 4 x (x, y), ArUco's corner order
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.common.errors import UserError
from vision.common.files import parsing, read_input_text

BOARDS_DIR = Path(__file__).parent / "boards"
DEFAULT_BOARD = BOARDS_DIR / "memwars.toml"

Point = tuple[float, float]

RIM_INSET = 3.0
"""How far in from the sheet's edge the rim is watched (markers start further in)."""
RIM_STEP = 4.0
BEYOND_RIM = 10.0
"""How far out from the sheet's edge the table beside each rim point is looked at."""

MARKER_DICTIONARIES = ("DICT_4X4_50", "DICT_4X4_100", "DICT_5X5_50", "DICT_5X5_100")
"""The ArUco dictionaries a board may use (small ones: fewer false detections)."""


@dataclass(frozen=True, slots=True)
class Marker:
    id: int
    centre: Point
    size: float
    """The side of the black square, in millimetres."""

    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Top-left, top-right, bottom-right, bottom-left: ArUco's order for an upright marker."""
        x, y = self.centre
        h = self.size / 2
        return ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h))


@dataclass(frozen=True, slots=True)
class Zone:
    """Somewhere crystals are put and read: a place or a quadrant claim diamond."""

    key: str
    """'1'..'100' for places, 'diamond-1'..'diamond-4' for claim diamonds."""
    centre: Point
    radius: float
    """How far from the centre crystals are looked for."""


@dataclass(frozen=True, slots=True)
class Rect:
    left: float
    top: float
    width: float
    height: float

    @property
    def centre(self) -> Point:
        return (self.left + self.width / 2, self.top + self.height / 2)

    @property
    def empty(self) -> bool:
        """No area: what a board without a deck area has for one."""
        return self.width <= 0 or self.height <= 0

    def corners(self) -> tuple[Point, Point, Point, Point]:
        r, b = self.left + self.width, self.top + self.height
        return ((self.left, self.top), (r, self.top), (r, b), (self.left, b))


@dataclass(frozen=True, slots=True)
class Place:
    number: int
    centre: Point


@dataclass(frozen=True, slots=True)
class Diamond:
    quadrant: int
    centre: Point
    radius: float
    """Half a diagonal."""


@dataclass(frozen=True, slots=True)
class Board:
    name: str
    game: str
    width: float
    height: float
    marker_dictionary: str
    crystal_diameter: float
    counter_size: float
    place_radius: float
    zone_radius: float
    markers: tuple[Marker, ...]
    places: tuple[Place, ...]
    diamonds: tuple[Diamond, ...]
    deck: Rect
    """Where the deck lies; an empty Rect on a board without one."""
    paper: tuple[Point, ...]
    """Bare paper, away from every line and number: where the light is measured."""

    source: str = ""
    calibration_places: tuple[int, ...] = ()
    """Places for the calibration pieces, one a colour, in order (the board file's
    optional `[calibration] places`); () for the usual two places a colour."""

    def marker(self, marker_id: int) -> Marker | None:
        for marker in self.markers:
            if marker.id == marker_id:
                return marker
        return None

    def marker_corners(self, marker_id: int) -> tuple[Point, Point, Point, Point]:
        marker = self.marker(marker_id)
        if marker is None:
            raise KeyError(marker_id)
        return marker.corners()

    def place(self, number: int) -> Place:
        for place in self.places:
            if place.number == number:
                return place
        raise KeyError(number)

    def zones(self) -> tuple[Zone, ...]:
        """Every place, then every claim diamond, in that order."""
        places = tuple(Zone(str(p.number), p.centre, self.zone_radius) for p in self.places)
        diamonds = tuple(
            Zone(f"diamond-{d.quadrant}", d.centre, d.radius * 0.6) for d in self.diamonds
        )
        return places + diamonds

    def rim(self, inset: float = RIM_INSET, step: float = RIM_STEP) -> tuple[Point, ...]:
        """Points round the sheet, `inset` millimetres in from its edge, clockwise from the
        top-left corner. An arm reaching over the board must cross them."""
        return tuple(point for point, _side in self._rim(inset, step))

    def rim_sides(self, inset: float = RIM_INSET, step: float = RIM_STEP) -> tuple[int, ...]:
        """For each rim point, its side: 0 top, 1 right, 2 bottom, 3 left."""
        return tuple(side for _point, side in self._rim(inset, step))

    def beyond_rim(
        self, out: float = BEYOND_RIM, inset: float = RIM_INSET, step: float = RIM_STEP
    ) -> tuple[Point, ...]:
        """For each rim point, the table `out` millimetres beyond the sheet's edge from it:
        an arm crossing the rim covers that too, an edge seen a little off does not."""
        shifts = ((0.0, -1.0), (1.0, 0.0), (0.0, 1.0), (-1.0, 0.0))
        beyond = []
        for (x, y), side in self._rim(inset, step):
            dx, dy = shifts[side]
            distance = out + inset
            beyond.append((x + dx * distance, y + dy * distance))
        return tuple(beyond)

    def _rim(self, inset: float, step: float) -> list[tuple[Point, int]]:
        w, h = self.width - 2 * inset, self.height - 2 * inset
        points: list[tuple[Point, int]] = []
        sides = (
            (w, (inset, inset), (1.0, 0.0)),
            (h, (self.width - inset, inset), (0.0, 1.0)),
            (w, (self.width - inset, self.height - inset), (-1.0, 0.0)),
            (h, (inset, self.height - inset), (0.0, -1.0)),
        )
        for side, (length, start, direction) in enumerate(sides):
            count = max(1, int(length // step))
            for k in range(count):
                along = k * length / count
                point = (start[0] + direction[0] * along, start[1] + direction[1] * along)
                points.append((point, side))
        return points

    @property
    def play_area(self) -> Rect:
        """The smallest rectangle holding every place's disc."""
        xs = [p.centre[0] for p in self.places]
        ys = [p.centre[1] for p in self.places]
        r = self.place_radius
        return Rect(min(xs) - r, min(ys) - r, max(xs) - min(xs) + 2 * r, max(ys) - min(ys) + 2 * r)


def load_board(path: Path | str | None = None) -> Board:
    """Read and check a board file; the MemWars board when no path is given."""
    file = Path(path) if path is not None else DEFAULT_BOARD
    if not os.path.lexists(file):
        raise UserError("no such board file", where=str(file))
    text = read_input_text(file, "board file")
    try:
        with parsing(str(file), "board file"):
            data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise UserError(f"not valid TOML: {error}", where=str(file)) from None
    try:
        with parsing(str(file), "board description"):
            return _board(data, str(file))
    except (KeyError, TypeError, ValueError) as error:
        raise UserError(f"not a board description: {_reason(error)}", where=str(file)) from None


def _reason(error: Exception) -> str:
    if isinstance(error, KeyError):
        return f"missing {error.args[0]}"
    return str(error)


def _board(data: dict[str, Any], source: str) -> Board:
    head = data["board"]
    board = Board(
        name=str(head["name"]),
        game=str(head["game"]),
        width=_length(head["width"], "board.width"),
        height=_length(head["height"], "board.height"),
        marker_dictionary=str(head["marker_dictionary"]),
        crystal_diameter=_length(head["crystal_diameter"], "board.crystal_diameter"),
        counter_size=_length(head["counter_size"], "board.counter_size"),
        place_radius=_length(head["place_radius"], "board.place_radius"),
        zone_radius=_length(head["zone_radius"], "board.zone_radius"),
        markers=tuple(
            Marker(int(m["id"]), _point(m["centre"], "markers.centre"), _length(m["size"], "size"))
            for m in data["markers"]
        ),
        places=tuple(
            Place(int(p["number"]), _point(p["centre"], "places.centre")) for p in data["places"]
        ),
        diamonds=tuple(
            Diamond(
                int(d["quadrant"]),
                _point(d["centre"], "diamonds.centre"),
                _length(d["radius"], "diamonds.radius"),
            )
            for d in data.get("diamonds", [])
        ),
        deck=_deck(data.get("deck")),
        paper=tuple(_point(p, "paper.points") for p in data.get("paper", {}).get("points", [])),
        source=source,
        calibration_places=tuple(int(p) for p in data.get("calibration", {}).get("places", [])),
    )
    _check(board)
    return board


def _deck(table: Any) -> Rect:
    if table is None:
        return Rect(0.0, 0.0, 0.0, 0.0)
    return Rect(*(float(table[k]) for k in ("left", "top", "width", "height")))


def _length(value: Any, name: str) -> float:
    number = float(value)
    if not number > 0:
        raise ValueError(f"{name} must be a positive length, got {value!r}")
    return number


def _point(value: Any, name: str) -> Point:
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError(f"{name} must be [x, y], got {value!r}")
    return (float(value[0]), float(value[1]))


def _check(board: Board) -> None:
    if board.marker_dictionary not in MARKER_DICTIONARIES:
        raise ValueError(
            f"marker_dictionary {board.marker_dictionary!r} is not one of "
            + ", ".join(MARKER_DICTIONARIES)
        )
    ids = [m.id for m in board.markers]
    if len(set(ids)) != len(ids):
        raise ValueError("two markers share an id")
    limit = int(board.marker_dictionary.rsplit("_", 1)[1])
    if any(not 0 <= i < limit for i in ids):
        raise ValueError(f"marker ids must be 0..{limit - 1} in {board.marker_dictionary}")
    if len(board.markers) < 4:
        raise ValueError("a board needs at least 4 markers")
    numbers = [p.number for p in board.places]
    if len(set(numbers)) != len(numbers):
        raise ValueError("two places share a number")
    if not board.places:
        raise ValueError("a board needs places")
    unknown = set(board.calibration_places) - set(numbers)
    if unknown:
        raise ValueError(f"calibration place {min(unknown)} is not a place")
    if len(set(board.calibration_places)) != len(board.calibration_places):
        raise ValueError("a calibration place is named twice")
    for x, y in [p.centre for p in board.places] + [m.centre for m in board.markers]:
        if not (0 <= x <= board.width and 0 <= y <= board.height):
            raise ValueError(
                f"({x:g}, {y:g}) lies outside the {board.width:g} x {board.height:g} sheet"
            )
