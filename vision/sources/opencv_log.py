"""Keeping OpenCV's own console warnings out of the way of our one-line messages."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import cv2


@contextmanager
def opencv_quiet() -> Iterator[None]:
    """Silences OpenCV's log while a device or file is opened or read: a camera that is not
    there, or an image that is not one, makes OpenCV print several lines of its internals,
    where the caller reports the failure itself in one line."""
    previous = cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        cv2.utils.logging.setLogLevel(previous)
