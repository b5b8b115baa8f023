"""MeM's stones under the camera: the temporal filter over the stone reader's frames, and the
simulated MeM table of `companion run --simulate` and the app without a camera.

    table = VirtualMemTable.start({0: "white", 1: "red", ...}, on_seen=..., on_unsure=...)
    table.tap(12)           # a hand takes the stone on square 12 off (or puts it back)
    table.follow(board)     # lays the board as the rules have it (the table work after a
                            # capture or a takeback)
    table.stop()

The table is the MeM board (vision/boards/mem.toml) filmed by the virtual camera, calibrated
as a player would calibrate it (one stone of each colour on the squares the plan names) and
read by the real board reader on a thread of its own. Every change is filmed with a hand
over the square, then still frames until the temporal filter has committed what the camera
sees; each committed board goes to `on_seen`, and the squares the camera cannot name the
stone of to `on_unsure`, from the camera thread (the app hands them to its own thread).
What reaches the game is only ever what the camera read, never what the simulation put
there.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.table.not_started import NotStarted
from companion.table.unsure import UnsureState, unsure_step

if TYPE_CHECKING:
    from vision.reader import BoardReader
    from vision.synth import SyntheticCamera

log = logging.getLogger(__name__)

Stones = Mapping[int, str]
"""Square -> the colour name of the stone on it."""
Seen = Callable[[dict[str, tuple[str, ...]]], None]
Unsure = Callable[[frozenset[str]], None]

STILL_FRAMES = 8
"""Frames filmed after the last change: at 15 frames a second, enough for the filter's
longest wait (250 ms) and some."""
MAX_STILL_FRAMES = 45
"""At most this many, while the camera still waits to commit what it reads (a stone read
doubtfully for a few frames, say): three seconds of a real camera's frames."""


def camera_stones(stones: Stones) -> dict[str, tuple[str, ...]]:
    """Stones as the camera reports them: zone key -> (colour,)."""
    return {str(square): (colour,) for square, colour in stones.items() if colour}


@dataclass(frozen=True, slots=True)
class _Tap:
    square: int


@dataclass(frozen=True, slots=True)
class _Follow:
    stones: dict[int, str]


_Work = _Tap | _Follow | None
"""What the camera thread is asked to do; None stops it."""


