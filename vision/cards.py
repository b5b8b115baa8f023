"""Reading printed cards' QR codes from camera frames, for owners without an RFID reader.

    reader = CardCodeReader()
    sightings = reader.read(frame.image, region=deck_corners)   # region: optional polygon
    sightings[0].code           # CardCode(deck='mythologies-of-earth', number=17)
    sightings[0].tag            # 'memdeck:mythologies-of-earth:17', the camera's tag
    sightings[0].corners        # the code's 4 corners in the frame, pixels

A QR code that is not a card's (`memdeck:<deck id>:<n>`, docs/cards.md) is ignored.

How a frame is read, and why (bench/card_codes.py measures it):
1. When a region is given only its bounding box, with a margin, is looked at: about half
   the time of a whole 1280 x 720 frame, a tenth of a 4K one.
2. A small crop is enlarged (bicubic) first: both OpenCV detectors read far more codes at
   6 to 8 pixels a module than at 3 or 4, though the enlargement adds no detail.
3. QRCodeDetectorAruco reads several codes at once, and faster; a light sharpening before
   it makes up for focus blur. When it reads nothing, the classic QRCodeDetector tries for
   one code: each reads codes the other misses, and together they read more than either.

What it cannot do: a camera that frames the whole A3 board at 1280 x 720 sees a printed
code (15 mm, 29 modules) at about 1 pixel a module, too few for any decoder. Reading
cards wants 2.5 or more: a 5 MP camera over the board, or the card held up to the lens.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.card_code import CardCode, parse_card_code

log = logging.getLogger(__name__)

Point = tuple[float, float]
Quad = tuple[Point, Point, Point, Point]
Grey = NDArray[np.uint8]

__all__ = ["CardCode", "CardCodeReader", "CardSighting", "parse_card_code"]

REGION_MARGIN = 0.15
"""Added on every side of the region's bounding box, as a share of its width and height: a
card laid a little beside the deck area is still read."""
UPSCALE_TO = 800
"""A crop whose longer side is shorter than this (pixels) is enlarged to it for decoding."""
MAX_UPSCALE = 3.0
"""Beyond this the enlargement costs more time than it brings codes."""
SMALLEST_CROP = 16
"""A region that leaves less of the frame than this (pixels, either way) holds no code."""


@dataclass(frozen=True, slots=True)
class CardSighting:
    code: CardCode
    corners: Quad
    """The code's corners in the frame, pixels, as the detector gives them (the code's own
    top-left first, then clockwise, however it lies in the picture)."""

    @property
    def tag(self) -> str:
        return self.code.tag

    @property
    def centre(self) -> Point:
        xs, ys = zip(*self.corners, strict=True)
        return (sum(xs) / 4, sum(ys) / 4)


class CardCodeReader:
    """Finds card codes in frames. Holds OpenCV detectors: one reader per thread."""

    def __init__(
        self,
        *,
        region_margin: float = REGION_MARGIN,
        upscale_to: int = UPSCALE_TO,
        max_upscale: float = MAX_UPSCALE,
    ) -> None:
        if region_margin < 0 or max_upscale < 1:
            raise ValueError("the margin must be 0 or more, the largest enlargement 1 or more")
        self.region_margin = region_margin
        self.upscale_to = upscale_to
        self.max_upscale = max_upscale
        self._multi = cv2.QRCodeDetectorAruco()
        self._single = cv2.QRCodeDetector()

    def read(
        self, image: NDArray[np.uint8], region: Sequence[Point] | None = None
    ) -> tuple[CardSighting, ...]:
        """The card codes in `image` (BGR or grey), or around `region` (a polygon in image
        pixels, such as the deck area projected by the board registration); each card
        once, in the order found."""
        if not image.size:
            return ()
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        left, top = 0, 0
        if region is not None:
            box = crop_box(grey.shape[:2], region, self.region_margin)
            if box is None:
                return ()
            left, top, right, bottom = box
            grey = grey[top:bottom, left:right]
        scale = self._scale(grey.shape[:2])
        if scale > 1:
            grey = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
        found: dict[CardCode, CardSighting] = {}
        for text, quad in self._decode(np.asarray(grey, np.uint8)):
            code = parse_card_code(text)
            if code is None:
                log.debug("ignoring a QR code that is not a card's: %r", text[:80])
                continue
            a, b, c, d = ((x / scale + left, y / scale + top) for x, y in quad)
            found.setdefault(code, CardSighting(code, (a, b, c, d)))
        return tuple(found.values())

    def _scale(self, shape: tuple[int, ...]) -> float:
        longest = max(shape)
        if longest >= self.upscale_to:
            return 1.0
        return min(self.max_upscale, self.upscale_to / longest)

    def _decode(self, grey: Grey) -> list[tuple[str, Quad]]:
        """(text, corners) of every code decoded, in `grey`'s pixels."""
        ok, texts, quads, _ = self._multi.detectAndDecodeMulti(sharpened(grey))
        found = [
            (text, _points(quad))
            for text, quad in zip(texts if ok else (), quads if ok else (), strict=False)
            if text
        ]
        if found:
            return found
        text, quad, _ = self._single.detectAndDecode(grey)
        if text and quad is not None:
            return [(text, _points(quad))]
        return []


def crop_box(
    shape: tuple[int, ...], region: Sequence[Point], margin: float = REGION_MARGIN
) -> tuple[int, int, int, int] | None:
    """(left, top, right, bottom) of the region's bounding box grown by `margin` of its size
    on every side and kept inside an image of `shape` (height, width); None when too little
    of it is in the image."""
    xs = [float(x) for x, _ in region]
    ys = [float(y) for _, y in region]
    if not xs or not all(map(math.isfinite, xs + ys)):
        return None
    grow_x = (max(xs) - min(xs)) * margin
    grow_y = (max(ys) - min(ys)) * margin
    left = max(0, math.floor(min(xs) - grow_x))
    top = max(0, math.floor(min(ys) - grow_y))
    right = min(shape[1], math.ceil(max(xs) + grow_x))
    bottom = min(shape[0], math.ceil(max(ys) + grow_y))
    if right - left < SMALLEST_CROP or bottom - top < SMALLEST_CROP:
        return None
    return left, top, right, bottom


def sharpened(grey: Grey) -> Grey:
    """An unsharp mask: steeper module edges after focus blur and bicubic enlargement."""
    soft = cv2.GaussianBlur(grey, (0, 0), 1.5)
    return np.asarray(cv2.addWeighted(grey, 1.8, soft, -0.8, 0), np.uint8)


def _points(quad: object) -> Quad:
    a, b, c, d = ((float(x), float(y)) for x, y in np.asarray(quad, np.float64).reshape(4, 2))
    return (a, b, c, d)
