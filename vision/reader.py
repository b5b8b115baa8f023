"""Frame -> BoardReading: the crystals on every place and claim diamond, the counters, hands.

    reader = BoardReader(calibration)
    reading = reader.read(image, t_ns)
    reading.zones["17"].crystals    # ('blue', 'yellow')

Per zone, the pixels of each calibrated colour are counted and divided by the area one
crystal of that colour covered at calibration: about 1 for one crystal, 2 for two. A zone
is occluded when it holds many pixels of no known colour (skin, a sleeve) or far more of a
colour than three crystals could cover. Something is over the board (`hands`) when
something not paper crosses the sheet's rim, when a connected stretch of bare paper is
covered, when several zones are occluded, when too few markers are seen to register the
board afresh, or when many zones change at once; `hand_reasons` says which, and where.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration
from vision.colours import BACKGROUND, BLACK, FIRST_COLOUR, UNKNOWN, ClassTable
from vision.counters import read_counters
from vision.geometry import Board
from vision.glare import GlareWatch
from vision.learning.counting import LearnedCounter
from vision.learning.model import SHIPPED_MODEL, Shipped, ZoneModel
from vision.measure import Measured, Measurer
from vision.reading import BoardReading, HandReason, HandSign, ZoneCounts, ZoneReading
from vision.registration import Fit, RegistrationTracker
from vision.stones import CountsStones
from vision.temporal import CLEAR_CONFIDENCE, MIN_CONFIDENCE

Image = NDArray[np.uint8]

ONE_CRYSTAL = 0.3
"""A colour's area, in crystals, from which a crystal is counted (a crystal half hidden
behind another on a crowded place still shows more)."""
HIDDEN_THIRD = 0.2
"""A colour's area, in crystals, from which a crystal is counted on a place that clearly
holds two others: seen from low down, the third stands behind them and shows a fifth."""
FRINGE = 0.15
"""Below a crystal's area, from this much a colour's pixels are checked for a blob."""
CLEARLY_ONE = 0.6
"""From this area (in crystals) a colour is surely there; below, it must form one blob."""
PARTIAL = 0.8
"""Below this area (in crystals) a colour beside a clear crystal of another must form a
blob of its own to count."""
SEVERAL = 1.7
"""A colour's area, in crystals, from which its separate blobs are counted."""
TWO_IN_ONE_BLOB = 2.6
"""One blob this big (in crystals) is two crystals touching."""
MAX_CRYSTALS = 3
BLINDED_CONFIDENCE = 0.6
"""The most a zone whose paper has burnt out to white is trusted."""
RING_AREA = 0.6
"""A counter's ring (or pips) covers less than this of a crystal's area."""
CUT_OFF = 0.5
"""A blob smaller than this (in crystals), cut by the zone's edge, may be a piece of a
crystal lying across it."""
CUT_EDGE = 0.2
"""The share of a blob's outline along the zone's edge that makes it cut by it."""
ONE_CRYSTAL_IN_PIECES = 1.45
"""The most (in crystals) that two pieces either side of a zone's edge add up to when they
are one crystal lying across it; more, and the other side's piece holds a crystal of its
own."""
CROWDED_KEEPS = 2.0
"""How many times bigger the other side's piece must be to take a crystal's piece from a
place more crowded than it."""
PIECE_TOUCH = 3
"""Pixels across the edge that must meet a blob on the other side for the two to be one."""
TRACE = 0.05
"""A colour's area (in crystals) on a zone, too little for the rules (below FRINGE), from
which the zone network is asked about it."""
DIM = 0.7
"""Reflectance under which a pixel is dark against the paper. A counter's black, seen soft
and small, reads 0.2 to 0.4 against the paper's white on the virtual camera, and up to 0.6
on the physically based training scenes (a board filling half the picture, a soft lens,
lamplight scattered off the sheet): at 0.5 the zones of 3 to 10 of their 12 counters were
never sent to the network in a third of the set-ups, and a clear crystal on one went
unread. At 0.7 every counter's zone is sent, with 0 to 4 zones without a counter a frame."""
DIM_SHARE = 0.3
"""The share of a counter's area that, dark, sends a zone to the zone network."""
SMUDGE = 0.85
"""Reflectance under which a grey pixel is no longer bare paper."""
SMUDGE_SHARE = 1.0
"""The area (in crystals) of grey under SMUDGE that sends a zone to the zone network: a
crystal blurred by motion or focus spreads into a grey smudge too faint and too dark for
any colour class, which the rules read as bare paper."""
DARK_NEARBY = 0.25
"""Black area (in crystals) on a zone from which its colours must form blobs to count: the
sharp edges of a counter's tile and pips, blurred and JPEG-compressed, fringe with colour
that adds up to a crystal's area in scattered specks."""
COMPACT = 0.25
"""The least blob (in crystals) that is a crystal beside dark print or a counter."""
UNKNOWN_OCCLUDES = 0.6
"""Unknown-coloured area, in crystals, that makes a zone occluded."""
HAND_COVER = 4
"""Connected paper points covered that mean a hand (a crystal covers one or two)."""
HAND_ZONES = 2
"""Occluded zones that mean a hand."""
TINTED_TILE = 0.6
"""The share of a zone's unknown-coloured pixels darker than DIM from which, when they
cover no more than TILE_AREA counters' area, they may be a counter's tile lit to a tinted
grey rather than skin or a sleeve."""
TILE_AREA = 1.25
"""A counter's tile as seen, in counters' areas: its edges spread a little in a picture."""
SUDDEN_CHANGES = 6
"""Zones changing between two frames that mean something swept over the board."""
REACH_PITCHES = 1.5
"""A hand's reach takes in the zones this many place pitches (centre to centre) from those
it hides or makes unsure: the next ones, diagonals included. Fingers setting a crystal down
may hide the places beside it and not the place itself."""
COUNTER_PX_PER_MM = 2.5
"""How finely a zone with a counter is sampled again to count the pips."""
MARKER_MARGIN_MM = 1.5
"""Around a marker, blur spreads its black this far."""
BLACK_CHANGE = 0.2
"""A change of a place's black by this share means its counter is looked at again."""
COUNTER_REFRESH = 30
"""Frames between fresh looks at a counter whose zone has not changed and no hand has
been over the board (a counter only turns under a hand: after one, every counter is looked
at again)."""


