"""The memento ludis board as data: points, lines, straight runs, transfers across the edge,
triangle membership, and a drawing position for every point.

Four triangles of 7 points each (3 corners, 3 median points, 1 middle, ML-B1) make one big
triangle: `top`, `left` and `right` at the big corners, and `inner` upside down between
them. House rule ml.geometry (ML-A01) decides whether the triangles keep their own points
(SEPARATE, 28 points, the default) or share the corners and sides where they meet
(SHARED, 19 points); ml.lines (ML-A02) whether a median is one straight line
corner-middle-median point (MEDIANS) or two spokes that bend at the middle (SPOKES).

Inside each triangle the 7 points are listed as (c0, c1, c2, m01, m12, m20, M): the corners
clockwise, the median point of each side, then the middle. Positions are (x, y) in a big
triangle with its apex at (0.5, 0) and its base from (0, 1) to (1, 1), y pointing down as
on a screen.

    board = board_for("SEPARATE", "MEDIANS", "ONE_STEP")
    board.names[0]          # 'top apex'
    board.links[0]          # the points a figure leaving the board at the apex re-enters
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

TRIANGLES = ("top", "left", "right", "inner")
TOP, LEFT, RIGHT, INNER = range(4)
CORNERS = (0, 1, 2)
MEDIANS = (3, 4, 5)
MIDDLE = 6

_BIG_APEX = (0.5, 0.0)
_BIG_LEFT = (0.0, 1.0)
_BIG_RIGHT = (1.0, 1.0)
_MID_LEFT = (0.25, 0.5)
_MID_RIGHT = (0.75, 0.5)
_MID_BASE = (0.5, 1.0)

# Corner positions of each triangle, clockwise on the screen (c0, c1, c2).
_CORNER_XY = (
    (_BIG_APEX, _MID_RIGHT, _MID_LEFT),
    (_MID_LEFT, _MID_BASE, _BIG_LEFT),
    (_MID_RIGHT, _BIG_RIGHT, _MID_BASE),
    (_MID_BASE, _MID_LEFT, _MID_RIGHT),
)
_UPRIGHT_ROLES = ("apex", "right corner", "left corner", "right side", "base", "left side")
_INNER_ROLES = (
    "bottom corner",
    "left corner",
    "right corner",
    "left side",
    "top side",
    "right side",
)

SHRINK = 0.8
"""Under SEPARATE geometry each triangle is drawn shrunk about its middle by this much, so
the three corner points of a constellation show as three points."""


def _separate_id(triangle: int, role: int) -> int:
    return triangle * 7 + role


# The constellations of ML-B2 (three corners meeting at the middle of a big side) and the
# big corners, in SEPARATE numbering.
CONSTELLATIONS_28 = (
    ("left", (_separate_id(TOP, 2), _separate_id(LEFT, 0), _separate_id(INNER, 1))),
    ("right", (_separate_id(TOP, 1), _separate_id(RIGHT, 0), _separate_id(INNER, 2))),
    ("bottom", (_separate_id(LEFT, 1), _separate_id(RIGHT, 2), _separate_id(INNER, 0))),
)
BIG_CORNERS_28 = (_separate_id(TOP, 0), _separate_id(LEFT, 2), _separate_id(RIGHT, 1))
OPPOSITE = {0: "bottom", 1: "right", 2: "left"}
"""Big corner (index into BIG_CORNERS_28) -> the constellation across the board (ML-B4)."""


@dataclass(frozen=True, slots=True)
class Board:
    geometry: str
    lines: str
    wrap_cost: str
    names: tuple[str, ...]
    xy: tuple[tuple[float, float], ...]
    kinds: tuple[str, ...]
    """'corner', 'median' or 'middle' for each point."""
    triangles: tuple[tuple[int, ...], ...]
    """Each triangle's 7 points as (c0, c1, c2, m01, m12, m20, M)."""
    triangles_of: tuple[tuple[int, ...], ...]
    """The triangles each point belongs to (several only under SHARED geometry)."""
    middles: tuple[int, ...]
    big_corners: tuple[int, ...]
    constellations: tuple[tuple[int, ...], ...]
    """Left, right and bottom: the corner points that meet at the middle of a big side (one
    point each under SHARED geometry)."""
    runs: tuple[tuple[int, ...], ...]
    """The straight runs, in order along the line; a run's ends are its bends."""
    neighbours: tuple[tuple[int, ...], ...]
    links: tuple[tuple[int, ...], ...]
    """Where a figure leaving the board at a point may re-enter (ML-B4); empty for points
    that are not exits."""
    steps: tuple[tuple[int, ...], ...]
    """One step's reach: neighbours and transfers, as ml.wrapCost counts them (ML-A03)."""
    slides: tuple[SlideTree, ...]
    """Each point's straight slides for a Double (ML-T3a), before figures stop them."""

    @property
    def size(self) -> int:
        return len(self.names)

    def in_inner(self, point: int) -> bool:
        return INNER in self.triangles_of[point]

    def median_points(self, triangle: int) -> tuple[int, ...]:
        return tuple(self.triangles[triangle][r] for r in MEDIANS)

    def rotation(self, triangle: int, how: str) -> dict[int, int]:
        """Where each point of `triangle` goes when it is turned `how` (ML-A06): a
        permutation of its 7 points, middle fixed for a rotation."""
        points = self.triangles[triangle]
        return {points[r]: points[to] for r, to in enumerate(TURNS[how])}


