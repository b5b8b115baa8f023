"""The MemWars board under the camera: two crystals of each colour on the places the
calibration plan names. A side may take any of the colours the board allows, so the setup
screen lets the user choose which to calibrate (the sides' colours of the games to be
played); the challenge pieces' yellow is always calibrated. The sides' colours and the
challenge pieces' are saved with their parts, so the reader knows whose crystal it sees."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from companion.games.camera import CameraProfile, crystal_instructions
from companion.games.memwars.palette import CHALLENGE_COLOUR, SIDE_COLOURS

COLOURS = ("red", "blue", CHALLENGE_COLOUR)
"""The default set's crystals: the two sides' and the challenge pieces'."""


def memwars_roles(colours: Sequence[str]) -> Mapping[str, str]:
    """Each side colour calibrated is a side's, in order; yellow is the challenge pieces'."""
    sides = [name for name in colours if name != CHALLENGE_COLOUR]
    roles = {f"side-{number}": name for number, name in enumerate(sides, start=1)}
    if CHALLENGE_COLOUR in colours:
        roles["challenge"] = CHALLENGE_COLOUR
    return roles


PROFILE = CameraProfile(
    colours=COLOURS,
    calibration_file="calibration.json",
    instructions=crystal_instructions,
    roles=memwars_roles,
    palette=(*SIDE_COLOURS, CHALLENGE_COLOUR),
    always=(CHALLENGE_COLOUR,),
)
