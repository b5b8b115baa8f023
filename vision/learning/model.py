"""The zone network at run time: OpenCV's own DNN module, nothing else to install.

model = ZoneModel.load()                 # the model shipped with the companion
counts, confidence = model.counts(inputs)  # per zone-colour pair: crystals, 0..1
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

MAX_COUNT = 3
"""The most crystals of one colour a zone is read to hold."""
SHIPPED = Path(__file__).resolve().parent.parent / "models" / "zones.onnx"
UNSURE = 0.9
"""A pair whose likeliest count the network gives less than this probability is looked at
in all eight ways its square can be turned and mirrored, and the answers averaged."""


@dataclass
class ZoneModel:
    net: Any
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    """One input and forward pass at a time: the shipped model is shared by every camera
    of the process (two tables' virtual cameras, say), each on a thread of its own."""

    @classmethod
    def load(cls, path: Path = SHIPPED) -> ZoneModel:
        # OpenCV 5's classic engine runs this small network a sixth faster than its new
        # one, to the same numbers; OpenCV 4 has only the classic.
        classic = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
        if classic is None:
            return cls(cv2.dnn.readNetFromONNX(str(path)))
        return cls(cv2.dnn.readNetFromONNX(str(path), classic))

    @classmethod
    def shipped(cls) -> ZoneModel:
        """The model shipped with the companion, loaded once for the process."""
        return _shipped()

    def counts(self, inputs: NDArray[np.float32]) -> tuple[NDArray[np.int64], NDArray[np.float32]]:
        """(pairs, CHANNELS, GRID, GRID) -> crystals per pair, and how sure (the chosen
        count's probability)."""
        if len(inputs) == 0:
            return np.zeros(0, np.int64), np.zeros(0, np.float32)
        with self._lock:
            odds = self._odds(inputs)
            # The network learnt from squares turned and mirrored every way, so each way is
            # as good a look as another; where one look leaves it unsure, the eight together
            # are steadier than any one. On the virtual camera's bench this took the places
            # misread from 58 to 34 in 52,000. Few pairs are unsure: it costs little.
            unsure = np.flatnonzero(odds.max(axis=1) < UNSURE)
            if len(unsure):
                odds[unsure] = self._odds_every_way(inputs[unsure])
        chosen = odds.argmax(axis=1)
        return chosen.astype(np.int64), odds[np.arange(len(chosen)), chosen]

    def _odds(self, inputs: NDArray[np.float32]) -> NDArray[np.float32]:
        """Each pair's probability of each count."""
        self.net.setInput(np.ascontiguousarray(inputs, np.float32))
        scores = np.array(self.net.forward(), np.float32)
        scores -= scores.max(axis=1, keepdims=True)
        odds = np.exp(scores)
        odds /= odds.sum(axis=1, keepdims=True)
        return odds

    def _odds_every_way(self, inputs: NDArray[np.float32]) -> NDArray[np.float32]:
        """Each pair's probabilities averaged over its square's eight orientations."""
        views = np.concatenate([every_way(square) for square in (inputs, inputs[..., ::-1])])
        return np.asarray(self._odds(views).reshape(8, len(inputs), -1).mean(axis=0), np.float32)


def every_way(inputs: NDArray[np.float32]) -> NDArray[np.float32]:
    """(pairs, channels, rows, columns) squares turned by 0, 90, 180 and 270 degrees, one
    turn after another: (4 * pairs, ...)."""
    return np.concatenate([np.rot90(inputs, turn, axes=(2, 3)) for turn in range(4)])


@cache
def _shipped() -> ZoneModel:
    return ZoneModel.load(SHIPPED)


class Shipped:
    """Stands for "the shipped model" where a reader is made: the default."""


SHIPPED_MODEL = Shipped()
