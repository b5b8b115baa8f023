"""Setting the camera up from the touchscreen: a live preview with the markers found and the
places drawn where the camera sees them, the pieces to lay for calibration, and the
calibration itself, saved where the reader looks for it.

    setup = CameraSetup(grab, colours=("red", "blue", "yellow"), out=calibration_path)
    picture, status = setup.preview()       # BGR image, 'markers 27/27 ...' or what is wrong
    setup.instructions                      # '... one red crystal on places 1 and 55; ...'
    outcome = setup.calibrate()             # reads a few frames; saved when it passes

    setup = CameraSetup(grab, colours, out, controls=controls_of(source))
    setup.calibrate()     # first sets the exposure from the paper and holds it (and the
                          # white balance): automatic exposure over a dark table clips it

    setup = CameraSetup.for_mem(grab, out=mem_calibration_path)   # the MeM board
    setup.instructions    # '... one stone of each colour on its square: white 0, black 31, ...'

MemWars is calibrated with its crystals (two places a colour); MeM with one stone of each of
its eleven colours on the squares its board file names (vision/stone_calibration.py), and
what stops a MeM calibration is said in a few sentences: colours the camera cannot tell
apart under this light, stones not seen.

OpenCV and numpy are imported only here, when the camera is set up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.geometry import Board
    from vision.sources.controls import CameraControls

BOARDS: tuple[tuple[str, str], ...] = (("MemWars", "memwars"), ("MeM", "mem"))
"""The boards the camera can be calibrated for: (what the screen says, the game)."""

Grab = Callable[[], Any]
"""The next camera frame (a BGR image), or None when the camera has none."""

FRAMES = 3
"""Frames calibrated from: a little sensor noise averaged out, quickly."""


@dataclass(frozen=True)
class Outcome:
    saved: bool
    problems: tuple[str, ...]
    picture: Any = None
    """The last frame, annotated with what the new calibration reads on it."""
    summary: str = ""
    exposure: str = ""
    """What the camera's exposure was set to, one line ('' when it cannot be set)."""


@dataclass
class CameraSetup:
    grab: Grab
    colours: Sequence[str]
    out: Path
    roles: Mapping[str, str] | None = None
    board: Board | None = None
    board_file: str = ""
    """Saved in the calibration: the board a game's reader loads with it (MemWars if '')."""
    controls: CameraControls | None = None
    """The camera's exposure and white balance (vision.sources.controls.controls_of): set
    from the board's paper and held before calibrating. None: left as the camera has them."""
    plan: dict[str, tuple[int, ...]] = field(init=False)

    def __post_init__(self) -> None:
        from vision.geometry import load_board
        from vision.plans import calibration_plan_for
        from vision.registration import RegistrationTracker

        if self.board is None:
            self.board = load_board(self.board_file or None)
        self.plan = calibration_plan_for(self.board, list(self.colours))
        self._tracker = RegistrationTracker(self.board)

    @classmethod
    def for_mem(cls, grab: Grab, out: Path, controls: CameraControls | None = None) -> CameraSetup:
        """The MeM board, calibrated with one stone of each of the eleven colours."""
        from companion.games.mem.colours import COLOURS

        path = mem_board_file()
        colours = tuple(c.name for c in COLOURS)
        return cls(grab, colours, out, board_file=str(path), controls=controls)

    @property
    def game(self) -> str:
        assert self.board is not None
        return self.board.game

    @property
    def instructions(self) -> str:
        if self.game == "mem":
            squares = ", ".join(f"{name} {places[0]}" for name, places in self.plan.items())
            return (
                "Lay the MeM board out empty, then put one stone of each colour on its "
                f"square: {squares}."
            )
        crystals = "; ".join(
            f"one {name} crystal on places {' and '.join(map(str, places))}"
            for name, places in self.plan.items()
        )
        return f"Lay the board out empty, then put {crystals}."

    def preview(self) -> tuple[Any, str]:
        """The camera's frame with the markers outlined and every place drawn where the
        camera sees it, and one line on how well the board is found."""
        from vision.annotate import annotate
        from vision.reading import BoardReading

        assert self.board is not None
        frame = self.grab()
        if frame is None:
            return None, "no picture from the camera"
        fit = self._tracker.update(frame)
        reading = BoardReading(registration=None if fit is None else fit.registration)
        picture = annotate(
            frame,
            reading,
            self.board,
            None if fit is None else fit.homography,
            () if fit is None else fit.detection.corners,
        )
        if fit is None:
            return picture, "board not found: are the markers in view?"
        registration = fit.registration
        return picture, (
            f"board found: {registration.markers_seen} of {registration.markers_total} "
            f"markers, North at the {registration.north} of the picture"
        )

    def calibrate(self) -> Outcome:
        """Learns the colours from the next frames; saves the calibration when every check
        passes, and says what is wrong otherwise."""
        from vision.annotate import annotate_read
        from vision.calibrate import calibrate
        from vision.exposure import meter_exposure
        from vision.reader import BoardReader

        assert self.board is not None
        metering = meter_exposure(self.controls, self.grab, self.board)
        exposure = "" if metering is None else metering.line
        frames = [f for f in (self.grab() for _ in range(FRAMES)) if f is not None]
        if not frames:
            return Outcome(False, ("no picture from the camera",))
        result = calibrate(
            self.board, frames, self.plan, roles=self.roles, board_file=self.board_file
        )
        picture = None
        if result.calibration.colours:
            reader = BoardReader(result.calibration, self.board)
            picture, _ = annotate_read(reader, frames[-1])
        if result.problems:
            problems = tuple(result.problems)
            if self.game == "mem":
                problems = stone_problems(problems, self.plan)
            return Outcome(False, problems, picture, exposure=exposure)
        self.out.parent.mkdir(parents=True, exist_ok=True)
        result.calibration.save(self.out)
        names = ", ".join(model.name for model in result.calibration.colours)
        after = " MeM games read the board with it from the next one on." * (self.game == "mem")
        return Outcome(
            True,
            (),
            picture,
            f"Calibrated {names}; North is at the {result.calibration.north} of the picture. "
            f"Saved to {self.out}.{after}" + f" {exposure}" * bool(exposure),
            exposure,
        )


def mem_board_file() -> Path:
    from vision.geometry import BOARDS_DIR

    return BOARDS_DIR / "mem.toml"


def stone_problems(problems: Sequence[str], plan: Mapping[str, tuple[int, ...]]) -> tuple[str, ...]:
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


def outcome_text(outcome: Outcome, game: str) -> str:
    """What the screen says after Calibrate: the summary, or why nothing was saved (for MeM
    one problem a line, as sentences)."""
    if outcome.saved:
        return outcome.summary
    if game != "mem":
        return "Not saved: " + " ".join(outcome.problems)
    lines = (p[:1].upper() + p[1:] + ("" if p.endswith(".") else ".") for p in outcome.problems)
    return "Not saved:\n" + "\n".join(lines)
