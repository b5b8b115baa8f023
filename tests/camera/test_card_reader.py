"""Printed card codes are read from pictures of cards lying at a slant, slightly out of
focus, JPEG-compressed at quality 60."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from tests.camera.printed_codes import Placement, code_corners, photograph
from vision.cards import CardCode, CardCodeReader

DECK = "mythologies-of-earth"


def payload(number: int) -> str:
    return f"memdeck:{DECK}:{number}"


@pytest.fixture(scope="module")
def reader() -> CardCodeReader:
    return CardCodeReader()


@pytest.mark.parametrize(
    ("tilt", "tilt_axis", "spin", "blur"),
    [
        (0, 0, 0, 1.0),
        (25, 30, 15, 1.0),
        (40, 120, 200, 1.0),
        (40, 0, 90, 1.3),
        (35, 250, 300, 1.3),
    ],
)
def test_a_slanted_blurred_jpeg_code(
    reader: CardCodeReader, tilt: float, tilt_axis: float, spin: float, blur: float
) -> None:
    card = Placement(payload(17), (200, 200), 4.0, tilt, tilt_axis, spin)
    picture = photograph([card], (400, 400), blur=blur, jpeg_quality=60, seed=3)
    (sighting,) = reader.read(picture)
    assert sighting.code == CardCode(DECK, 17)
    assert sighting.tag == "memdeck:mythologies-of-earth:17"
    assert sighting.centre == pytest.approx((200, 200), abs=3)
    expected = {tuple(np.round(point)) for point in code_corners(card)}
    for corner in sighting.corners:
        assert min(np.hypot(*np.subtract(corner, e)) for e in expected) < 4


def test_two_cards_at_once(reader: CardCodeReader) -> None:
    cards = [
        Placement(payload(17), (200, 220), 5.0, tilt=30, tilt_axis=20, spin=10),
        Placement(payload(42), (600, 200), 5.0, tilt=20, tilt_axis=100, spin=250),
    ]
    sightings = reader.read(photograph(cards, (800, 420), blur=1.0))
    assert sorted(s.code.number for s in sightings) == [17, 42]
    for sighting in sightings:
        near = 200 if sighting.code.number == 17 else 600
        assert sighting.centre[0] == pytest.approx(near, abs=3)


def test_a_code_that_is_not_a_cards_is_ignored(
    reader: CardCodeReader, caplog: pytest.LogCaptureFixture
) -> None:
    cards = [
        Placement(payload(17), (200, 220), 5.0, tilt=30, tilt_axis=20, spin=10),
        Placement("https://example.org/cards/17", (600, 200), 5.0, tilt=20, spin=250),
    ]
    with caplog.at_level(logging.DEBUG, logger="vision.cards"):
        sightings = reader.read(photograph(cards, (800, 420), blur=1.0))
        alone = reader.read(photograph(cards[1:], (800, 420), blur=1.0))
    assert [s.tag for s in sightings] == [payload(17)]
    assert alone == ()
    assert "https://example.org/cards/17" in caplog.text  # read, and set aside


def test_nothing_in_an_empty_picture(reader: CardCodeReader) -> None:
    assert reader.read(photograph([], (640, 480))) == ()


SMALL_CARD = Placement(payload(8), (1000, 300), 3.5, tilt=20, tilt_axis=60, spin=30)
AROUND_IT = ((930.0, 230.0), (1070.0, 230.0), (1070.0, 370.0), (930.0, 370.0))
"""Where the deck area would be, in a 1280 x 720 frame: the card's code lies within."""


@pytest.fixture(scope="module")
def frame() -> np.ndarray:
    return photograph([SMALL_CARD], (1280, 720), blur=0.8, seed=5)


def test_the_card_in_the_region_is_read_in_frame_pixels(
    reader: CardCodeReader, frame: np.ndarray
) -> None:
    (sighting,) = reader.read(frame, region=AROUND_IT)
    assert sighting.code == CardCode(DECK, 8)
    assert sighting.centre == pytest.approx((1000, 300), abs=3)


def test_a_region_elsewhere_sees_no_card(reader: CardCodeReader, frame: np.ndarray) -> None:
    elsewhere = ((100.0, 100.0), (300.0, 100.0), (300.0, 300.0), (100.0, 300.0))
    assert reader.read(frame, region=elsewhere) == ()


def test_a_region_outside_the_frame_sees_no_card(reader: CardCodeReader, frame: np.ndarray) -> None:
    outside = ((2000.0, 100.0), (2200.0, 100.0), (2200.0, 300.0), (2000.0, 300.0))
    assert reader.read(frame, region=outside) == ()
    assert reader.read(frame, region=((float("nan"), 0.0),) * 4) == ()


def test_a_grey_frame_reads_the_same(reader: CardCodeReader, frame: np.ndarray) -> None:
    grey = np.ascontiguousarray(frame[:, :, 1])
    assert [s.code for s in reader.read(grey, region=AROUND_IT)] == [CardCode(DECK, 8)]
