"""A virtual webcam over a board whose pieces can be moved between frames.

    camera = SyntheticCamera(load_board(), random_conditions(rng), seed=3)
    camera.put("17", "red")
    image = camera.read()                         # a new exposure: fresh sensor noise
    for frame in camera.sequence_hand_over("18", put="blue"):
        frame.image, frame.scene, frame.hand_over_board   # picture and its truth

The conditions stay fixed for the camera's life (it is bolted over one table), but for
the exposure, which its controls set like a webcam's:

    camera = SyntheticCamera(board, conditions, auto_exposure=True)   # meters every frame
    camera.set_auto_exposure(False)               # keeps the exposure it had reached
    camera.set_exposure(0.5)                      # linear, against conditions.exposure 1

Crystals already on a zone stay where they are when another is put beside them.
Everything follows from the seed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from vision.geometry import Board
from vision.synth.arrangement import (
    crystals_around,
    current_offsets,
    neighbours,
    random_stream,
    spot_beside,
    zone_map,
)
from vision.synth.conditions import Conditions
from vision.synth.motion import Reach, reach
from vision.synth.render import render
from vision.synth.scene import Hand, Scene
from vision.synth.sensor import metered_exposure

HAND_HEIGHT = 40.0
"""Of the palm over the board while it lets go of a piece, millimetres."""
SETTLE_FRAMES = 16
"""The most frames automatic exposure is given to settle when it is turned on."""


@dataclass(frozen=True, slots=True)
class FilmedFrame:
    image: NDArray[np.uint8]
    jpeg: bytes
    scene: Scene
    """What was really on the table, hands included."""
    hand_over_board: bool
    index: int
    """Frames since the camera was made."""
    t_ns: int
    """The frame's time on the camera's own clock: index / fps."""


class SyntheticCamera:
    def __init__(
        self,
        board: Board,
        conditions: Conditions | None = None,
        seed: int = 0,
        fps: float = 15.0,
        *,
        auto_exposure: bool = False,
    ) -> None:
        """`fps` sets the frames' timestamps; pacing reads in real time is the frame
        source's business (vision.sources.SyntheticSource). With `auto_exposure` the
        camera meters each frame's mean and sets the exposure of the next."""
        self.board = board
        self.conditions = conditions if conditions is not None else Conditions.easy()
        self.seed = seed
        self.fps = fps
        self._scene = Scene()
        self._index = 0
        self._changes = 0
        self._auto_exposure = auto_exposure
        self._settled = False

    @property
    def exposure(self) -> float:
        """The exposure the next frame is taken at (linear)."""
        return self.conditions.exposure

    @property
    def auto_exposure(self) -> bool:
        return self._auto_exposure

    def set_exposure(self, exposure: float) -> None:
        """Taken from the next frame on; automatic exposure, when on, moves it again."""
        if exposure <= 0:
            raise ValueError("exposure must be more than 0")
        self.conditions = self.conditions.replace(exposure=float(exposure))

    def set_auto_exposure(self, on: bool) -> None:
        """Off keeps the exposure automatic exposure had reached, as a webcam does."""
        if on and not self._auto_exposure:
            self._settled = False
        if not on and self._auto_exposure and not self._settled:
            self._settle()  # the exposure a camera running a while would have reached
        self._auto_exposure = on

    @property
    def scene(self) -> Scene:
        return self._scene

    def set_scene(self, scene: Scene) -> None:
        self._scene = scene

    def put(self, zone: str, colour: str) -> None:
        """Put one more crystal on `zone`, beside any already there."""
        zones = zone_map(self.board)
        if zone not in zones:
            raise ValueError(f"the board has no zone {zone!r}")
        taken = current_offsets(self.board, self._scene, self.seed, zone)
        self._changes += 1
        rng = random_stream(self.seed, "put", zone, self._changes)
        spot = spot_beside(
            taken,
            self.board.crystal_diameter,
            zones[zone].radius,
            rng,
            neighbours(self.board, zone),
            crystals_around(self.board, self._scene, self.seed, zone),
        )
        colours = (*self._scene.crystals.get(zone, ()), colour)
        self._set_zone(zone, colours, (*taken, spot))

    def take(self, zone: str, colour: str | None = None) -> str:
        """Pick a crystal off `zone` (one of `colour`, or any); its colour."""
        colours = list(self._scene.crystals.get(zone, ()))
        if colour is None and colours:
            index = len(colours) - 1
        elif colour in colours:
            index = len(colours) - 1 - colours[::-1].index(colour)
        else:
            raise ValueError(f"no {colour or 'crystal'} on zone {zone!r}")
        taken = current_offsets(self.board, self._scene, self.seed, zone)
        removed = colours.pop(index)
        taken.pop(index)
        self._set_zone(zone, tuple(colours), tuple(taken))
        return removed

    def hand_in(
        self,
        tip: tuple[float, float],
        angle: float = 90.0,
        height: float = 60.0,
        holding: str | None = None,
    ) -> None:
        """A hand over the board (replacing any other)."""
        hand = Hand(tip=tip, angle=angle, height=height, holding=holding)
        self._scene = dataclasses.replace(self._scene, hands=(hand,))

    def reach_over(self, centre: tuple[float, float], holding: str | None = None) -> None:
        """A hand over `centre`, reaching in from the nearer long side of the board, as low
        as a hand letting go of a piece: a player at the table."""
        angle = 90.0 if centre[1] > self.board.height / 2 else 270.0
        self.hand_in(centre, angle=angle, height=HAND_HEIGHT, holding=holding)

    def hand_out(self) -> None:
        self._scene = dataclasses.replace(self._scene, hands=())

    def read(self) -> NDArray[np.uint8]:
        """The next frame of the current scene."""
        return self.grab().image

    def grab(self) -> FilmedFrame:
        """The next frame, with the truth it shows."""
        if self._auto_exposure and not self._settled:
            self._settle()
        shot = render(self.board, self._scene, self.conditions, self.seed, frame=self._index)
        if self._auto_exposure:
            self._meter(shot.image)
        frame = FilmedFrame(
            image=shot.image,
            jpeg=shot.jpeg,
            scene=self._scene,
            hand_over_board=shot.hand_over_board,
            index=self._index,
            t_ns=round(self._index * 1e9 / self.fps),
        )
        self._index += 1
        return frame

    def _meter(self, image: NDArray[np.uint8]) -> bool:
        """Automatic exposure after a frame; whether it changed the exposure."""
        exposure = metered_exposure(image, self.conditions.exposure)
        if exposure == self.conditions.exposure:
            return False
        self.set_exposure(exposure)
        return True

    def _settle(self) -> None:
        """Automatic exposure as a camera has it after running a while: metered on frames
        that are not delivered, until it stays put (frame pictures cost a few
        milliseconds; a webcam takes a second or so to get there)."""
        for _ in range(SETTLE_FRAMES):
            shot = render(self.board, self._scene, self.conditions, self.seed, self._index)
            if not self._meter(shot.image):
                break
        self._settled = True

    def sequence_hand_over(
        self,
        zone: str,
        put: str | None = None,
        take: str | None = None,
        angle: float | None = None,
    ) -> Iterator[FilmedFrame]:
        """Frames of a hand coming in, putting down `put` (or picking up `take`, or just
        hovering when neither is given) on `zone`, and leaving; the board is left as the hand
        left it. About 20 to 40 frames."""
        if put is not None and take is not None:
            raise ValueError("a hand either puts a crystal down or picks one up")
        zones = zone_map(self.board)
        if zone not in zones:
            raise ValueError(f"the board has no zone {zone!r}")
        if take is not None and take not in self._scene.crystals.get(zone, ()):
            raise ValueError(f"no {take} crystal on zone {zone!r}")
        self._changes += 1
        rng = random_stream(self.seed, "reach", zone, self._changes)
        return self._film(zone, reach(self.board, zones[zone].centre, rng, angle), put, take)

    def _film(
        self, zone: str, plan: Reach, put: str | None, take: str | None
    ) -> Iterator[FilmedFrame]:
        holding = put
        for index, pose in enumerate(plan.poses):
            if index == plan.release:
                if put is not None:
                    self.put(zone, put)
                    holding = None
                elif take is not None:
                    self.take(zone, take)
                    holding = take
            if pose is None:
                self.hand_out()
            else:
                self.hand_in(pose.tip, pose.angle, pose.height, holding)
            yield self.grab()
        self.hand_out()

    def _set_zone(
        self, zone: str, colours: tuple[str, ...], spots: tuple[tuple[float, float], ...]
    ) -> None:
        crystals = dict(self._scene.crystals)
        placements = dict(self._scene.placements)
        if colours:
            crystals[zone] = colours
            placements[zone] = spots
        else:
            crystals.pop(zone, None)
            placements.pop(zone, None)
        self._scene = dataclasses.replace(self._scene, crystals=crystals, placements=placements)
