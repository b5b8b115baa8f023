"""A real camera over the table during a game: every frame read by the board reader on a
thread of its own, and every change the temporal filter commits handed on.

    watch = CameraWatch.start("0", calibration_path, on_seen=..., on_lost=...)  # or why not
    ...
    watch.stop()

`on_seen` gets the whole committed board ({'17': ('red',), ...}); `on_lost` gets one
sentence when the camera stops (unplugged, the end of a video): the game then goes on by
touch. Both are called from the camera thread: the app hands them to its own.

A game names the colours its pieces come in (`colours`): a calibration that has not learnt
one of them does not watch, since it could only misread those pieces, and says which in one
line instead (`missing_colours`).

A board with topology counters gets them too (`on_counters`: {'33': (5,), '8': (None,)},
None face down) whenever the filter commits a counter laid, turned or taken, before the
crystals of the same frame.

For MeM the filter starts from the dealt board (`initial`: the camera holds what the rules
say until it reads otherwise) and `on_unsure` gets the squares whose stone the camera
cannot name, whenever they change.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from companion.errors import UserError
from companion.table.not_started import NotStarted

log = logging.getLogger(__name__)

Seen = Callable[[dict[str, tuple[str, ...]]], None]
Lost = Callable[[str], None]
Unsure = Callable[[frozenset[str]], None]
CountersSeen = Callable[[dict[str, tuple[int | None, ...]]], None]


class CameraWatch:
    def __init__(
        self,
        spec: str,
        calibration: Path,
        on_seen: Seen,
        on_lost: Lost,
        *,
        initial: Mapping[str, tuple[str, ...]] | None = None,
        on_unsure: Unsure | None = None,
        on_counters: CountersSeen | None = None,
    ) -> None:
        self.spec = spec
        self.calibration = calibration
        self._on_seen = on_seen
        self._on_lost = on_lost
        self._initial = None if initial is None else dict(initial)
        self._on_unsure = on_unsure
        self._on_counters = on_counters
        self._stopped = threading.Event()
        self.frames = 0
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)

    @classmethod
    def start(
        cls,
        spec: str,
        calibration: Path,
        on_seen: Seen,
        on_lost: Lost,
        *,
        initial: Mapping[str, tuple[str, ...]] | None = None,
        on_unsure: Unsure | None = None,
        on_counters: CountersSeen | None = None,
        colours: Sequence[str] = (),
    ) -> CameraWatch | NotStarted:
        """Watching, or why the camera cannot watch (no calibration yet, or none for every
        one of the game's `colours`, say)."""
        if not calibration.is_file():
            return NotStarted(
                f"the camera is not calibrated yet ({calibration}): set it up from Home"
            )
        if colours:
            from vision.calibration_file import load_calibration

            try:
                learnt = [model.name for model in load_calibration(calibration).colours]
            except UserError as err:
                return NotStarted(str(err))
            missing = missing_colours(learnt, colours)
            if missing:
                return NotStarted(missing)
        watch = cls(
            spec,
            calibration,
            on_seen,
            on_lost,
            initial=initial,
            on_unsure=on_unsure,
            on_counters=on_counters,
        )
        watch._thread.start()
        return watch

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        from companion.table.unsure import UnsureState, unsure_step
        from vision.calibration_file import load_calibration
        from vision.reader import BoardReader
        from vision.sources import open_source
        from vision.temporal import FilterState, step

        try:
            reader = BoardReader(load_calibration(self.calibration))
            state = FilterState.start(self._initial)
            unsure = UnsureState()
            with open_source(self.spec) as source:
                while not self._stopped.is_set():
                    frame = source.read()
                    if frame is None:
                        self._lost("the camera sent no more frames")
                        return
                    self.frames += 1
                    reading = reader.read(frame.image, frame.t_ns)
                    state, observation = step(state, reading)
                    if self._on_unsure is not None:
                        unsure, doubted = unsure_step(unsure, reading)
                        if doubted is not None:
                            self._on_unsure(doubted)
                    if observation is None:
                        continue
                    if observation.counter_changes and self._on_counters is not None:
                        self._on_counters(state.committed_counters())
                    if observation.changes:
                        self._on_seen(dict(state.committed))
        except UserError as err:  # CameraLost is one: unplugged, or the driver gave up
            self._lost(str(err))
        except Exception as err:
            log.warning("the camera stopped", exc_info=True)
            self._lost(str(err) or type(err).__name__)

    def _lost(self, why: str) -> None:
        if not self._stopped.is_set():
            self._on_lost(why)


def missing_colours(calibrated: Sequence[str], needed: Sequence[str]) -> str:
    """Why a calibration cannot read a game whose pieces come in `needed` colours, in one
    line; '' when it has them all."""
    missing = [name for name in needed if name not in calibrated]
    if not missing:
        return ""
    return (
        f"the camera is calibrated for {_listed(calibrated)}, not {_listed(missing)}: "
        f"Set up the camera with {_listed(missing)} chosen, then begin the game again"
    )


def _listed(names: Sequence[str]) -> str:
    return " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + f" and {names[-1]}"
