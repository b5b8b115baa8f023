"""Pixels of the zones and of the bare paper, straight from the camera frame.

Warping the whole sheet to a top-down picture would cost more than the rest of the reading;
instead every zone gets a small square patch (board millimetres -> image pixels through the
registration's mapping, one cv2.remap for all of them) and every paper point a tiny one.

    sampler = Sampler(board)
    patches = sampler.sample(image, fit.mapping)
    patches.zones.shape     # (points, 3): every zone's own points, BGR
    patches.paper.shape     # (paper points, k, k, 3)
    patches.inside          # per zone: did its patch fall inside the frame?
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.geometry import Board, Zone
from vision.lean import Lean
from vision.registration import BoardMapping

ZONE_PX_PER_MM = 1.5
PAPER_PATCH = 4
"""The side of a paper point's patch, in samples one millimetre apart."""
CORNER_MM = 16.0
"""How far along each edge from a corner of the sheet (about four rim points) its corner
reaches: what curls up first on a sheet that does not lie flat."""

_ROW = 512
Image = NDArray[np.uint8]
Floats = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Patches:
    zones: Image
    """(points, 3) BGR: every zone's own points, zone after zone (see Sampler.spans)."""
    paper: Image
    inside: NDArray[np.bool_]
    """Per zone: True when all its points lie within the frame."""
    paper_inside: NDArray[np.bool_]
    rim: Image
    """(rim points, 3) BGR round the sheet's edge: see Board.rim."""
    rim_inside: NDArray[np.bool_]
    beyond: Image
    """(rim points, 3) BGR of the table beyond each rim point: see Board.beyond_rim."""
    beyond_inside: NDArray[np.bool_]


def _grid(centre: tuple[float, float], half: float, count: int) -> Floats:
    steps = np.linspace(-half, half, count)
    xs, ys = np.meshgrid(centre[0] + steps, centre[1] + steps)
    return np.stack([xs, ys], axis=-1)


