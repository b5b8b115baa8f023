"""Reading a frame: every place and claim diamond, exactly, and the reading as JSON."""

from __future__ import annotations

import json

from tests.vision.helpers import BLUE, EASY, RED, YELLOW, assert_reads_right, game_position
from vision.calibration import Calibration
from vision.geometry import Board
from vision.reader import BoardReader
from vision.reading import BoardReading, Registration, ZoneReading
from vision.synth import Scene, render


def test_a_game_position_reads_exactly_on_every_zone(
    board: Board, easy_calibration: Calibration
) -> None:
    scene = game_position()
    reading = BoardReader(easy_calibration, board).read(render(board, scene, EASY, 11).image)
    assert reading.found and not reading.hands
    assert set(reading.zones) == {zone.key for zone in board.zones()}
    assert_reads_right(board, reading, scene)
    assert reading.zones["50"].crystals == (BLUE, RED, YELLOW)
    assert reading.zones["diamond-1"].crystals == (RED,)


def test_an_empty_board_reads_empty_everywhere(board: Board, easy_calibration: Calibration) -> None:
    reading = BoardReader(easy_calibration, board).read(render(board, Scene(), EASY, 12).image)
    assert reading.crystals() == {}
    assert not any(zone.occluded for zone in reading.zones.values())
    assert not reading.hands


def test_pieces_of_one_colour_apart_on_one_place_are_counted(
    board: Board, easy_calibration: Calibration
) -> None:
    # MemWars never puts two pieces of one colour on a place, but the reading is a
    # multiset: separate blobs of one colour count separately.
    apart = ((-5.5, 0.0), (5.5, 0.0))
    scene = Scene(
        crystals={"33": (RED, RED), "58": (BLUE, BLUE)}, placements={"33": apart, "58": apart}
    )
    reading = BoardReader(easy_calibration, board).read(render(board, scene, EASY, 13).image)
    assert_reads_right(board, reading, scene)


def test_counters_are_seen_and_never_read_as_a_wrong_value(
    board: Board, easy_calibration: Calibration
) -> None:
    # At 1280 x 720 a counter's pips are a few pixels: a counter may be read as present but
    # unreadable (0), but a value read must be its value.
    counters: dict[str, tuple[int | None, ...]] = {"8": (5,), "20": (3,), "44": (2,), "60": (None,)}
    scene = Scene(crystals={"8": (RED,), "70": (BLUE,)}, counters=counters)
    reading = BoardReader(easy_calibration, board).read(render(board, scene, EASY, 14).image)
    assert_reads_right(board, reading, scene)
    for key, truth in counters.items():
        seen = reading.zones[key].counters
        assert len(seen) == len(truth), key
        assert all(value in (*truth, 0) for value in seen), (key, seen)
    assert [key for key, zone in reading.zones.items() if zone.counters] == list(counters)


def test_a_reading_as_json_has_the_documented_keys(
    board: Board, easy_calibration: Calibration
) -> None:
    scene = Scene(crystals={"17": (BLUE, YELLOW), "diamond-2": (RED,)})
    reading = BoardReader(easy_calibration, board).read(render(board, scene, EASY, 15).image)
    document = json.loads(json.dumps(reading.to_dict()))
    assert set(document) == {"found", "hands", "hand_signs", "registration", "zones"}
    assert document["hand_signs"] == []
    assert document["found"] is True
    assert document["hands"] is False
    assert set(document["registration"]) == {
        "markers_seen",
        "markers_total",
        "error_mm",
        "held",
        "north",
    }
    assert list(document["zones"]) == [str(n) for n in range(1, 101)] + [
        f"diamond-{q}" for q in range(1, 5)
    ]
    for zone in document["zones"].values():
        assert set(zone) == {"crystals", "confidence", "counters", "occluded"}
        assert 0.0 <= zone["confidence"] <= 1.0
    assert document["zones"]["17"]["crystals"] == [BLUE, YELLOW]
    assert document["zones"]["diamond-2"]["crystals"] == [RED]
    assert document["zones"]["18"]["crystals"] == []


def test_face_down_counters_and_a_lost_board_in_json() -> None:
    zones = {"8": ZoneReading("8", counters=(5, None, 0))}
    found = BoardReading(zones, registration=Registration(20, 27, 0.123, held=True)).to_dict()
    assert found["zones"]["8"]["counters"] == [5, "face-down", 0]
    assert found["registration"]["error_mm"] == 0.12
    assert found["registration"]["held"] is True
    lost = BoardReading().to_dict()
    assert lost == {
        "found": False,
        "hands": False,
        "hand_signs": [],
        "registration": None,
        "zones": {},
    }
