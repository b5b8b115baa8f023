"""The MeM board under the camera: one stone of each of the eleven colours on the squares
the board file names, and what stops a calibration said in a few sentences (colours the
camera cannot tell apart under this light, stones not seen)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.camera import CameraProfile, Plan
from companion.games.mem.colours import COLOURS


def stone_instructions(plan: Plan) -> str:
    squares = ", ".join(f"{name} {places[0]}" for name, places in plan.items())
    return (
        f"Lay the MeM board out empty, then put one stone of each colour on its square: {squares}."
    )


def stone_problems(problems: Sequence[str], plan: Plan) -> tuple[str, ...]:
    """A MeM calibration's problems for the screen: what stops it first (colours the camera
    cannot tell apart under this light, glare hiding one), then the stones not seen, all in
    one sentence, then what the frames read back wrong."""
    missing = [
        name for name in plan if any(p.startswith(f"no {name} stone was seen") for p in problems)
    ]
    rest = [p for p in problems if not any(p.startswith(f"no {n} stone was seen") for n in missing)]
    light = [p for p in rest if " look alike " in p or p.startswith("glare ")]
    said: list[str] = [*light]
    if missing:
        squares = ", ".join(f"{' and '.join(map(str, plan[name]))} ({name})" for name in missing)
        said.append(
            f"No stone was seen on square{'s' * (len(missing) > 1)} {squares}: lay one stone "
            "of each colour on the square named; a stone that is there cannot be told from the "
            "bare paper under this light."
        )
    said.extend(p for p in rest if p not in light)
    return tuple(said)


PROFILE = CameraProfile(
    colours=tuple(colour.name for colour in COLOURS),
    calibration_file="mem-calibration.json",
    instructions=stone_instructions,
    problems=stone_problems,
    one_a_line=True,
    saved_note="MeM games read the board with it from the next one on.",
)
