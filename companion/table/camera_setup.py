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

    setup = CameraSetup.for_game("mem", grab, out=mem_calibration_path)   # the MeM board
    setup.instructions    # '... one stone of each colour on its square: white 0, black 31, ...'

    setup = CameraSetup.for_game("memwars", grab, out, colours=("red", "blue", "green"))
    setup.colours         # ('red', 'blue', 'green', 'yellow'): with the challenge pieces'

What each game lays for calibration, and how the screen says it, is the game's camera
profile (companion/games/camera.py): MemWars calibrates with its crystals (two places a
colour, for the side colours chosen and the challenge pieces' yellow), MeM with one stone of
each of its eleven colours on the squares its board file names
(vision/stone_calibration.py).

OpenCV and numpy are imported only here, when the camera is set up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.games import find_plugin, plugin_names
from companion.games.camera import CameraProfile, crystal_instructions

if TYPE_CHECKING:
    from vision.geometry import Board
    from vision.sources.controls import CameraControls


def camera_games() -> tuple[tuple[str, str], ...]:
    """The boards the camera can be calibrated for: (what the screen says, the game)."""
    return tuple(
        (find_plugin(name).title, name)
        for name in plugin_names()
        if find_plugin(name).camera is not None
    )


def profile_of(game: str) -> CameraProfile:
    profile = find_plugin(game).camera
    if profile is None:
        raise ValueError(f"the camera does not read the {find_plugin(game).title} board")
    return profile


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
    profile: CameraProfile | None = None
    """The game's camera profile: what the screen says; None for the crystals of a board
    file of no known game."""
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
    def for_game(
        cls,
        game: str,
        grab: Grab,
        out: Path,
        controls: CameraControls | None = None,
        colours: Sequence[str] | None = None,
    ) -> CameraSetup:
        """The board of `game`, calibrated as its camera profile says: for the `colours`
        chosen among those its board allows (with those every game has), or the profile's
        own when None."""
        from vision.geometry import BOARDS_DIR

        plugin = find_plugin(game)
        profile = profile_of(game)
        board_file = str(BOARDS_DIR / plugin.board_file) if plugin.board_file else ""
        calibrated = profile.colours if colours is None else profile.chosen(colours)
        return cls(
            grab,
            calibrated,
            out,
            roles=profile.roles(calibrated),
            board_file=board_file,
            controls=controls,
            profile=profile,
        )

    @property
    def game(self) -> str:
        assert self.board is not None
        return self.board.game

    @property
    def instructions(self) -> str:
        if self.profile is not None:
            return self.profile.instructions(self.plan)
        return crystal_instructions(self.plan)

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
            if self.profile is not None:
                problems = self.profile.problems(problems, self.plan)
            return Outcome(False, problems, picture, exposure=exposure)
        self.out.parent.mkdir(parents=True, exist_ok=True)
        result.calibration.save(self.out)
        names = ", ".join(model.name for model in result.calibration.colours)
        note = self.profile.saved_note if self.profile is not None else ""
        after = f" {note}" if note else ""
        for notice in result.notices:
            after += f" Note: {notice[:1].upper()}{notice[1:]}."
        return Outcome(
            True,
            (),
            picture,
            f"Calibrated {names}; North is at the {result.calibration.north} of the picture. "
            f"Saved to {self.out}.{after}" + f" {exposure}" * bool(exposure),
            exposure,
        )


def outcome_text(outcome: Outcome, profile: CameraProfile | None) -> str:
    """What the screen says after Calibrate: the summary, or why nothing was saved (one
    problem a line, as sentences, when the game's profile says so)."""
    if outcome.saved:
        return outcome.summary
    if profile is None or not profile.one_a_line:
        return "Not saved: " + " ".join(outcome.problems)
    lines = (p[:1].upper() + p[1:] + ("" if p.endswith(".") else ".") for p in outcome.problems)
    return "Not saved:\n" + "\n".join(lines)
