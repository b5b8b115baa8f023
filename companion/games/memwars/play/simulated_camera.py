"""The virtual camera over a simulated game, read back through the real board reader.

After every move that changes the board, the pieces the rules now place are laid on the
virtual table the way a player would lay them: a hand puts down or picks up each crystal,
turns or lays each counter. Every frame goes through the board reader and the temporal
filter, and every change the filter commits is checked against the rules' board. A mismatch
is reported and counted and the game goes on: the table is put right with the next move.

    camera = SimulatedCamera.start(CameraSettings(), side_count=2, seed=16)  # or a problem
    filmed = camera.film(state)     # after each committed action
    filmed.seen, filmed.alerts
    camera.summary()

OpenCV and numpy are imported only here, when a camera starts: the `companion` command
must not need them for anything else.
"""

from __future__ import annotations

import dataclasses
import logging
import statistics
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.games.memwars.board_pieces import (
    PieceColours,
    counters_on_board,
    crystals_on_board,
    piece_colours,
)
from companion.games.memwars.state import State
from companion.games.zone_check import (
    Mismatch,
    check,
    hand_moves,
    on_the_way,
    seen_text,
    zone_order,
)
from companion.table.not_started import NotStarted

if TYPE_CHECKING:
    from vision.reader import BoardReader
    from vision.synth import FilmedFrame, SyntheticCamera
    from vision.temporal import FilterState

log = logging.getLogger(__name__)

HANDS = ("short", "full")
STILL_FRAMES = 20
"""At most this many frames of the board left alone after the hands, filmed until what the
camera reads is what it has committed. A crystal put down takes 2 at 15 frames a second
when it reads clear-cut, up to 5 when less sure (the filter's longest wait, 250 ms)."""


@dataclass(frozen=True, slots=True)
class CameraSettings:
    seed: int | None = None
    """None films the easy table (Conditions.easy()); a number draws a harder one from it:
    camera pose, light, shadows, sensor."""
    hands: str = "short"
    """'short': one frame of the hand over the zone per piece, then still frames; 'full': the
    whole reach in and out, 20 to 40 frames a piece."""
    wrong_colour_at: int | None = None
    """Put the game's Nth crystal (from 1) down in another colour than the rules say: the
    way to see what a mismatch looks like."""


@dataclass(frozen=True, slots=True)
class Filmed:
    """What the camera made of one move."""

    seen: str = ""
    """The changes it committed that match the rules, as 'place 17 red; place 4 empty'."""
    alerts: tuple[str, ...] = ()
    """One line per zone where what it saw is not what the rules expect."""


@dataclass
class _Move:
    """The zones one move touched and what the filter committed meanwhile."""

    before: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """What the camera had committed when the move began."""
    touched: set[str] = field(default_factory=set)
    seen: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    mismatches: dict[str, Mismatch] = field(default_factory=dict)


