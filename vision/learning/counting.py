"""Counting each zone's crystals with the zone network.

Every zone is looked at against every calibrated colour (vision/learning/inputs.py). A pair
with no cell anywhere near the colour holds none of it, surely, and is not shown to the
network (most of the board, most of the time); the rest are counted by it. A zone's
confidence is its least sure colour's.

    counter = LearnedCounter(calibration.colours)
    held, confidence = counter.count(measured)    # per zone: colour names, 0..1
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from vision.colours import ColourModel
from vision.learning.inputs import (
    colour_axes,
    context_index,
    near_inputs,
    shrink,
    zone_squares,
)
from vision.learning.model import ZoneModel
from vision.measure import Measured


class LearnedCounter:
    def __init__(self, colours: Sequence[ColourModel], model: ZoneModel | None = None) -> None:
        self.names = tuple(c.name for c in colours)
        self.axes = colour_axes(colours)
        self.model = model if model is not None else ZoneModel.load()
        self._index: NDArray[np.intp] | None = None

    def count(
        self,
        measured: Measured,
        only: NDArray[np.intp] | None = None,
        reflectance: NDArray[np.float32] | None = None,
    ) -> tuple[list[tuple[str, ...]], NDArray[np.float32]]:
        """Per zone (or per zone of `only`, in its order): the crystals, and how sure.
        `reflectance` is the frame's `measured.reflectance`, where it is at hand."""
        if self._index is None:
            self._index = context_index(measured.sampler)
        index = self._index if only is None else self._index[only]
        masks = measured.sampler.masks if only is None else measured.sampler.masks[only]
        squares, _own = zone_squares(measured, index, reflectance)
        mean, share = shrink(squares, masks)
        looked, inputs = near_inputs(mean, share, self.axes)
        colours = len(self.names)
        counts = np.zeros(len(index) * colours, np.int64)
        sure = np.ones(len(index) * colours, np.float32)
        counts[looked], sure[looked] = self.model.counts(inputs)
        rows: list[list[int]] = counts.reshape(-1, colours).tolist()
        held = [
            tuple(sorted(name for name, n in zip(self.names, row, strict=True) for _ in range(n)))
            for row in rows
        ]
        return held, sure.reshape(-1, colours).min(axis=1)
