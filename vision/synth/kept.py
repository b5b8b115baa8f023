"""Arrays worked out once and shared by every frame that follows."""

from __future__ import annotations

from typing import TypeVar

import numpy as np

Array = TypeVar("Array", bound=np.ndarray)


def kept(array: Array) -> Array:
    """`array`, made read-only: a frame that drew on a shared texture would spoil the next."""
    array.flags.writeable = False
    return array
