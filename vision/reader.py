"""Frame -> BoardReading: the crystals on every place and claim diamond, the counters, hands.

    reader = BoardReader(calibration)
    reading = reader.read(image, t_ns)
    reading.zones["17"].crystals    # ('blue', 'yellow')

Per zone, the pixels of each calibrated colour are counted and divided by the area one
crystal of that colour covered at calibration: about 1 for one crystal, 2 for two. A zone
is occluded when it holds many pixels of no known colour (skin, a sleeve) or far more of a
colour than three crystals could cover. Something is over the board (`hands`) when a
connected stretch of bare paper is covered, when several zones are occluded, when too
few markers are seen to register the board afresh, or when many zones change at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.colours import BLACK, FIRST_COLOUR, UNKNOWN, ClassTable
from vision.geometry import Board
from vision.measure import Measured, Measurer
from vision.reading import BoardReading, ZoneReading
from vision.registration import Fit, RegistrationTracker

Image = NDArray[np.uint8]

ONE_CRYSTAL = 0.35
"""A colour's area, in crystals, from which a crystal is counted."""
ROUNDING = 0.4
"""Two crystals from 1.6 crystals' area, three from 2.6."""
MAX_CRYSTALS = 3
UNKNOWN_OCCLUDES = 0.6
"""Unknown-coloured area, in crystals, that makes a zone occluded."""
HAND_COVER = 4
"""Connected paper points covered that mean a hand (a crystal covers one or two)."""
HAND_ZONES = 2
"""Occluded zones that mean a hand."""
SUDDEN_CHANGES = 6
"""Zones changing between two frames that mean something swept over the board."""
COUNTER_PX_PER_MM = 5.0
"""How finely a zone with a counter is sampled again to count the pips."""


@dataclass(frozen=True, slots=True)
class ZoneCounts:
    crystals: tuple[str, ...]
    confidence: float
    occluded: bool
    black: int