SlideNode = tuple[int, bool, tuple["SlideNode", ...]]
"""(point, a slide may stop here when it is empty, what the slide may go on to)."""
SlideTree = tuple[SlideNode, ...]

TURNS: dict[str, tuple[int, ...]] = {
    # Role r goes to role TURNS[how][r]; roles are (c0, c1, c2, m01, m12, m20, M).
    "clockwise": (1, 2, 0, 4, 5, 3, 6),
    "anticlockwise": (2, 0, 1, 5, 3, 4, 6),
    # A reflection in the median through corner k keeps c_k and the opposite median point.
    "flip0": (0, 2, 1, 5, 4, 3, 6),
    "flip1": (2, 1, 0, 4, 3, 5, 6),
    "flip2": (1, 0, 2, 3, 5, 4, 6),
}
TURNS_BY_KIND = {"ROTATE": ("clockwise", "anticlockwise"), "FLIP": ("flip0", "flip1", "flip2")}


def _centre(corners: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    return (sum(c[0] for c in corners) / 3, sum(c[1] for c in corners) / 3)


def _separate_points() -> list[tuple[str, tuple[float, float], str, int]]:
    """The 28 points of SEPARATE geometry: (name, exact position, kind, triangle)."""
    out = []
    for t, corners in enumerate(_CORNER_XY):
        roles = _INNER_ROLES if t == INNER else _UPRIGHT_ROLES
        mids = [
            ((corners[i][0] + corners[j][0]) / 2, (corners[i][1] + corners[j][1]) / 2)
            for i, j in ((0, 1), (1, 2), (2, 0))
        ]
        for r, xy in enumerate((*corners, *mids)):
            kind = "corner" if r < 3 else "median"
            out.append((f"{TRIANGLES[t]} triangle's {roles[r]}", xy, kind, t))
        out.append((f"{TRIANGLES[t]} triangle's middle", _centre(corners), "middle", t))
    return out


def _triangle_runs(t: int, lines: str) -> list[tuple[int, ...]]:
    """A triangle's straight runs in SEPARATE numbering (ML-B3, ML-A02)."""
    p = [_separate_id(t, r) for r in range(7)]
    runs: list[tuple[int, ...]] = [(p[0], p[3], p[1]), (p[1], p[4], p[2]), (p[2], p[5], p[0])]
    if lines == "MEDIANS":
        runs += [(p[0], p[6], p[4]), (p[1], p[6], p[5]), (p[2], p[6], p[3])]
    else:
        runs += [(p[6], p[r]) for r in range(6)]
    return runs


def _collinear(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> bool:
    return abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) < 1e-9


def _merge_straight(
    runs: list[tuple[int, ...]], xy: list[tuple[float, float]], shared: set[int]
) -> list[tuple[int, ...]]:
    """Joins runs that meet end to end in a straight line at a point two triangles share:
    under SHARED geometry the sides of two triangles along a big side are one line, and so
    is a median running on into the next triangle's median. A middle belongs to one
    triangle, so spokes still bend there."""
    runs = [tuple(r) for r in runs]
    merged = True
    while merged:
        merged = False
        for i, a in enumerate(runs):
            for j, b in enumerate(runs):
                if i == j:
                    continue
                for first in (a, a[::-1]):
                    for second in (b, b[::-1]):
                        if (
                            first[-1] == second[0]
                            and first[-1] in shared
                            and _collinear(xy[first[-2]], xy[first[-1]], xy[second[1]])
                        ):
                            runs = [r for k, r in enumerate(runs) if k not in (i, j)]
                            runs.append(first + second[1:])
                            merged = True
                            break
                    if merged:
                        break
                if merged:
                    break
            if merged:
                break
    return runs


@cache
def board_for(geometry: str, lines: str, wrap_cost: str) -> Board:
    """The board the house rules describe; built once per combination."""
    points = _separate_points()
    exact = [xy for _, xy, _, _ in points]
    if geometry == "SEPARATE":
        ids = list(range(28))
    else:
        # Points at the same place are one point (ML-A01 reading b).
        where: dict[tuple[float, float], int] = {}
        ids = []
        for xy in exact:
            key = (round(xy[0], 9), round(xy[1], 9))
            ids.append(where.setdefault(key, len(where)))
    size = max(ids) + 1
    names = [""] * size
    kinds = [""] * size
    xy_of: list[tuple[float, float]] = [(0.0, 0.0)] * size
    member: list[set[int]] = [set() for _ in range(size)]
    for old, (name, xy, kind, t) in enumerate(points):
        new = ids[old]
        member[new].add(t)
        if not names[new]:
            names[new], kinds[new] = name, kind
            if geometry == "SEPARATE":
                cx, cy = _centre(_CORNER_XY[t])
                xy = (cx + (xy[0] - cx) * SHRINK, cy + (xy[1] - cy) * SHRINK)
            xy_of[new] = (round(xy[0], 6), round(xy[1], 6))
    exact_new = [(0.0, 0.0)] * size
    for old, new in enumerate(ids):
        exact_new[new] = exact[old]
    triangles = tuple(tuple(ids[_separate_id(t, r)] for r in range(7)) for t in range(4))
    runs: list[tuple[int, ...]] = []
    seen: set[frozenset[int]] = set()
    for t in range(4):
        for run in _triangle_runs(t, lines):
            mapped = tuple(ids[p] for p in run)
            if frozenset(mapped) not in seen:
                seen.add(frozenset(mapped))
                runs.append(mapped)
    if geometry == "SHARED":
        shared = {p for p in range(size) if len(member[p]) > 1}
        runs = _merge_straight(runs, exact_new, shared)
    runs.sort()
    neighbours: list[set[int]] = [set() for _ in range(size)]
    for run in runs:
        for a, b in itertools.pairwise(run):
            neighbours[a].add(b)
            neighbours[b].add(a)
    big = tuple(ids[p] for p in BIG_CORNERS_28)
    groups = {name: tuple(dict.fromkeys(ids[p] for p in pts)) for name, pts in CONSTELLATIONS_28}
    links: list[set[int]] = [set() for _ in range(size)]
    for k, corner in enumerate(big):
        opposite = groups[OPPOSITE[k]]
        links[corner] |= set(big) - {corner}
        links[corner] |= set(opposite)
        for p in opposite:
            links[p].add(corner)
    for name, pts in groups.items():
        others = {p for other, q in groups.items() if other != name for p in q}
        for p in pts:
            links[p] |= others
    steps: list[tuple[int, ...]] = []
    for p in range(size):
        reach = neighbours[p] | links[p]
        if wrap_cost == "FREE":
            # A transfer costs nothing (ML-A03 reading b): leave before the step or after it.
            for q in links[p]:
                reach |= neighbours[q]
            for q in neighbours[p]:
                reach |= links[q]
        reach.discard(p)
        steps.append(tuple(sorted(reach)))
    frozen_links = tuple(tuple(sorted(x)) for x in links)
    board_runs = tuple(runs)
    return Board(
        geometry=geometry,
        lines=lines,
        wrap_cost=wrap_cost,
        names=tuple(names),
        xy=tuple(xy_of),
        kinds=tuple(kinds),
        triangles=triangles,
        triangles_of=tuple(tuple(sorted(m)) for m in member),
        middles=tuple(tri[MIDDLE] for tri in triangles),
        big_corners=big,
        constellations=tuple(groups[n] for n in ("left", "right", "bottom")),
        runs=board_runs,
        neighbours=tuple(tuple(sorted(n)) for n in neighbours),
        links=frozen_links,
        steps=tuple(steps),
        slides=tuple(_slide_tree(p, board_runs, frozen_links) for p in range(size)),
    )


def _rays(point: int, runs: tuple[tuple[int, ...], ...]) -> list[tuple[int, ...]]:
    """The points met going straight from `point` along each run through it, to the run's
    end, in both directions where the point is inside the run."""
    out = []
    for run in runs:
        if point not in run:
            continue
        i = run.index(point)
        if i + 1 < len(run):
            out.append(run[i + 1 :])
        if i > 0:
            out.append(run[:i][::-1])
    return out


def _slide_tree(
    start: int, runs: tuple[tuple[int, ...], ...], links: tuple[tuple[int, ...], ...]
) -> SlideTree:
    """Every straight slide from `start` (ML-T3a): along a run to its end, where the line
    bends; at an exit the slide may leave the board and re-enter straight (transfers are not
    bends), once per slide, then go on along any run from the entry point.

    Under ml.double.cornerStop=BEFORE_BEND the caller ignores the flag set on run ends."""

    def along(ray: tuple[int, ...], may_transfer: bool) -> SlideNode:
        point, rest = ray[0], ray[1:]
        if rest:
            return (point, True, (along(rest, may_transfer),))
        # The end of a run: a bend (flag False marks it for BEFORE_BEND).
        return (point, False, transfers(point) if may_transfer else ())

    def transfers(exit_point: int) -> tuple[SlideNode, ...]:
        return tuple(
            (entry, True, tuple(along(ray, False) for ray in _rays(entry, runs)))
            for entry in links[exit_point]
            if entry != start
        )

    return tuple(along(ray, True) for ray in _rays(start, runs)) + transfers(start)
