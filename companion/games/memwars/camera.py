"""The MemWars board under the camera: two crystals of each colour on the places the
calibration plan names; the sides' colours and the challenge pieces' are saved with their
parts, so the reader knows whose crystal it sees."""

from __future__ import annotations

from companion.games.camera import CameraProfile, crystal_instructions

COLOURS = ("red", "blue", "yellow")
"""The default set's crystals: the two sides' and the challenge pieces'."""


PROFILE = CameraProfile(
    colours=COLOURS,
    calibration_file="calibration.json",
    instructions=crystal_instructions,
    roles={"side-1": "red", "side-2": "blue", "challenge": "yellow"},
)
