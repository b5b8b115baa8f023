"""Setting the camera up from the touchscreen: a live preview with the markers found and the
places drawn where the camera sees them, the crystals to lay for calibration, and the
calibration itself, saved where the reader looks for it.

    setup = CameraSetup(grab, colours=("red", "blue", "yellow"), out=calibration_path)
    picture, status = setup.preview()       # BGR image, 'markers 27/27 ...' or what is wrong
    setup.instructions                      # 'one red crystal on places 1 and 55; ...'
    outcome = setup.calibrate()             # reads a few frames; saved when it passes

OpenCV and numpy are imported only here, when the camera is set up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.geometry import Board

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


@dataclass
class CameraSetup:
    grab: Grab
    colours: Sequence[str]
    out: Path
    roles: Mapping[str, str] | None = None
    board: Board | None = None
    plan: dict[str, tuple[int, ...]] = field(init=False)

    def __post_init__(self) -> None:
        from vision.calibration import calibration_plan
        from vision.geometry import load_board
        from vision.registration import RegistrationTracker

        if self.board is None:
            self.board = load_board()
        self.plan = dict(calibration_plan(tuple(self.colours)))
        self._tracker = RegistrationTracker(self.board)

    @property
    def instructions(self) -> str:
        return "; ".join(
            f"one {name} crystal on places {' and '.join(map(str, places))}"
            for name, places in self.plan.items()
        )

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
        from vision.reader import BoardReader

        assert self.board is not None
        frames = [f for f in (self.grab() for _ in range(FRAMES)) if f is not None]
        if not frames:
            return Outcome(False, ("no picture from the camera",))
        result = calibrate(self.board, frames, self.plan, roles=self.roles)
        picture = None
        if result.calibration.colours:
            reader = BoardReader(result.calibration, self.board)
            picture, _ = annotate_read(reader, frames[-1])
        if result.problems:
            return Outcome(False, tuple(result.problems), picture)
        self.out.parent.mkdir(parents=True, exist_ok=True)
        result.calibration.save(self.out)
        names = ", ".join(model.name for model in result.calibration.colours)
        return Outcome(
            True,
            (),
            picture,
            f"Calibrated {names}; North is at the {result.calibration.north} of the picture. "
            f"Saved to {self.out}.",
        )