class BoardReader:
    def __init__(self, calibration: Calibration, board: Board | None = None) -> None:
        self.calibration = calibration
        self.board = board if board is not None else calibration.load_board()
        self.measurer = Measurer(self.board)
        self.table = ClassTable(calibration.colours)
        self._classes = FIRST_COLOUR + len(calibration.colours)
        self._areas = np.array([model.area for model in calibration.colours], np.float64)
        self._names = tuple(model.name for model in calibration.colours)
        self._typical_area = float(np.median(self._areas))
        sampler = self.measurer.sampler
        self._masks = sampler.masks
        self._mask_flat = sampler.masks.reshape(len(sampler.zones), -1)
        px = 1 / sampler.mm_per_px
        self._counter_area = (self.board.counter_size * px) ** 2
        self._previous: tuple[tuple[str, ...], ...] | None = None
        self.fit: Fit | None = None
        """The last frame's registration (homography and markers), for drawing over it."""
        self._counter_cache: dict[int, tuple[tuple[int, ...], tuple[int | None, ...]]] = {}

    def forget(self) -> None:
        """Start afresh: no registration to hold, no previous frame (a new camera or image)."""
        self.measurer.tracker = RegistrationTracker(self.board)
        self._previous = None
        self.fit = None

    def read(self, image: Image, t_ns: int = 0) -> BoardReading:
        measured = self.measurer.measure(image)
        self.fit = None if measured is None else measured.fit
        if measured is None:
            self._previous = None
            return BoardReading(t_ns=t_ns)
        registration = measured.fit.registration
        zones = self.measurer.sampler.zones
        if measured.white is None:
            occluded = {z.key: ZoneReading(z.key, confidence=0.0, occluded=True) for z in zones}
            return BoardReading(occluded, hands=True, registration=registration, t_ns=t_ns)
        counts = self._count(measured)
        readings: dict[str, ZoneReading] = {}
        for index, (zone, count) in enumerate(zip(zones, counts, strict=True)):
            counters: tuple[int | None, ...] = ()
            if not count.occluded and count.black >= 0.3 * self._counter_area:
                counters = self._counters(image, measured, index, count)
            readings[zone.key] = ZoneReading(
                zone.key, count.crystals, count.confidence, counters, count.occluded
            )
        now = tuple(count.crystals for count in counts)
        changed = (
            0
            if self._previous is None
            else sum(a != b for a, b in zip(now, self._previous, strict=True))
        )
        self._previous = now
        hands = (
            registration.held
            or self.measurer.largest_cover(measured.paper_covered) >= HAND_COVER
            or sum(count.occluded for count in counts) >= HAND_ZONES
            or changed >= SUDDEN_CHANGES
        )
        return BoardReading(readings, hands=hands, registration=registration, t_ns=t_ns)

    def _count(self, measured: Measured) -> list[ZoneCounts]:
        classes = self.table.lookup(measured.reflectance)
        zones = len(classes)
        flat = classes.reshape(zones, -1)
        inside = measured.patches.inside
        zone_index = np.broadcast_to(np.arange(zones)[:, None], flat.shape)
        chosen = self._mask_flat
        histogram = np.bincount(
            (zone_index[chosen] * self._classes + flat[chosen]).ravel(),
            minlength=zones * self._classes,
        ).reshape(zones, self._classes)
        result = []
        for index in range(zones):
            row = histogram[index]
            result.append(self._zone(row, bool(inside[index])))
        return result

    def _zone(self, row: NDArray[np.int64], inside: bool) -> ZoneCounts:
        if not inside:
            return ZoneCounts((), 0.0, True, 0)
        ratios = row[FIRST_COLOUR:] / self._areas
        typical = self._typical_area
        crystals: list[str] = []
        margins = [1.0]
        occluded = False
        for name, ratio in zip(self._names, ratios, strict=True):
            if ratio > MAX_CRYSTALS + 0.8:
                occluded = True
            count = 0 if ratio < ONE_CRYSTAL else min(MAX_CRYSTALS, int(ratio + ROUNDING))
            crystals.extend([name] * count)
            if ratio > 0.1:
                margins.append(_margin(float(ratio)))
        if len(crystals) > MAX_CRYSTALS:
            margins.append(0.0)
        # Every crystal's rim blends with the paper into colours of no class: allow for it.
        if row[UNKNOWN] >= UNKNOWN_OCCLUDES * typical * (1 + len(crystals)):
            occluded = True
        confidence = 0.0 if occluded else 0.5 + 0.5 * min(margins)
        return ZoneCounts(tuple(sorted(crystals)), confidence, bool(occluded), int(row[BLACK]))

    def _counters(
        self, image: Image, measured: Measured, index: int, count: ZoneCounts
    ) -> tuple[int | None, ...]:
        # A counter's pips need a finer look; its value only changes when the zone does.
        signature = (count.black // 40, len(count.crystals))
        cached = self._counter_cache.get(index)
        if cached is not None and cached[0] == signature:
            return cached[1]
        assert measured.white is not None
        zone = self.measurer.sampler.zones[index]
        fine = self.measurer.sampler.sample_zone(
            image, measured.fit.homography, index, COUNTER_PX_PER_MM
        )
        white = np.maximum(measured.white.at(np.array([zone.centre])), 1.0)[0]
        classes = self.table.lookup(fine / white)
        values = read_counters(
            classes, fine.mean(axis=-1) / white.mean(), self.board.counter_size * COUNTER_PX_PER_MM
        )
        self._counter_cache[index] = (signature, values)
        return values


def _margin(ratio: float) -> float:
    """How far a colour's area (in crystals) is from the nearest counting threshold, 0..1."""
    thresholds = [ONE_CRYSTAL] + [n + 1 - ROUNDING for n in range(1, MAX_CRYSTALS)]
    return min(1.0, min(abs(ratio - t) for t in thresholds) / 0.3)


def read_counters(
    classes: NDArray[np.uint8], brightness: NDArray[np.float64], tile_side: float
) -> tuple[int | None, ...]:
    """The counters in a finely sampled zone: a value per tile, None face down, 0 unreadable.

    A tile is a blob of black; its pips are the bright blobs inside its outline. One bright
    blob much larger than a pip is the logo's ring."""
    black = (classes == BLACK).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(black, connectivity=8)
    tile_area = tile_side**2
    pip_area = np.pi * (0.1 * tile_side) ** 2
    values: list[int | None] = []
    for label in range(1, count):
        if stats[label, cv2.CC_STAT_AREA] < 0.3 * tile_area:
            continue
        points = np.argwhere(labels == label)[:, ::-1].astype(np.int32)
        hull = cv2.convexHull(points)
        outline = np.zeros(black.shape, np.uint8)
        cv2.fillConvexPoly(outline, hull, 1)
        inner = cv2.erode(outline, np.ones((3, 3), np.uint8)).astype(bool)
        if (inner & (classes >= FIRST_COLOUR)).sum() > 0.05 * tile_area:
            values.append(0)  # a crystal stands on it: the pips cannot all be seen
            continue
        bright = (inner & (brightness > 0.45) & (classes != BLACK)).astype(np.uint8)
        _count, _, blob_stats, _ = cv2.connectedComponentsWithStats(bright, connectivity=8)
        areas = blob_stats[1:, cv2.CC_STAT_AREA]
        areas = areas[areas >= 0.25 * pip_area]
        if len(areas) == 1 and areas[0] > 2.5 * pip_area:
            values.append(None)
        elif len(areas) in (2, 3, 5) and all(a <= 2.5 * pip_area for a in areas):
            values.append(len(areas))
        else:
            values.append(0)
    return tuple(values)
