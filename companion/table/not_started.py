"""What a part of the table that could not start says instead of itself: why, in words for
the screen, so that the game goes on without it.

    watch = CameraWatch.start(...)
    if isinstance(watch, NotStarted):
        play.camera_lost(watch.why)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NotStarted:
    why: str