class BoardReader:
    def __init__(
        self,
        calibration: Calibration,
        board: Board | None = None,
        zone_model: ZoneModel | Shipped | None = SHIPPED_MODEL,
    ) -> None:
        """`zone_model`: the zone network to count the places the rules find hard (the
        shipped one unless given), or None for the rules alone."""
        self.calibration = calibration
        self.board = board if board is not None else calibration.load_board()
        self.measurer = Measurer(self.board, calibration.lean)
        self.table = ClassTable(calibration.colours)
        self._classes = FIRST_COLOUR + len(calibration.colours)
        self._areas = np.array([model.area for model in calibration.colours], np.float64)
        self._names = tuple(model.name for model in calibration.colours)
        self._typical_area = float(np.median(self._areas))
        # Colours present, as a bit set -> their names, sorted (one crystal of each).
        self._held_names = [
            tuple(sorted(n for i, n in enumerate(self._names) if bits >> i & 1))
            for bits in range(1 << len(self._names))
        ]
        sampler = self.measurer.sampler
        px = 1 / sampler.mm_per_px
        self._counter_area = (self.board.counter_size * px) ** 2
        self._zone_classes = sampler.zone_of_point.astype(np.intp) * self._classes
        """Each point's zone times the classes: plus its class, its slot in the zones'
        histograms of classes."""
        self._zone_centres = np.array([zone.centre for zone in sampler.zones], np.float64)
        self._beside = _beside(self._zone_centres)
        self._keys = tuple(zone.key for zone in sampler.zones)
        self._index_of = {key: index for index, key in enumerate(self._keys)}
        self._marker_centres = np.array([m.centre for m in self.board.markers], np.float64)
        self._marker_reach = np.array(
            [m.size / 2 + MARKER_MARGIN_MM for m in self.board.markers], np.float64
        )
        self._previous: tuple[tuple[str, ...], ...] | None = None
        """What each zone held in the last frame with no hand over the board: a sudden
        change is judged against it, so the frame after a hand has gone (which differs from
        the hand's frame everywhere the hand was) is judged by what really changed."""
        self.fit: Fit | None = None
        """The last frame's registration (mapping and markers), for drawing over it."""
        self._classes_now: NDArray[np.uint8] = np.zeros((0,), np.uint8)
        self._ratios_now: NDArray[np.float64] = np.zeros((0, 0))
        """The last frame's class of every point, and each zone's colours in crystals."""
        self._levels_now: NDArray[np.float32] = np.zeros((0,), np.float32)
        """Each point's mean reflectance in the last frame, to the class table's step."""
        self._counter_cache: dict[int, tuple[int, tuple[int | None, ...], int]] = {}
        self._hand_was_over = False
        self._frames = 0
        # MeM: one stone a square, told by its whole colour (vision/stones.py), on a board
        # calibrated for its stones; else crystals, by hue.
        self.stones = (
            calibration.counter(self.measurer)
            if self.board.game == "mem" and isinstance(calibration, CountsStones)
            else None
        )
        if isinstance(zone_model, Shipped):
            zone_model = ZoneModel.shipped()
        self.learned = (
            None
            if zone_model is None or self.stones is not None
            else LearnedCounter(calibration.colours, zone_model)
        )
        """The zone network, counting where the rules are unsure (see _count)."""

    def forget(self) -> None:
        """Start afresh: no registration to hold, no previous frame (a new camera or image)."""
        self.measurer.tracker = RegistrationTracker(self.board)
        self.measurer.glare = GlareWatch()
        self.forget_contents()
        self.fit = None

    def new_picture(self) -> None:
        """The next frame is a photo of its own, not the next frame of a film: nothing
        read before carries over (contents, counters, glare), only the registration, and
        that only where the markers are found where it puts them."""
        self.measurer.tracker.new_picture()
        self.measurer.glare = GlareWatch()
        self.forget_contents()
        self._counter_cache.clear()
        self._hand_was_over = False
        self.fit = None

    def forget_contents(self) -> None:
        """Forget what the last frame held (a new position laid out while nobody looked),
        keeping the registration."""
        self._previous = None

    def read(self, image: Image, t_ns: int = 0) -> BoardReading:
        self._frames += 1
        measured = self.measurer.measure(image)
        self.fit = None if measured is None else measured.fit
        if measured is None:
            self._previous = None
            self._hand_was_over = True
            return BoardReading(t_ns=t_ns)
        registration = measured.fit.registration
        zones = self.measurer.sampler.zones
        if measured.white is None:
            self._hand_was_over = True
            occluded = {z.key: ZoneReading(z.key, confidence=0.0, occluded=True) for z in zones}
            hidden = (HandReason(HandSign.PAPER_HIDDEN),)
            return BoardReading(
                occluded, hands=True, registration=registration, t_ns=t_ns, hand_reasons=hidden
            )
        counts = self._count(measured)
        readings: dict[str, ZoneReading] = {}
        for index, (zone, count) in enumerate(zip(zones, counts, strict=True)):
            counters: tuple[int | None, ...] = ()
            if not count.occluded and count.black >= 0.25 * self._counter_area:
                counters = self._counters(image, measured, index, count)
            confidence = count.confidence
            if measured.blinded[index]:
                # The paper has burnt out to full white here (glare, or too much exposure):
                # its true white is unknown, so crystals seem paler than they are, but a
                # crystal still shows its hue against it. Read it, less sure.
                confidence = min(confidence, BLINDED_CONFIDENCE)
            readings[zone.key] = ZoneReading(
                zone.key, count.crystals, confidence, counters, count.occluded
            )
        now = tuple(count.crystals for count in counts)
        before = self._previous
        seen = self._hands_seen(measured, counts)
        seen_hands = bool(seen)
        changed = (
            0
            if self._previous is None
            else sum(a != b for a, b in zip(now, self._previous, strict=True))
        )
        reasons = seen
        if changed >= SUDDEN_CHANGES:
            reasons += (HandReason(HandSign.SUDDEN_CHANGE, count=changed),)
        hands = bool(reasons)
        if hands:
            self._hand_was_over = True
        elif self._hand_was_over:
            # A hand may have turned a counter: now that it has gone, each is looked at
            # again (what was read stands for one a crystal now covers).
            self._hand_was_over = False
            for key, (black, values, _stamp) in self._counter_cache.items():
                self._counter_cache[key] = (black, values, -COUNTER_REFRESH)
        if not seen_hands:
            # A sudden change with no hand seen may be a fast hand the other signs missed:
            # this frame is distrusted, but it is the reference from now on, so a real
            # change of many zones at once delays the next commit by one frame, not for ever.
            self._previous = now
        return BoardReading(
            readings,
            hands=hands,
            registration=registration,
            t_ns=t_ns,
            hand_reasons=reasons,
            reach=self._reach(readings, reasons, before) if hands else frozenset(),
        )

    def _reach(
        self,
        readings: dict[str, ZoneReading],
        reasons: tuple[HandReason, ...],
        before: tuple[tuple[str, ...], ...] | None,
    ) -> frozenset[str]:
        """The zones a hand over the board is over or beside: those it hides, leaves too
        unsure to use or makes read otherwise than on the last frame with no hand (skin
        read as crystals), the one nearest the paper it covers, and the zones next to them."""
        keys = self._keys
        under = np.array(
            [
                readings[key].occluded
                or readings[key].confidence < MIN_CONFIDENCE
                or (before is not None and readings[key].crystals != before[index])
                for index, key in enumerate(keys)
            ]
        )
        for reason in reasons:
            if reason.zone is not None:
                under[self._index_of[reason.zone]] = True
        near = self._beside[under].any(axis=0)
        return frozenset(key for key, there in zip(keys, near, strict=True) if there)

    def _hands_seen(self, measured: Measured, counts: list[ZoneCounts]) -> tuple[HandReason, ...]:
        """What in this frame alone shows something over the board, and where."""
        reasons: list[HandReason] = []
        if measured.fit.registration.held:
            reasons.append(HandReason(HandSign.MARKERS_HIDDEN))
        reasons.extend(HandReason(HandSign.RIM_CROSSED, edge=e) for e in measured.rim_crossed)
        cover = self.measurer.largest_cover_points(measured.paper_covered)
        if len(cover) >= HAND_COVER:
            middle = self.measurer.sampler.paper_points[cover].mean(axis=0)
            nearest = int(np.linalg.norm(self._zone_centres - middle, axis=1).argmin())
            key = self.measurer.sampler.zones[nearest].key
            reasons.append(HandReason(HandSign.PAPER_COVERED, zone=key))
        # A zone hidden only by a dark patch no bigger than a counter may be a counter's
        # black lit to a tinted grey (a warm lamp, a coloured wall): unread, but no sign of a
        # hand. On the physically based training scenes such counters made a hand on every
        # still frame of some set-ups. A hand or sleeve also crosses the rim and covers
        # paper; a dark one is black, not of unknown colour.
        occluded = sum(count.occluded for count in counts)
        if occluded >= HAND_ZONES:
            # Looked at only when it could matter: most frames hide no zone.
            occluded = sum(
                count.occluded and not tile
                for count, tile in zip(counts, self._tinted_tiles(), strict=True)
            )
        if occluded >= HAND_ZONES:
            reasons.append(HandReason(HandSign.ZONES_OCCLUDED, count=occluded))
        return tuple(reasons)

    def _count(self, measured: Measured) -> list[ZoneCounts]:
        if self.stones is not None:
            return self.stones.count(measured)
        sampler = self.measurer.sampler
        reflectance = measured.reflectance
        classes, levels = self.table.lookup_levels(reflectance[:-1])
        self._classes_now = classes
        self._levels_now = levels
        zones = len(sampler.zones)
        histogram = np.bincount(
            self._zone_classes + classes, minlength=zones * self._classes
        ).reshape(zones, self._classes)
        ratios = histogram[:, FIRST_COLOUR:] / self._areas
        self._ratios_now = ratios
        inside = measured.patches.inside
        # Most zones are plain: nothing there, or one clear crystal of a colour. Decide
        # those at once; look closer only at the rest.
        whole = (ratios >= CLEARLY_ONE) & (ratios < SEVERAL)
        faint = ratios < FRINGE
        held = whole.sum(axis=1)
        dark = histogram[:, BLACK] >= DARK_NEARBY * self._typical_area
        clear = ratios >= PARTIAL
        beside = (ratios >= CLEARLY_ONE) & ~clear & (clear.sum(axis=1, keepdims=True) > 0)
        plain = (
            inside
            # Black on a zone (a counter) matters only where some colour might be a crystal.
            & (~dark | faint.all(axis=1))
            & ~beside.any(axis=1)
            & (whole | faint).all(axis=1)
            & (histogram[:, UNKNOWN] < UNKNOWN_OCCLUDES * self._typical_area * (1 + held))
        )
        doubt = np.where((ratios > 0.1) & faint, np.abs(ratios - ONE_CRYSTAL) / 0.2, 1.0)
        confidence = 0.5 + 0.5 * np.minimum(doubt.min(axis=1), 1.0)
        present = whole @ (1 << np.arange(len(self._names)))
        recount = np.zeros(zones, bool)
        if self.learned is not None:
            # The network counts where the rules are least sure: every zone they could not
            # decide at once, every zone with a trace of a colour too faint for them (a
            # pale crystal under bright light), and every zone with something dark on it (a
            # counter, under which a clear crystal shows dark). It costs, so not the rest;
            # and the rules look no closer at the zones it counts, but where it is unsure
            # or a crystal went uncounted (_second_look).
            traced = ((ratios >= TRACE) & (ratios < FRINGE)).any(axis=1)
            recount = inside & (~plain | traced | self._dim_zones())
        hard = np.flatnonzero(recount)
        learned = (
            dict(
                zip(
                    hard.tolist(),
                    self._learned_count(measured, reflectance, histogram, ratios, hard),
                    strict=True,
                )
            )
            if len(hard)
            else {}
        )
        result = []
        for index in range(zones):
            if index in learned:
                result.append(learned[index])
            elif plain[index]:
                result.append(
                    ZoneCounts(
                        self._held_names[int(present[index])],
                        float(confidence[index]),
                        False,
                        int(histogram[index, BLACK]),
                    )
                )
            else:
                result.append(
                    self._zone(histogram[index], bool(inside[index]), bool(dark[index]), index)
                )
        if not learned:
            return result

        def rules(index: int) -> ZoneCounts:
            return self._zone(histogram[index], True, bool(dark[index]), index)

        return self._second_look(result, ratios, learned, rules)

    def _second_look(
        self,
        counts: list[ZoneCounts],
        ratios: NDArray[np.float64],
        learned: dict[int, ZoneCounts],
        rules: Callable[[int], ZoneCounts],
    ) -> list[ZoneCounts]:
        """`counts` after a second look at the zones the network counted.

        A whole crystal's worth of a colour the network gave to no zone is the zone's
        holding most of it: a crystal left at a place's rim, half off it, is that place's
        when no place beside it can own it. And where the rules count a zone the same as an
        unsure network, the zone is as sure as they are: two ways of counting agree."""
        result = list(counts)
        for index, count in learned.items():
            if count.occluded:
                continue
            lost = self._lost(index, count, ratios, result)
            if count.confidence >= CLEAR_CONFIDENCE and not lost:
                continue
            crystals = tuple(sorted((*count.crystals, *lost)))
            checked = rules(index)
            if checked.crystals == crystals and checked.confidence > count.confidence:
                result[index] = ZoneCounts(crystals, checked.confidence, False, count.black)
            elif lost:
                result[index] = ZoneCounts(crystals, count.confidence, False, count.black)
        return result

    def _lost(
        self, index: int, count: ZoneCounts, ratios: NDArray[np.float64], counts: list[ZoneCounts]
    ) -> list[str]:
        """The colours a whole crystal of which shows on zone `index`, uncounted there and
        owned by no zone beside it."""
        lost: list[str] = []
        near: list[int] | None = None
        for colour, name in enumerate(self._names):
            share = ratios[index, colour]
            if share < CLEARLY_ONE or name in count.crystals:
                continue
            if near is None:
                near = [int(o) for o in np.flatnonzero(self._beside[index]) if o != index]
            # The crystal may be a zone's beside it when the two pieces add up to no more
            # than that zone's crystals of the colour lying across the line (one, at least,
            # where it holds the more of it).
            if any(
                share + ratios[other, colour]
                <= max(counts[other].crystals.count(name), int(ratios[other, colour] > share))
                + ONE_CRYSTAL_IN_PIECES
                - 1
                for other in near
            ):
                continue
            lost.append(name)
        return lost

    def _tinted_tiles(self) -> NDArray[np.bool_]:
        """Per zone: whether its unknown-coloured pixels are mostly dark and cover no more
        than a counter's tile (`TINTED_TILE`)."""
        sampler = self.measurer.sampler
        zones = len(sampler.zones)
        if self.stones is not None:
            # Stones are read by their whole colour, and no counter lies among them.
            return np.zeros(zones, bool)
        unknown = self._classes_now == UNKNOWN
        dark = np.bincount(
            sampler.zone_of_point[unknown & (self._levels_now < DIM)], minlength=zones
        )
        total = np.bincount(sampler.zone_of_point[unknown], minlength=zones)
        return np.asarray(
            (dark >= TINTED_TILE * total) & (total <= TILE_AREA * self._counter_area), bool
        )

    def _dim_zones(self) -> NDArray[np.bool_]:
        """Per zone: whether grey or black much darker than the paper covers a good part of
        a counter's area on it (a crystal's own pixels are coloured, not grey), or grey a
        little darker than the paper a crystal's area (a blurred crystal's smudge)."""
        sampler = self.measurer.sampler
        zones = len(sampler.zones)
        # The grey points under either level, once; then each level among those alone.
        grey = (self._classes_now <= BLACK) & (self._levels_now < max(DIM, SMUDGE))
        where = sampler.zone_of_point[grey]
        levels = self._levels_now[grey]
        dim = np.bincount(where[levels < DIM], minlength=zones)
        smudged = np.bincount(where[levels < SMUDGE], minlength=zones)
        return np.asarray(
            (dim >= DIM_SHARE * self._counter_area)
            | (smudged >= SMUDGE_SHARE * self._typical_area),
            bool,
        )

    def _learned_count(
        self,
        measured: Measured,
        reflectance: NDArray[np.float32],
        histogram: NDArray[np.int64],
        ratios: NDArray[np.float64],
        only: NDArray[np.intp],
    ) -> list[ZoneCounts]:
        """The network's counts for the zones `only`, in its order."""
        assert self.learned is not None
        if len(only) == 0:
            return []
        held, sure = self.learned.count(measured, only, reflectance)
        # What is there is the network's to say; whether the zone can be seen at all (a
        # sleeve, skin, far more colour than three crystals) is still told by the classes.
        unknown = histogram[:, UNKNOWN] / self._typical_area
        result = []
        for index, crystals, certainty in zip(only.tolist(), held, sure.tolist(), strict=True):
            too_much = bool((ratios[index] > MAX_CRYSTALS + 0.8).any())
            occluded = too_much or bool(unknown[index] >= UNKNOWN_OCCLUDES * (1 + len(crystals)))
            confidence = 0.0 if occluded else float(certainty)
            result.append(ZoneCounts(crystals, confidence, occluded, int(histogram[index, BLACK])))
        return result

    def _zone(self, row: NDArray[np.int64], inside: bool, dark: bool, index: int) -> ZoneCounts:
        if not inside:
            return ZoneCounts((), 0.0, True, 0)
        ratios = row[FIRST_COLOUR:] / self._areas
        typical = self._typical_area
        crystals: list[str] = []
        margins = [1.0]
        occluded = False
        square: NDArray[np.uint8] | None = None
        clear = ratios >= PARTIAL
        clear_count = int(clear.sum())
        for number, (name, ratio) in enumerate(zip(self._names, ratios, strict=True)):
            if ratio > MAX_CRYSTALS + 0.8:
                occluded = True
            least = HIDDEN_THIRD if self._crowding(index, number) >= 2 else ONE_CRYSTAL
            count = 0 if ratio < least else 1
            # Part of a crystal's area in a colour, beside a clear crystal of another: the
            # other's rim, shadow or highlight may have drifted into this colour.
            beside = ratio < PARTIAL and clear_count - int(clear[number]) > 0
            if ratio >= least and (dark or beside or ratio < CLEARLY_ONE or ratio >= SEVERAL):
                if square is None:
                    square = self.measurer.sampler.square(self._classes_now, index, BACKGROUND)
                if ratio < CLEARLY_ONE or beside:
                    count = int(self._blobs(square, number, index, dark)[0] >= least)
                elif ratio < SEVERAL:
                    count = int(self._blobs(square, number, index, dark)[0] >= COMPACT)
                else:
                    count = self._how_many(square, number, index, float(ratio), dark)
            crystals.extend([name] * count)
            judged = float(ratio)
            if FRINGE <= ratio < ONE_CRYSTAL:
                # Near the threshold from below: a compact blob is a doubt, a fringe is not.
                if square is None:
                    square = self.measurer.sampler.square(self._classes_now, index, BACKGROUND)
                judged = float(self._blobs(square, number, index, dark)[0])
            if judged > 0.1:
                margins.append(min(1.0, abs(judged - ONE_CRYSTAL) / 0.2))
        if len(crystals) > MAX_CRYSTALS:
            margins.append(0.0)
        # Every crystal's rim blends with the paper into colours of no class: allow for it.
        if row[UNKNOWN] >= UNKNOWN_OCCLUDES * typical * (1 + len(crystals)):
            occluded = True
        confidence = 0.0 if occluded else 0.5 + 0.5 * min(margins)
        return ZoneCounts(tuple(sorted(crystals)), confidence, bool(occluded), int(row[BLACK]))

    def _blobs(
        self, square: NDArray[np.uint8], number: int, index: int, dark: bool
    ) -> NDArray[np.float64]:
        """The areas (in crystals) of a colour's separate blobs on a zone, largest first.

        Thin fringes (the edges of print or of a counter, blurred and JPEG-compressed, can
        take any hue) are opened away first: a crystal is a compact blob."""
        labels, stats, centres = _colour_blobs(square, number)
        areas = stats[1:, cv2.CC_STAT_AREA]
        kept = ~self._cut_off(labels, areas, index, number)
        if dark:
            # A counter's white ring or pips, tinted by the light, encircle black, and are
            # smaller than a crystal; a crystal's middle is black only where the crystal
            # itself is dark, and then the crystal shows whole around it.
            ring_sized = areas < RING_AREA * self._areas[number]
            kept &= ~(ring_sized & self._around_black(square, centres[1:]))
        areas = np.sort(areas[kept])[::-1] / self._areas[number]
        return np.asarray(areas if len(areas) else np.zeros(1), np.float64)

    @staticmethod
    def _around_black(square: NDArray[np.uint8], centres: NDArray[Any]) -> NDArray[np.bool_]:
        """Per blob centre: whether most of the 3x3 pixels there are black."""
        last = np.array(square.shape[::-1]) - 2
        corners = np.clip(np.rint(centres).astype(np.intp) - 1, 0, last)
        result = np.zeros(len(centres), bool)
        for index, (x, y) in enumerate(corners.tolist()):
            result[index] = (square[y : y + 3, x : x + 3] == BLACK).sum() >= 5
        return result

    def _cut_off(
        self, labels: NDArray[Any], areas: NDArray[Any], index: int, number: int
    ) -> NDArray[np.bool_]:
        """Per blob: whether it is part of a crystal on the neighbouring place, reaching
        over the zone's edge.

        A crystal lying across the line between two places shows a piece on each side;
        it is counted once, on the side holding the bigger piece. A place holding more
        other crystals is where one pushed to its edge more likely belongs: its piece stays
        unless the other side's is twice as big, and a piece beside it goes to it unless
        it is twice as big as the crowded place's."""
        result = np.zeros(len(areas), bool)
        small = np.flatnonzero(areas < CUT_OFF * self._areas[number])
        if len(small) == 0:
            return result
        sampler = self.measurer.sampler
        owners = sampler.owners[index]
        others = (owners != index) & (owners >= 0)
        for blob in small.tolist():
            mine = (labels == blob + 1).astype(np.uint8)
            # Two pixels out: opening the mask frays a blob's thin edge away from the line.
            edge = cv2.dilate(mine, np.ones((5, 5), np.uint8)).astype(bool) & (mine == 0)
            across = edge & others
            if across.sum() < CUT_EDGE * edge.sum():
                continue
            neighbour = int(np.bincount(owners[across]).argmax())
            piece = self._piece_across(across & (owners == neighbour), index, neighbour, number)
            area = areas[blob] / self._areas[number]
            if piece == 0.0 or area + piece > ONE_CRYSTAL_IN_PIECES:
                continue
            crowding = self._crowding(neighbour, number) - self._crowding(index, number)
            if crowding > 0:
                result[blob] = piece * CROWDED_KEEPS > area
            elif crowding < 0:
                result[blob] = piece > area * CROWDED_KEEPS
            else:
                result[blob] = piece > area
        return result

    def _crowding(self, index: int, number: int) -> int:
        """How many other colours a zone clearly holds."""
        clear = self._ratios_now[index] >= CLEARLY_ONE
        return int(clear.sum()) - int(clear[number])

    def _piece_across(
        self, edge: NDArray[np.bool_], index: int, neighbour: int, number: int
    ) -> float:
        """The area (in crystals) of the blob of colour `number` on zone `neighbour` that
        lies against the pixels `edge` of zone `index`'s square; 0 if none does."""
        sampler = self.measurer.sampler
        rows, columns = np.nonzero(edge)
        down, right = sampler.across(index, neighbour)
        rows, columns = rows + down, columns + right
        within = (rows >= 0) & (rows < sampler.size) & (columns >= 0) & (columns < sampler.size)
        square = sampler.square(self._classes_now, neighbour, BACKGROUND)
        labels, stats, _centres = _colour_blobs(square, number)
        hits = labels[rows[within], columns[within]]
        hits = hits[hits > 0]
        if len(hits) < PIECE_TOUCH:
            return 0.0
        return float(stats[int(np.bincount(hits).argmax()), cv2.CC_STAT_AREA] / self._areas[number])

    def _how_many(
        self, square: NDArray[np.uint8], number: int, index: int, ratio: float, dark: bool
    ) -> int:
        """Crystals of one colour on a zone whose area says there may be several.

        A lone crystal can look bigger than at calibration (standing on a counter, its dark
        foot blending in): count separate blobs, and take one blob for two crystals only
        when it is far too big for one."""
        blobs = self._blobs(square, number, index, dark)
        big = int((blobs >= ONE_CRYSTAL).sum())
        if big <= 1:
            return 2 if ratio >= TWO_IN_ONE_BLOB else 1
        return min(MAX_CRYSTALS, big)

    def _counters(
        self, image: Image, measured: Measured, index: int, count: ZoneCounts
    ) -> tuple[int | None, ...]:
        # A counter's pips need a finer look, which costs: see the cache below.
        cached = self._counter_cache.get(index)
        if count.crystals:
            # Pips are not read past a crystal on or against the tile; a counter stays as
            # it was while a crystal stands on it, so what was read while it was clear holds.
            if cached is not None and 0 not in cached[1] and cached[1]:
                return cached[1]
            return (0,)
        # Counters are laid before play and only a hand turns them: look again when the
        # black on the place changes (a counter laid, taken or covered by a crystal:
        # crystals merely beside it change nothing), once a hand has been over the board,
        # and otherwise every COUNTER_REFRESH frames (two seconds at 15 frames a second).
        if (
            cached is not None
            and abs(count.black - cached[0]) <= BLACK_CHANGE * cached[0]
            and self._frames - cached[2] < COUNTER_REFRESH
        ):
            return cached[1]
        assert measured.white is not None
        sampler = self.measurer.sampler
        zone = sampler.zones[index]
        # Look again only where the black is, not at the whole zone.
        square = sampler.square(self._classes_now, index, BACKGROUND)
        rows, columns = np.nonzero(square == BLACK)
        middle = (sampler.size - 1) / 2
        x0, x1 = (
            (columns.min() - middle) * sampler.mm_per_px,
            (columns.max() - middle) * sampler.mm_per_px,
        )
        y0, y1 = (
            (rows.min() - middle) * sampler.mm_per_px,
            (rows.max() - middle) * sampler.mm_per_px,
        )
        centre = (zone.centre[0] + (x0 + x1) / 2, zone.centre[1] + (y0 + y1) / 2)
        half = max(x1 - x0, y1 - y0) / 2 + 2.0
        fine = sampler.sample_region(image, measured.fit.mapping, centre, half, COUNTER_PX_PER_MM)
        white = np.maximum(measured.white.at(np.array([zone.centre])), 1.0)[0]
        fine = self._without_markers(fine, centre, half, white)
        classes = self.table.lookup(fine / white)
        values = read_counters(
            classes, fine.mean(axis=-1) / white.mean(), self.board.counter_size * COUNTER_PX_PER_MM
        )
        # Spread the looks over the frames rather than all zones on the same one.
        self._counter_cache[index] = (count.black, values, self._frames - index % COUNTER_REFRESH)
        return values

    def _without_markers(
        self, fine: NDArray[Any], centre: tuple[float, float], half: float, white: NDArray[Any]
    ) -> NDArray[Any]:
        """A fine patch with any marker in it painted over as paper: a marker beside a
        place is a black square with white in it, which a counter is too."""
        near = (np.abs(self._marker_centres - centre) < half + self._marker_reach[:, None]).all(
            axis=1
        )
        if not near.any():
            return fine
        steps = np.linspace(-half, half, fine.shape[0])
        xs, ys = centre[0] + steps, centre[1] + steps
        painted = fine.copy()
        for (x, y), reach in zip(self._marker_centres[near], self._marker_reach[near], strict=True):
            columns = np.abs(xs - x) < reach
            rows = np.abs(ys - y) < reach
            painted[np.ix_(rows, columns)] = white
        return painted


def _beside(centres: NDArray[np.float64]) -> NDArray[np.bool_]:
    """(zones, zones): which zones lie within a hand's reach of which (REACH_PITCHES)."""
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=-1)
    if len(centres) < 2:
        return np.ones_like(apart, bool)
    pitch = float(np.median(np.where(np.eye(len(centres), dtype=bool), np.inf, apart).min(axis=1)))
    return np.asarray(apart <= REACH_PITCHES * pitch + 1e-9, bool)


def _colour_blobs(square: NDArray[np.uint8], number: int) -> tuple[Any, Any, Any]:
    """Labels, stats and centres (cv2.connectedComponentsWithStats) of a colour's blobs
    on a zone's square, thin fringes opened away first."""
    mask = (square == FIRST_COLOUR + number).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    _count, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return labels, stats, centres