class VirtualMemTable:
    def __init__(
        self,
        camera: SyntheticCamera,
        reader: BoardReader,
        stones: Stones,
        on_seen: Seen,
        on_unsure: Unsure | None = None,
    ) -> None:
        from vision.temporal import FilterState

        self._camera = camera
        self._reader = reader
        self._centres = {zone.key: zone.centre for zone in camera.board.zones()}
        self._on_seen = on_seen
        self._on_unsure = on_unsure
        # The stones are dealt before the game: the camera starts where the rules do.
        self._filter = FilterState.start(camera_stones(stones))
        self._unsure = UnsureState()
        self._settled = True
        self._taken: dict[int, str] = {}
        """Square -> the stone a tap took off it, for the next tap to put back."""
        self._lock = threading.Lock()
        self._work: queue.Queue[_Work] = queue.Queue()
        self._asked = 0
        """Changes asked of the table so far."""
        self._filmed = 0
        """Changes filmed to a quiet table so far (the camera thread's count)."""
        self._stopped = threading.Event()
        self.frames = 0
        self.failed = ""
        """Why the camera stopped, or '' while it runs."""
        self.on_failure: Callable[[str], None] | None = None
        self._set_stones(stones)
        self._thread = threading.Thread(target=self._run, name="virtual-mem-camera", daemon=True)

    @classmethod
    def start(
        cls,
        stones: Stones,
        on_seen: Seen,
        on_unsure: Unsure | None = None,
        seed: int = 0,
    ) -> VirtualMemTable | NotStarted:
        """A calibrated camera over the MeM board with `stones` dealt on it, filming; or why
        there is none."""
        try:
            camera, reader = _calibrated_camera(seed)
        except Exception as err:
            log.warning("the virtual MeM camera could not start", exc_info=True)
            return NotStarted(str(err) or type(err).__name__)
        table = cls(camera, reader, stones, on_seen, on_unsure)
        table._thread.start()
        table._ask(_Follow(dict(stones)))  # still frames: the first reading
        return table

    def contents(self) -> dict[int, str]:
        """What really lies on the table (the simulation's truth, not the camera's)."""
        with self._lock:
            return self._stones_now()

    @property
    def idle(self) -> bool:
        """Every change asked for has been filmed and what the camera reads committed."""
        return self._filmed == self._asked

    # -- hands -----------------------------------------------------------------------------

    def tap(self, square: int) -> None:
        """A hand takes the stone on `square` off the board, or puts back the one it took."""
        self._ask(_Tap(square))

    def follow(self, stones: Stones) -> None:
        """Lays the table as `stones` has it, square by square."""
        self._ask(_Follow(dict(stones)))

    def _ask(self, work: _Tap | _Follow) -> None:
        with self._lock:
            self._asked += 1
        self._work.put(work)

    def stop(self) -> None:
        self._stopped.set()
        self._work.put(None)
        self._thread.join(timeout=5)

    # -- the camera thread -----------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._film()
        except Exception as err:
            log.warning("the virtual MeM camera stopped", exc_info=True)
            self.failed = str(err) or type(err).__name__
            if self.on_failure is not None:
                self.on_failure(self.failed)

    def _film(self) -> None:
        still = STILL_FRAMES
        taken = 0
        while not self._stopped.is_set():
            try:
                # Once the table has been still long enough, wait for the next change.
                quiet = still >= STILL_FRAMES and (self._settled or still >= MAX_STILL_FRAMES)
                if quiet:
                    with self._lock:
                        self._filmed = taken
                work = self._work.get() if quiet else self._work.get_nowait()
            except queue.Empty:
                still += 1
            else:
                if work is None:
                    return
                taken += 1
                for square, colour in self._hand_moves(work):
                    self._by_hand(square, colour)
                still = 0
            self._read(self._grab())

    def _hand_moves(self, work: _Tap | _Follow) -> list[tuple[int, str | None]]:
        """(square, the stone to leave there or None) for each square a hand changes."""
        now = self.contents()
        if isinstance(work, _Tap):
            if work.square in now:
                self._taken[work.square] = now[work.square]
                return [(work.square, None)]
            back = self._taken.pop(work.square, None)
            return [(work.square, back)] if back is not None else []
        moves: list[tuple[int, str | None]] = []
        for square in sorted(set(now) | set(work.stones)):
            if now.get(square) != work.stones.get(square):
                moves.append((square, work.stones.get(square)))
        for square, colour in moves:
            if colour is not None:
                self._taken.pop(square, None)
        return moves

    def _by_hand(self, square: int, colour: str | None) -> None:
        """The stone on `square` changed, filmed as a hand would do it: one frame of the hand
        over the square, the first that shows the change."""
        centre = self._centres.get(str(square))
        if centre is None:
            return
        with self._lock:
            self._set_stones({**self._stones_now(), square: colour or ""})
            self._camera.reach_over(centre)
        frame = self._grab()
        with self._lock:
            self._camera.hand_out()
        self._read(frame)

    def _stones_now(self) -> dict[int, str]:
        crystals = self._camera.scene.crystals
        return {int(zone): stones[0] for zone, stones in crystals.items() if stones}

    def _set_stones(self, stones: Mapping[int, str]) -> None:
        """Every stone laid centred on its square (the reader looks for one stone a square)."""
        scene = self._camera.scene
        self._camera.set_scene(
            dataclasses.replace(scene, crystals=camera_stones(stones), placements={})
        )

    def _grab(self) -> Any:
        self.frames += 1
        with self._lock:
            return self._camera.grab()

    def _read(self, frame: Any) -> None:
        from vision.temporal import step

        reading = self._reader.read(frame.image, frame.t_ns)
        self._filter, observation = step(self._filter, reading)
        self._unsure, unsure = unsure_step(self._unsure, reading)
        # Settled: nothing over the board, nothing read that the filter has yet to commit,
        # no doubt yet to be told.
        self._settled = (
            not reading.hands
            and not self._filter.pending
            and set(self._unsure.since) == self._unsure.reported
        )
        if unsure is not None and self._on_unsure is not None:
            self._on_unsure(unsure)
        if observation is not None and observation.changes:
            self._on_seen(dict(self._filter.committed))


def _calibrated_camera(seed: int) -> tuple[SyntheticCamera, BoardReader]:
    """The virtual camera over the MeM board under easy light, calibrated as a player would
    calibrate it: one stone of each of the eleven colours on the plan's squares, two
    frames."""
    from companion.games.mem.colours import COLOURS
    from vision.calibrate import calibrate
    from vision.geometry import BOARDS_DIR, load_board
    from vision.plans import calibration_plan_for
    from vision.reader import BoardReader
    from vision.synth import Scene, SyntheticCamera
    from vision.synth.conditions import Conditions

    path = BOARDS_DIR / "mem.toml"
    board = load_board(path)
    camera = SyntheticCamera(board, Conditions.easy(), seed=seed)
    plan = calibration_plan_for(board, [c.name for c in COLOURS])
    camera.set_scene(Scene(crystals={str(places[0]): (name,) for name, places in plan.items()}))
    frames = [camera.read() for _ in range(2)]
    camera.set_scene(Scene())
    result = calibrate(board, frames, plan, board_file=str(path))
    if result.problems:
        raise RuntimeError("; ".join(result.problems))
    return camera, BoardReader(result.calibration, board)
