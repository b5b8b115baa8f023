"""The simulated table of `companion run --simulate`: crystals put down and picked up by taps,
filmed by the virtual camera and read back by the real board reader on a thread of its own.

    table = VirtualTable.start(side_count=2, on_seen=live_game_table_seen)  # or why not
    table.put("17", "red")           # a hand puts a crystal on place 17
    table.take("17", "red")
    table.lay_counters("33", (5,))   # a hand lays, turns or takes counters: now a face-up 5
    table.follow(rules_board, rules_counters)   # lays every zone as the rules have it (the
                                     # opponent's and the rules' own moves)
    table.stop()

Every change is filmed with a hand over the zone, then still frames until the temporal
filter has committed what the camera sees; each committed board goes to `on_seen`, and the
committed topology counters to `on_counters` when they change (before the crystals of the
same frame), from the camera thread (the app hands them to its own thread). What reaches
the game is only ever what the camera read, never what the simulation put there.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.memwars.board_pieces import PieceColours
from companion.games.memwars.play.simulated_camera import (
    CameraSettings,
    SimulatedCamera,
)
from companion.games.zone_check import hand_moves, zone_order
from companion.table.not_started import NotStarted

if TYPE_CHECKING:
    from vision.synth import FilmedFrame
    from vision.temporal import FilterState

log = logging.getLogger(__name__)

Board = Mapping[str, Sequence[str]]
Seen = Callable[[dict[str, tuple[str, ...]]], None]
Counters = dict[str, tuple[int | None, ...]]
CountersSeen = Callable[[Counters], None]

STILL_FRAMES = 12
"""Frames filmed at most after the last change, until the filter has committed what the
camera reads: at 15 frames a second, enough for its longest wait (250 ms) and some."""


@dataclass(frozen=True, slots=True)
class _Change:
    zone: str
    colour: str
    puts: bool


@dataclass(frozen=True, slots=True)
class _Counters:
    """A hand leaves `values` on `zone`: counters laid, turned or taken."""

    zone: str
    values: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class _Follow:
    board: dict[str, tuple[str, ...]]
    counters: Counters | None = None
    """None: the counters are left as they lie."""


_Work = _Change | _Counters | _Follow | None
"""What the camera thread is asked to do; None stops it."""


class VirtualTable:
    def __init__(
        self,
        filming: SimulatedCamera,
        on_seen: Seen,
        fps: float | None = None,
        on_counters: CountersSeen | None = None,
    ) -> None:
        """`fps` paces the frames in real time, as a camera would deliver them; None films
        as fast as frames can be rendered and read (the camera's own clock still says 15
        frames a second, which is what the temporal filter counts by)."""
        self._filming = filming
        self._period = 1.0 / fps if fps else 0.0
        self._next_frame = 0.0
        self.changed_at: dict[str, float] = {}
        """Zone -> when (time.monotonic()) the first frame was taken that shows the last
        change a hand made there."""
        self._on_seen = on_seen
        self._on_counters = on_counters
        self._work: queue.Queue[_Work] = queue.Queue()
        self._stopped = threading.Event()
        self.frames = 0
        self.failed = ""
        """Why the camera stopped, or '' while it runs."""
        self.on_failure: Callable[[str], None] | None = None
        self._thread = threading.Thread(target=self._run, name="virtual-camera", daemon=True)

    @classmethod
    def start(
        cls,
        side_count: int,
        on_seen: Seen,
        seed: int = 0,
        fps: float | None = None,
        colours: PieceColours | None = None,
        on_counters: CountersSeen | None = None,
    ) -> VirtualTable | NotStarted:
        filming = SimulatedCamera.start(
            CameraSettings(), side_count=side_count, seed=seed, colours=colours
        )
        if isinstance(filming, NotStarted):
            return filming
        table = cls(filming, on_seen, fps=fps, on_counters=on_counters)
        table._thread.start()
        return table

    @property
    def colours(self) -> tuple[str, ...]:
        """The sides' colours, then the challenge pieces', as the camera was calibrated."""
        c = self._filming.colours
        return (*c.sides, c.challenge)

    def committed(self) -> dict[str, tuple[str, ...]]:
        """What the camera has committed so far: what it last handed to `on_seen`, or is
        about to."""
        return dict(self._filming.filter.committed)

    def contents(self) -> dict[str, tuple[str, ...]]:
        """What really lies on the table (the simulation's truth, not the camera's)."""
        return {z: tuple(c) for z, c in self._filming.camera.scene.crystals.items() if c}

    def committed_counters(self) -> Counters:
        """The topology counters the camera has committed so far."""
        return self._filming.filter.committed_counters()

    def counters(self) -> Counters:
        """The topology counters that really lie on the table (the simulation's truth)."""
        return {z: tuple(v) for z, v in self._filming.camera.scene.counters.items() if v}

    # -- hands -----------------------------------------------------------------------------

    def put(self, zone: str, colour: str) -> None:
        self._work.put(_Change(zone, colour, puts=True))

    def take(self, zone: str, colour: str) -> None:
        self._work.put(_Change(zone, colour, puts=False))

    def lay_counters(self, zone: str, values: tuple[int | None, ...]) -> None:
        """A hand leaves `values` on `zone` (None face down): the counters there laid,
        turned or taken, whatever the rules say."""
        self._work.put(_Counters(zone, tuple(values)))

    def follow(
        self, board: Board, counters: Mapping[str, Sequence[int | None]] | None = None
    ) -> None:
        """Lays the table as `board` (and `counters`, when given) has it, zone by zone: the
        counters first, as a player clears them before laying crystals on a place."""
        # The hand moves are worked out on the camera thread, against the table as it is
        # by then.
        laid = None if counters is None else {z: tuple(v) for z, v in counters.items() if v}
        self._work.put(_Follow({z: tuple(c) for z, c in board.items() if c}, laid))

    def stop(self) -> None:
        self._stopped.set()
        self._work.put(None)
        self._thread.join(timeout=5)

    # -- the camera thread -----------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._film()
        except Exception as err:
            log.warning("the virtual camera stopped", exc_info=True)
            self.failed = str(err) or type(err).__name__
            if self.on_failure is not None:
                self.on_failure(self.failed)

    def _film(self) -> None:
        from vision.temporal import step

        filming = self._filming
        still = STILL_FRAMES  # nothing to film until something changes
        while not self._stopped.is_set():
            try:
                # Once the table has been still long enough, wait for the next change.
                work = self._work.get() if still >= STILL_FRAMES else self._work.get_nowait()
            except queue.Empty:
                still += 1
            else:
                if work is None:
                    return
                moves = self._hand_work(work)
                for move in moves:
                    self._apply(move)
                still = 0 if moves else still
                if not moves:
                    continue
            frame = self._grab()
            reading = filming.reader.read(frame.image, frame.t_ns)
            filming.filter, observation = step(filming.filter, reading)
            if observation is not None:
                if observation.counter_changes and self._on_counters is not None:
                    self._on_counters(filming.filter.committed_counters())
                if observation.changes:
                    self._on_seen(dict(filming.filter.committed))
            if not reading.hands and _settled(filming.filter):
                # What the camera reads is what it has committed: more frames would only be
                # rendered and read while the game takes the move in, and slow it down.
                still = STILL_FRAMES

    def _hand_work(self, work: _Change | _Counters | _Follow) -> list[_Change | _Counters]:
        """The hands' work for `work`, against the table as it lies now."""
        if not isinstance(work, _Follow):
            return [work]
        scene = self._filming.camera.scene
        moves: list[_Change | _Counters] = []
        if work.counters is not None:
            for zone in sorted(set(scene.counters) | set(work.counters), key=zone_order):
                wanted = work.counters.get(zone, ())
                if tuple(scene.counters.get(zone, ())) != wanted:
                    moves.append(_Counters(zone, wanted))
        moves.extend(
            _Change(m.zone, m.colour, m.puts) for m in hand_moves(scene.crystals, work.board)
        )
        return moves

    def _grab(self, changed: str = "") -> FilmedFrame:
        if self._period:
            now = time.monotonic()
            self._next_frame = max(self._next_frame + self._period, now)
            time.sleep(self._next_frame - now)
        if changed:
            self.changed_at[changed] = time.monotonic()  # the instant the frame is taken
        self.frames += 1
        return self._filming.camera.grab()

    def _apply(self, change: _Change | _Counters) -> None:
        camera = self._filming.camera
        centre = self._filming.centres.get(change.zone)
        if centre is None:
            return
        try:
            if isinstance(change, _Counters):
                counters = dict(camera.scene.counters)
                if change.values:
                    counters[change.zone] = change.values
                else:
                    counters.pop(change.zone, None)
                camera.set_scene(dataclasses.replace(camera.scene, counters=counters))
            elif change.puts:
                camera.put(change.zone, change.colour)
            else:
                camera.take(change.zone, change.colour)
        except ValueError:
            log.info("nothing to take off %s", change.zone)
            return
        # One frame of the hand over the zone, as a player's would be: the first frame that
        # shows the change.
        camera.reach_over(centre)
        frame = self._grab(changed=change.zone)
        camera.hand_out()
        reading = self._filming.reader.read(frame.image, frame.t_ns)
        from vision.temporal import step

        self._filming.filter, _ = step(self._filming.filter, reading)


def _settled(state: FilterState) -> bool:
    """Whether the filter has committed all it reads, crystals and counters: nothing
    waiting, no zone left unsettled by the hand."""
    counters = state.counters
    return (
        not state.pending
        and not state.unsettled
        and (counters is None or (not counters.pending and not counters.unsettled))
    )
