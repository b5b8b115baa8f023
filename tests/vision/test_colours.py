"""Telling a pixel's colour: by its hue first, so a crystal's rim or washed-out side keeps
its own colour and never passes for another."""

from __future__ import annotations

import numpy as np

from vision.colours import BACKGROUND, BLACK, FIRST_COLOUR, UNKNOWN, ColourModel, classify

RED, YELLOW = 0, 1


def colours() -> list[ColourModel]:
    # As calibrated in a dim room under a daylight lamp: a deep, saturated red, and a pale
    # yellow whose low saturation lets faint pixels be yellow.
    red = ColourModel("red", hue=1.85, hue_spread=0.14, saturation=0.43, brightness=-1.28, area=150)
    yellow = ColourModel(
        "yellow", hue=2.63, hue_spread=0.1, saturation=0.15, brightness=-0.46, area=200
    )
    return [red, yellow]


def pixel(hue: float, saturation: float, level: float) -> np.ndarray:
    """A reflectance (BGR) of the given hue and saturation (chromaticity away from grey)
    and mean level."""
    chroma_b = 1 / 3 + saturation * np.cos(hue)
    chroma_r = 1 / 3 + saturation * np.sin(hue)
    chroma = np.array([chroma_b, 1 - chroma_b - chroma_r, chroma_r])
    return np.asarray(chroma * 3 * level)[None, :]


def test_the_calibrated_colours_themselves_are_read() -> None:
    assert classify(pixel(1.85, 0.43, 0.28), colours())[0] == FIRST_COLOUR + RED
    assert classify(pixel(2.63, 0.15, 0.63), colours())[0] == FIRST_COLOUR + YELLOW
    assert classify(np.array([[1.0, 1.0, 1.0]]), colours())[0] == BACKGROUND


def test_a_faint_pixel_nearer_the_red_hue_is_never_yellow() -> None:
    # A red crystal's rim, blended with the paper: its hue has drifted a little, and it is
    # too faint for red; yellow, faint enough to take it, lies further round the circle.
    assert classify(pixel(2.18, 0.075, 0.64), colours())[0] != FIRST_COLOUR + YELLOW


def test_glare_on_a_crystal_washes_its_colour_out_but_it_stays_red() -> None:
    # The lamp's white added to a red crystal: brighter and much less saturated, same hue.
    assert classify(pixel(1.93, 0.077, 0.63), colours())[0] == FIRST_COLOUR + RED


def test_a_pixel_of_no_crystal_colour_is_unknown() -> None:
    assert classify(pixel(-2.0, 0.3, 0.4), colours())[0] == UNKNOWN


def test_a_dark_tile_tinted_by_a_lamp_is_no_unknown_colour() -> None:
    # A glossy black counter mirrors the lamps: dark, and a little warm, unlike the paper.
    assert classify(pixel(2.27, 0.06, 0.3), colours())[0] in (BACKGROUND, BLACK)
    assert classify(pixel(-1.2, 0.06, 0.3), colours())[0] in (BACKGROUND, BLACK)
    # A sleeve as tinted but as bright as skin, or as dark but more tinted, is no tile.
    assert classify(pixel(-1.2, 0.06, 0.75), colours())[0] == UNKNOWN
    assert classify(pixel(-1.2, 0.15, 0.3), colours())[0] == UNKNOWN


def test_a_black_tile_as_a_camera_shows_it_is_black_and_grey_print_is_not() -> None:
    # A tile sending back a twentieth of the paper's light, stored as cameras store light
    # (about its 1/2.2 power), with a little flare: about 0.3 of the paper's value.
    shown = 0.05 ** (1 / 2.2) + 0.04
    assert classify(np.array([[shown, shown, shown]]), colours())[0] == BLACK
    # A thin line of print, blurred into the paper round it, is grey, not black.
    assert classify(np.array([[0.5, 0.5, 0.5]]), colours())[0] == BACKGROUND
