"""Positions for the zone network's training samples: crowded places, as play leaves them."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.geometry import load_board
from vision.synth import SyntheticCamera
from vision.synth.arrangement import SOLID, in_own_room, lay_crystals, neighbours, zone_map
from vision.synth.conditions import Conditions
from vision.synth.positions import pushed_to_rims, random_position, random_topology

BOARD = load_board()


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_crystals_pushed_to_the_rims_stay_on_their_own_place_and_never_overlap(
    seed: int,
) -> None:
    rng = np.random.default_rng(seed)
    scene = random_position(BOARD, rng, random_topology(BOARD, rng))
    crowded = pushed_to_rims(BOARD, scene, rng)
    assert crowded.crystals == scene.crystals and crowded.counters == scene.counters
    held = {key for key, colours in scene.crystals.items() if colours}
    # A zone whose crystals found no room at the rim keeps its natural, centred layout.
    assert set(crowded.placements) <= held
    assert len(crowded.placements) >= 0.9 * len(held)
    diameter = BOARD.crystal_diameter
    zones = zone_map(BOARD)
    laid: list[tuple[float, float]] = []
    for key, spots in crowded.placements.items():
        assert len(spots) == len(scene.crystals[key])
        around = neighbours(BOARD, key)
        assert all(in_own_room(spot, around, 0.0) for spot in spots), key
        cx, cy = zones[key].centre
        laid.extend((cx + x, cy + y) for x, y in spots)
    # Solid: no crystal is laid into another, on its own place or the next.
    for n, spot in enumerate(laid):
        assert all(math.dist(spot, other) >= SOLID * diameter for other in laid[:n])


def test_crowded_places_are_off_centre() -> None:
    rng = np.random.default_rng(0)
    scene = random_position(BOARD, rng, random_topology(BOARD, rng))
    crowded = pushed_to_rims(BOARD, scene, rng)
    radius = zone_map(BOARD)["1"].radius
    lone = [spots[0] for spots in crowded.placements.values() if len(spots) == 1]
    # A centred crystal sits within 2 mm of the middle; pushed ones spread to the rim.
    assert np.mean([math.hypot(*spot) for spot in lone]) > 4.0
    assert max(math.hypot(*spot) for spot in lone) > radius / 2


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**16))
def test_a_crystal_put_beside_a_crowded_neighbour_never_sinks_into_its_crystals(seed: int) -> None:
    camera = SyntheticCamera(BOARD, Conditions.easy(), seed=seed)
    for colour in ("blue", "red", "yellow"):
        camera.put("15", colour)
    for colour in ("red", "yellow", "blue"):
        camera.put("13", colour)
    laid = lay_crystals(BOARD, camera.scene, seed)
    for n, crystal in enumerate(laid):
        for other in laid[:n]:
            assert math.dist(crystal.centre, other.centre) >= SOLID * BOARD.crystal_diameter
