"""Frames a living room gives: a steep camera, dim warm light, glare, crowded places, a hand,
a knocked board. Each camera set-up is calibrated as a user would, from its own frames;
then a game position must read right on every zone."""

from __future__ import annotations

import math

from tests.vision.helpers import (
    BLUE,
    BURNING_GLARE,
    DIM_WARM,
    EASY,
    GLARE,
    RED,
    STEEP,
    YELLOW,
    assert_reads_right,
    calibration_under,
    game_position,
    zones_clear_of,
)
from vision.calibration import Calibration
from vision.geometry import Board
from vision.reader import BLINDED_CONFIDENCE, BoardReader
from vision.synth import Conditions, Hand, Scene, SyntheticCamera, render
from vision.temporal import FilterState, step

POSITION = game_position()


def test_a_camera_tilted_45_degrees(board: Board, steep_calibration: Calibration) -> None:
    reading = BoardReader(steep_calibration, board).read(render(board, POSITION, STEEP, 21).image)
    assert not reading.hands
    assert_reads_right(board, reading, POSITION)


def test_dim_warm_light(board: Board, dim_warm_calibration: Calibration) -> None:
    shot = render(board, POSITION, DIM_WARM, 22)
    reading = BoardReader(dim_warm_calibration, board).read(shot.image)
    assert not reading.hands
    assert_reads_right(board, reading, POSITION)


def test_glare_on_the_paper_and_shiny_crystals(
    board: Board, glare_calibration: Calibration
) -> None:
    reading = BoardReader(glare_calibration, board).read(render(board, POSITION, GLARE, 23).image)
    assert not reading.hands
    assert_reads_right(board, reading, POSITION)


def test_glare_that_burns_the_paper_out_leaves_places_read_right_but_less_surely(
    board: Board, easy_calibration: Calibration
) -> None:
    reading = BoardReader(easy_calibration, board).read(
        render(board, POSITION, BURNING_GLARE, 23).image
    )
    glare = BURNING_GLARE.glare
    assert glare is not None
    under = [
        zone.key for zone in board.zones() if math.dist(zone.centre, glare.centre) < glare.radius
    ]
    assert under
    # The paper's white is unknown where it has clipped: a crystal there still shows its
    # hue, so it is read, but never as surely as where the light can be measured.
    burnt = [key for key in under if reading.zones[key].confidence <= BLINDED_CONFIDENCE]
    assert len(burnt) >= 3
    assert not any(zone.occluded for zone in reading.zones.values())
    assert_reads_right(board, reading, POSITION)


def test_three_pieces_on_one_place_even_packed_tight(
    board: Board, easy_calibration: Calibration
) -> None:
    diameter = board.crystal_diameter
    touching = ((-diameter / 2, 0.0), (diameter / 2, 0.0), (0.0, diameter * 0.87))
    scene = Scene(
        crystals={
            "12": (RED, BLUE, YELLOW),
            "45": (BLUE, YELLOW, RED),
            "89": (YELLOW, RED, BLUE),
            "diamond-3": (RED, BLUE, YELLOW),
        },
        placements={"45": touching, "89": touching},
    )
    reading = BoardReader(easy_calibration, board).read(render(board, scene, EASY, 24).image)
    assert_reads_right(board, reading, scene)


def test_a_hand_over_half_the_board_is_seen_and_commits_nothing(
    board: Board, easy_calibration: Calibration
) -> None:
    hand = Hand(tip=(210.0, 150.0), angle=0.0, width=110.0)
    shot = render(board, Scene(crystals=POSITION.crystals, hands=(hand,)), EASY, 25)
    assert shot.hand_over_board
    reader = BoardReader(easy_calibration, board)
    reading = reader.read(shot.image)
    assert reading.hands
    # What the hand and its shadow leave in view still reads right.
    clear = zones_clear_of(board, shot, margin_mm=15.0)
    assert len(clear) >= 40
    assert_reads_right(board, reading, POSITION, only=clear)

    # Half a second of the hand hovering there: a filter that knows nothing of the board
    # yet must not take anything it sees meanwhile for a move.
    camera = SyntheticCamera(board, EASY, seed=25)
    camera.set_scene(Scene(crystals=POSITION.crystals, hands=(hand,)))
    state = FilterState.start()
    for _ in range(8):
        frame = camera.grab()
        state, observation = step(state, reader.read(frame.image, frame.t_ns))
        assert frame.hand_over_board
        assert observation is None
    assert state.committed == {}


def test_a_board_knocked_askew_reads_right(board: Board, easy_calibration: Calibration) -> None:
    reader = BoardReader(easy_calibration, board)
    assert_reads_right(board, reader.read(render(board, POSITION, EASY, 26).image), POSITION)
    knocked = EASY.replace(board_offset=(12.0, -9.0), board_rotation=4.0)
    reading = reader.read(render(board, POSITION, knocked, 26).image)
    assert reading.registration is not None and not reading.registration.held
    assert not reading.hands
    assert_reads_right(board, reading, POSITION)


def test_a_crystal_pushed_towards_the_next_place_is_read_on_its_own(
    board: Board, steep_calibration: Calibration
) -> None:
    # Place 30 lies 12.5 mm right and below 28: the yellow sits as far towards it as a
    # player keeps a crystal on its own place, and seen from low down a third of it shows
    # over 30's side of the line.
    scene = Scene(
        crystals={"28": (RED, YELLOW)},
        placements={"28": ((-3.0, -3.0), (4.8, 4.8))},
    )
    reading = BoardReader(steep_calibration, board).read(render(board, scene, STEEP, 41).image)
    assert_reads_right(board, reading, scene)


LOW_WARM_LAMP = Conditions.easy().replace(
    tilt=37.7,
    azimuth=168.0,
    fov=79.6,
    fill=0.82,
    aim=(11.4, 8.9),
    board_offset=(8.4, 8.8),
    board_rotation=-2.1,
    table="pine",
    brightness=0.64,
    colour_temperature=3023.0,
    light_azimuth=335.0,
    light_elevation=72.3,
    light_size=0.3,
    shine=0.69,
    noise=1.5,
    defocus=1.06,
    sharpen=0.67,
    jpeg_quality=78,
)


def test_a_third_crystal_all_but_hidden_behind_two_others(board: Board) -> None:
    # Seen from low down, a fifth of the third crystal shows between the other two (in
    # these frames: noise and JPEG decide how much more).
    scene = Scene(
        crystals={"63": (RED, BLUE, YELLOW)},
        placements={"63": ((-4.25, 3.47), (-2.18, -4.29), (3.25, 2.07))},
    )
    reader = BoardReader(calibration_under(LOW_WARM_LAMP), board)
    for seed in (3705, 3707, 3723, 3736):
        assert_reads_right(
            board, reader.read(render(board, scene, LOW_WARM_LAMP, seed).image), scene
        )


def test_a_board_calibrated_with_the_paper_burnt_out_in_places_reads_the_game_right(
    board: Board,
) -> None:
    # Glare clips the paper around a few places, the calibration crystals among them: they
    # still read as themselves, so the calibration stands, and the game reads right.
    calibration = calibration_under(BURNING_GLARE)
    reading = BoardReader(calibration, board).read(render(board, POSITION, BURNING_GLARE, 24).image)
    assert not reading.hands
    assert_reads_right(board, reading, POSITION)
