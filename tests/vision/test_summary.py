"""A reading told to a person (`vision read`) and as JSON says why a hand is thought to be
over the board, as `vision show` draws it."""

from __future__ import annotations

from vision.reading import BoardReading, Edge, HandReason, HandSign, Registration
from vision.summary import describe

REGISTRATION = Registration(markers_seen=27, markers_total=27, error_mm=0.1)


def test_a_hand_is_told_with_what_shows_it() -> None:
    reasons = (
        HandReason(HandSign.RIM_CROSSED, edge=Edge.SOUTH),
        HandReason(HandSign.PAPER_COVERED, zone="47"),
    )
    reading = BoardReading({}, hands=True, registration=REGISTRATION, hand_reasons=reasons)
    head = describe("photo.jpg", reading).splitlines()[0]
    assert head.endswith(
        "a hand is over the board (rim crossed on the south edge, paper covered near place 47)"
    )
    assert reading.to_dict()["hand_signs"] == [
        "rim crossed on the south edge",
        "paper covered near place 47",
    ]


def test_no_hand_no_signs() -> None:
    reading = BoardReading({}, registration=REGISTRATION)
    assert describe("photo.jpg", reading).splitlines()[0].endswith("; no hands")
    assert reading.to_dict()["hand_signs"] == []