class Sampler:
    """Which board points to look at, and looking at them in a frame.

    Only a zone's own points are sampled (those nearer to it than to any other zone, within
    its radius): about half of its square, and so half the work. The projected sampling
    maps are kept while the mapping stays the same (a camera bolted over a still board)."""

    def __init__(
        self, board: Board, px_per_mm: float = ZONE_PX_PER_MM, lean: Lean | None = None
    ) -> None:
        self.zones: tuple[Zone, ...] = board.zones()
        radius = max(zone.radius for zone in self.zones)
        self.size = int(2 * round(radius * px_per_mm) + 1)
        self.mm_per_px = 2 * radius / (self.size - 1)
        squares = np.stack([_grid(zone.centre, radius, self.size) for zone in self.zones])
        # A pixel belongs to the nearest zone within that zone's radius: crystals pushed
        # aside on a crowded place still count there, never at the neighbour's.
        centres = np.array([zone.centre for zone in self.zones], np.float64)
        points = squares.reshape(len(self.zones), -1, 2)
        radii = np.array([zone.radius for zone in self.zones], np.float64)
        masks = []
        owners = []
        for index, zone in enumerate(self.zones):
            distances = np.linalg.norm(points[index][:, None, :] - centres[None, :, :], axis=-1)
            own = distances[:, index]
            masks.append((own <= zone.radius) & (own <= distances.min(axis=1) + 1e-9))
            nearest = distances.argmin(axis=1)
            within = distances[np.arange(len(nearest)), nearest] <= radii[nearest]
            owners.append(np.where(within, nearest, -1))
        self.masks = np.stack(masks).reshape(len(self.zones), self.size, self.size)
        """Per zone, the pixels of its square patch that are its own."""
        self.owners = np.stack(owners).astype(np.int16).reshape(self.masks.shape)
        """Per zone, the zone each pixel of its square patch belongs to (-1: none)."""
        flat_masks = self.masks.reshape(len(self.zones), -1)
        self.zone_of_point = np.concatenate(
            [np.full(int(m.sum()), i, np.int32) for i, m in enumerate(flat_masks)]
        )
        """For every sampled point, the index of its zone."""
        self.place_in_patch = np.concatenate([np.flatnonzero(m) for m in flat_masks])
        """For every sampled point, its index in its zone's flattened square patch."""
        self._counts = np.array([int(m.sum()) for m in flat_masks])
        ends = np.cumsum(self._counts)
        self.spans = tuple(zip([0, *ends[:-1].tolist()], ends.tolist(), strict=True))
        """Per zone, (first, end) of its points."""
        # Crystals are looked for where their pictures lean to, not at their feet.
        shift = (lean or Lean()).at(centres)
        self._zone_mm = (points + shift[:, None, :]).reshape(-1, 2)[flat_masks.reshape(-1)]
        self._looked_at = centres + shift
        """Per zone, the board point its square's middle pixel looks at."""
        half = (PAPER_PATCH - 1) / 2
        self._paper_mm = np.concatenate(
            [_grid(point, half, PAPER_PATCH) for point in board.paper]
        ).reshape(-1, 2)
        self.paper_points = np.array(board.paper, np.float64).reshape(-1, 2)
        self._rim_mm = np.array(board.rim(), np.float64)
        self._beyond_mm = np.array(board.beyond_rim(), np.float64)
        self.rim_sides = np.array(board.rim_sides(), np.int32)
        corners = np.array(
            [(0.0, 0.0), (board.width, 0.0), (board.width, board.height), (0.0, board.height)]
        )
        self.rim_at_corner = np.asarray(
            np.abs(self._rim_mm[:, None] - corners[None]).max(axis=2).min(axis=1) <= CORNER_MM,
            bool,
        )
        """Per rim point: whether it lies in one of the sheet's corners (CORNER_MM)."""
        self._maps_for: BoardMapping | None = None
        self._maps: tuple[_Maps, _Maps, _Maps, _Maps] | None = None

    def sample(self, image: Image, mapping: BoardMapping) -> Patches:
        if self._maps is None or not mapping.same_as(self._maps_for):
            height, width = image.shape[:2]
            self._maps = (
                _Maps.of(mapping, self._zone_mm, width, height),
                _Maps.of(mapping, self._paper_mm, width, height),
                _Maps.of(mapping, self._rim_mm, width, height),
                _Maps.of(mapping, self._beyond_mm, width, height),
            )
            self._maps_for = mapping
        zone_maps, paper_maps, rim_maps, beyond_maps = self._maps
        zones = zone_maps.remap(image)
        paper = paper_maps.remap(image)
        rim = rim_maps.remap(image)
        count = len(self.zones)
        outside = np.bincount(self.zone_of_point[~zone_maps.inside], minlength=count)
        inside = outside == 0
        return Patches(
            zones=zones,
            paper=paper.reshape(-1, PAPER_PATCH, PAPER_PATCH, 3),
            inside=inside,
            paper_inside=np.asarray(
                paper_maps.inside.reshape(-1, PAPER_PATCH * PAPER_PATCH).all(axis=1)
            ),
            rim=rim,
            rim_inside=rim_maps.inside,
            beyond=beyond_maps.remap(image),
            beyond_inside=beyond_maps.inside,
        )

    def per_point(self, values: NDArray[Any]) -> NDArray[Any]:
        """Per-zone values repeated for each of the zone's points."""
        return np.repeat(values, self._counts, axis=0)

    def per_point_of(self, values: NDArray[Any], which: NDArray[np.bool_]) -> NDArray[Any]:
        """Per-zone values repeated for each point of the zones `which`, in their order."""
        return np.repeat(values[which], self._counts[which], axis=0)

    def runs(self, which: NDArray[np.bool_]) -> list[tuple[int, int]]:
        """The points of the zones `which` as runs of points, (first, end) each: a zone's
        points lie together, zone after zone."""
        edges = np.flatnonzero(np.diff(np.concatenate(([0], which.astype(np.int8), [0]))))
        starts, stops = edges[0::2], edges[1::2]
        first = np.concatenate(([0], np.cumsum(self._counts)))
        return list(zip(first[starts].tolist(), first[stops].tolist(), strict=True))

    def square(self, values: NDArray[Any], index: int, fill: Any = 0) -> NDArray[Any]:
        """One zone's values (per point) laid back out on its square patch."""
        first, end = self.spans[index]
        shape = (self.size * self.size, *values.shape[1:])
        out = np.full(shape, fill, values.dtype)
        out[self.place_in_patch[first:end]] = values[first:end]
        return out.reshape(self.size, self.size, *values.shape[1:])

    def across(self, index: int, other: int) -> tuple[int, int]:
        """(rows, columns) to add to a pixel of zone `index`'s square to find the same
        spot of the picture in zone `other`'s square (to the nearest pixel)."""
        dx, dy = (self._looked_at[index] - self._looked_at[other]) / self.mm_per_px
        return int(np.rint(dy)), int(np.rint(dx))

    def sample_region(
        self,
        image: Image,
        mapping: BoardMapping,
        centre: tuple[float, float],
        half: float,
        px_per_mm: float,
    ) -> Image:
        """A square of board (`half` millimetres each side of `centre`), finer: for reading
        a counter's pips."""
        count = int(2 * round(half * px_per_mm) + 1)
        points = _grid(centre, half, count).reshape(-1, 2)
        height, width = image.shape[:2]
        return _Maps.of(mapping, points, width, height).remap(image).reshape(count, count, 3)


@dataclass(frozen=True, slots=True)
class _Maps:
    map_x: NDArray[np.int16]
    """Whole pixels, x and y (CV_16SC2)."""
    map_y: NDArray[np.uint16]
    """Each point's fraction of a pixel, as an index into remap's interpolation table."""
    count: int
    inside: NDArray[np.bool_]

    @classmethod
    def of(cls, mapping: BoardMapping, points: Floats, width: int, height: int) -> _Maps:
        projected = mapping.to_image(points)
        inside = (
            (projected[:, 0] >= 0)
            & (projected[:, 0] <= width - 1)
            & (projected[:, 1] >= 0)
            & (projected[:, 1] <= height - 1)
        )
        # remap wants maps narrower than 32767 samples: lay the points out in rows.
        count = len(projected)
        padded = -(-count // _ROW) * _ROW
        maps = np.zeros((padded, 2), np.float32)
        maps[:count] = projected
        # Fixed-point maps (a 32nd of a pixel) remap faster, every frame, than the floats:
        # made once a mapping, they serve every frame the board has not moved for.
        map_x, map_y = cv2.convertMaps(
            np.ascontiguousarray(maps[:, 0].reshape(-1, _ROW)),
            np.ascontiguousarray(maps[:, 1].reshape(-1, _ROW)),
            cv2.CV_16SC2,
        )
        return cls(
            np.asarray(map_x, np.int16), np.asarray(map_y, np.uint16), count, np.asarray(inside)
        )

    def remap(self, image: Image) -> Image:
        pixels = cv2.remap(
            image,
            self.map_x,
            self.map_y,
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=0,
        )
        return np.asarray(pixels, np.uint8).reshape(-1, 3)[: self.count]
