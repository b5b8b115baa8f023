from __future__ import annotations

import math

import numpy as np
import pytest

from vision.geometry import load_board
from vision.synth import Scene
from vision.synth.arrangement import arrange, lay_card, lay_counters, lay_crystals

DIAMETER = 8.0


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5])
def test_crystals_in_a_zone_sit_together_without_overlapping(count: int) -> None:
    for seed in range(40):
        spots = arrange(count, DIAMETER, np.random.default_rng(seed))
        assert len(spots) == count
        for i, a in enumerate(spots):
            for b in spots[i + 1 :]:
                assert math.dist(a, b) > 0.9 * DIAMETER
        reach = max(math.hypot(*s) for s in spots)
        if count == 1:
            assert reach <= 2.0 + 1e-9
        elif count <= 3:
            assert reach < 10.0  # about the zone's radius (8.8 mm)


def test_arrangements_follow_the_seed() -> None:
    board = load_board()
    scene = Scene(crystals={"17": ("red", "blue", "yellow"), "5": ("red",)}, counters={"5": (3,)})
    assert lay_crystals(board, scene, 4) == lay_crystals(board, scene, 4)
    assert lay_crystals(board, scene, 4) != lay_crystals(board, scene, 5)
    assert lay_counters(board, scene, 4) == lay_counters(board, scene, 4)


def test_given_placements_are_kept() -> None:
    board = load_board()
    scene = Scene(crystals={"17": ("red", "blue")}, placements={"17": ((-5.0, 0.0), (4.0, 1.0))})
    centre = board.place(17).centre
    laid = lay_crystals(board, scene, 1)
    assert [c.colour for c in laid] == ["red", "blue"]
    assert laid[0].centre == (centre[0] - 5.0, centre[1])
    assert laid[1].centre == (centre[0] + 4.0, centre[1] + 1.0)


def test_a_crystal_on_a_counter_stands_on_it() -> None:
    board = load_board()
    scene = Scene(crystals={"5": ("red",)}, counters={"5": (3,)})
    counters = lay_counters(board, scene, 1)
    assert lay_crystals(board, scene, 1, counters)[0].base > 0


def test_several_counters_lie_side_by_side() -> None:
    board = load_board()
    counters = lay_counters(board, Scene(counters={"5": (3, 2, None)}), 1)
    assert len(counters) == 3
    for i, a in enumerate(counters):
        for b in counters[i + 1 :]:
            assert math.dist(a.centre, b.centre) >= board.counter_size


def test_the_card_lies_on_the_deck_area() -> None:
    board = load_board()
    card = lay_card(board, Scene(card=3), 1)
    assert card is not None
    deck = board.deck
    assert abs(card.centre[0] - deck.centre[0]) < 3 and abs(card.centre[1] - deck.centre[1]) < 3
    assert lay_card(board, Scene(), 1) is None


def test_an_unknown_zone_is_refused() -> None:
    with pytest.raises(ValueError, match="no zone"):
        lay_crystals(load_board(), Scene(crystals={"0": ("red",)}), 1)