class SimulatedCamera:
    def __init__(
        self,
        settings: CameraSettings,
        colours: PieceColours,
        camera: SyntheticCamera,
        reader: BoardReader,
    ) -> None:
        from vision.temporal import FilterState

        self.settings = settings
        self.colours = colours
        self.camera = camera
        self.reader = reader
        self.filter: FilterState = FilterState.start()
        self.centres = {zone.key: zone.centre for zone in camera.board.zones()}
        self.frames = 0
        self.committed = 0
        self.mismatches = 0
        self.read_seconds: list[float] = []
        self.stopped = ""
        self._puts = 0
        self._move = _Move()
        self._settled = True
        """Whether the last frame read the zones this move touched as the filter has committed
        them, with no hand over the board. Only the camera's own output decides, never what
        really lies there."""

    @classmethod
    def start(
        cls,
        settings: CameraSettings,
        side_count: int,
        seed: int,
        colours: PieceColours | None = None,
    ) -> SimulatedCamera | NotStarted:
        """A calibrated camera over an empty board, or why there is none. `colours` are the
        game's crystals (the default set's red, blue, ... and yellow when not given)."""
        try:
            return cls._calibrated(settings, side_count, seed, colours)
        except Exception as err:
            # The camera rides along with the game: nothing in it may stop the game.
            log.warning("the virtual camera could not start", exc_info=True)
            return NotStarted(str(err) or type(err).__name__)

    @classmethod
    def _calibrated(
        cls,
        settings: CameraSettings,
        side_count: int,
        seed: int,
        chosen: PieceColours | None = None,
    ) -> SimulatedCamera | NotStarted:
        import numpy as np

        from vision.calibrate import calibrate
        from vision.calibration import calibration_plan
        from vision.geometry import load_board
        from vision.reader import BoardReader
        from vision.synth import CHALLENGE, PALETTE, SIDES, Scene, SyntheticCamera
        from vision.synth.conditions import Conditions, random_conditions

        colours = chosen or piece_colours(side_count, SIDES, CHALLENGE, tuple(PALETTE))
        unknown = [c for c in (*colours.sides, colours.challenge) if c not in PALETTE]
        if unknown:
            return NotStarted(f"the virtual camera has no {', '.join(unknown)} crystals")
        if settings.seed is None:
            conditions = Conditions.easy()
        else:
            conditions = random_conditions(np.random.default_rng(settings.seed))
        board = load_board()
        camera = SyntheticCamera(
            board, conditions, seed=seed if settings.seed is None else settings.seed
        )
        plan = calibration_plan((*colours.sides, colours.challenge))
        camera.set_scene(
            Scene(crystals={str(p): (name,) for name, places in plan.items() for p in places})
        )
        frames = [camera.read() for _ in range(2)]
        camera.set_scene(Scene())
        roles = {f"side-{i + 1}": c for i, c in enumerate(colours.sides)}
        roles["challenge"] = colours.challenge
        result = calibrate(board, frames, plan, roles=roles)
        if result.problems:
            return NotStarted("; ".join(result.problems))
        return cls(settings, colours, camera, BoardReader(result.calibration, board))

    def describe(self) -> str:
        table = "the easy table" if self.settings.seed is None else f"table {self.settings.seed}"
        return (
            f"Camera: virtual, over {table}, calibrated for "
            f"{', '.join((*self.colours.sides, self.colours.challenge))}; "
            f"{self.settings.hands} hands."
        )

    def film(self, state: State) -> Filmed:
        """Lays the table as `state` has it, filming and reading every frame."""
        if self.stopped:
            return Filmed()
        try:
            return self._film(state)
        except Exception as err:
            log.warning("the virtual camera stopped", exc_info=True)
            self.stopped = str(err) or type(err).__name__
            return Filmed(alerts=(f"the camera stopped: {self.stopped}",))

    def summary(self) -> str:
        median = statistics.median(self.read_seconds) * 1000 if self.read_seconds else 0.0
        stopped = f"; it stopped: {self.stopped}" if self.stopped else ""
        return (
            f"Camera: {self.frames} frames read, {self.committed} changes committed, "
            f"{self.mismatches} mismatch{'' if self.mismatches == 1 else 'es'}, "
            f"median read {median:.1f} ms{stopped}."
        )

    # -- one move --------------------------------------------------------------------------

    def _film(self, state: State) -> Filmed:
        wanted = crystals_on_board(state, self.colours)
        counters = counters_on_board(state)
        scene = self.camera.scene
        moves = hand_moves(scene.crystals, wanted)
        laid = [
            zone
            for zone in sorted(set(counters) | set(scene.counters), key=zone_order)
            if counters.get(zone, ()) != tuple(scene.counters.get(zone, ()))
        ]
        if not moves and not laid:
            return Filmed()
        self._move = _Move(self.filter.committed, {move.zone for move in moves} | set(laid))
        for zone in laid:
            self._lay_counters(zone, counters.get(zone, ()), wanted)
        for move in moves:
            if move.puts:
                self._put(move.zone, self._colour_to_put(move.colour), wanted)
            else:
                self._take(move.zone, move.colour, wanted)
        self._settle(wanted)
        return self._verdict(wanted)

    def _colour_to_put(self, colour: str) -> str:
        self._puts += 1
        if self._puts != self.settings.wrong_colour_at:
            return colour
        others = [c for c in (*self.colours.sides, self.colours.challenge) if c != colour]
        return others[0]

    def _put(self, zone: str, colour: str, wanted: Mapping[str, tuple[str, ...]]) -> None:
        if self.settings.hands == "full":
            self._read_all(self.camera.sequence_hand_over(zone, put=colour), wanted)
        else:
            self.camera.put(zone, colour)
            self._hand_over(zone, None, wanted)

    def _take(self, zone: str, colour: str, wanted: Mapping[str, tuple[str, ...]]) -> None:
        if self.settings.hands == "full":
            self._read_all(self.camera.sequence_hand_over(zone, take=colour), wanted)
        else:
            self.camera.take(zone, colour)
            self._hand_over(zone, colour, wanted)

    def _lay_counters(
        self, zone: str, values: tuple[int | None, ...], wanted: Mapping[str, tuple[str, ...]]
    ) -> None:
        """Counters are laid, turned or taken by hand too, and lie under crystals the reader
        must still count. The filter commits them too; this camera checks the crystals only
        (the live game checks the counters against the rules)."""
        counters = dict(self.camera.scene.counters)
        if values:
            counters[zone] = values
        else:
            counters.pop(zone, None)
        self.camera.set_scene(dataclasses.replace(self.camera.scene, counters=counters))
        self._hand_over(zone, None, wanted)

    def _hand_over(
        self, zone: str, holding: str | None, wanted: Mapping[str, tuple[str, ...]]
    ) -> None:
        """One frame of a hand over `zone`, reaching in from the nearer long side."""
        self.camera.reach_over(self.centres[zone], holding)
        self._read(self.camera.grab(), wanted)
        self.camera.hand_out()

    def _settle(self, wanted: Mapping[str, tuple[str, ...]]) -> None:
        for _ in range(STILL_FRAMES):
            self._read(self.camera.grab(), wanted)
            if self._settled:
                break

    def _read_all(
        self, frames: Iterable[FilmedFrame], wanted: Mapping[str, tuple[str, ...]]
    ) -> None:
        for frame in frames:
            self._read(frame, wanted)

    def _read(self, frame: FilmedFrame, wanted: Mapping[str, tuple[str, ...]]) -> None:
        from vision.temporal import step

        started = time.perf_counter()
        reading = self.reader.read(frame.image, frame.t_ns)
        self.read_seconds.append(time.perf_counter() - started)
        self.frames += 1
        self.filter, observation = step(self.filter, reading)
        self._settled = not reading.hands and all(
            key in reading.zones
            and not reading.zones[key].occluded
            and reading.zones[key].crystals == self.filter.contents(key)
            for key in self._move.touched
        )
        if observation is None:
            return
        for change in observation.changes:
            self.committed += 1
            self._move.touched.add(change.key)
            mismatch = check(change.key, change.after, wanted)
            if mismatch is None:
                self._move.seen.append((change.key, change.after))
            else:
                # Between two hands' work on one zone a full sequence may commit a halfway
                # board; whether the move ended right is judged once the hands are done.
                before = self._move.before.get(change.key, ())
                if not on_the_way(change.after, before, mismatch.expected):
                    self._move.mismatches.setdefault(change.key, mismatch)

    def _verdict(self, wanted: Mapping[str, tuple[str, ...]]) -> Filmed:
        """Every zone the move touched must now read as the rules have it: a change the
        camera never committed is a mismatch as much as a wrong one."""
        move = self._move
        for zone in sorted(move.touched, key=zone_order):
            if zone not in move.mismatches:
                mismatch = check(zone, self.filter.contents(zone), wanted)
                if mismatch is not None:
                    move.mismatches[zone] = mismatch
        self.mismatches += len(move.mismatches)
        alerts = tuple(m.text() for m in move.mismatches.values())
        return Filmed(seen_text(move.seen), alerts)
