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
            self.net.setInput(np.ascontiguousarray(inputs, np.float32))
            scores = np.array(self.net.forward(), np.float32)
        scores -= scores.max(axis=1, keepdims=True)
        odds = np.exp(scores)
        odds /= odds.sum(axis=1, keepdims=True)
        chosen = odds.argmax(axis=1)
        return chosen.astype(np.int64), odds[np.arange(len(chosen)), chosen]


@cache
def _shipped() -> ZoneModel:
    return ZoneModel.load(SHIPPED)


class Shipped:
    """Stands for "the shipped model" where a reader is made: the default."""


SHIPPED_MODEL = Shipped()
