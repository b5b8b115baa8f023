"""What a camera can do with its exposure and white balance, so that it can be set up.

    controls = controls_of(source)          # None: a file, a folder, a camera without any
    controls.set_auto_exposure(False)       # Unsupported when the camera refuses or ignores it
    controls.set_exposure(80.0)             # in the camera's own units; what it reports it took
    controls.lock_white_balance()           # held where automatic white balance had it

Every setting is read back from the camera: one that says yes and does nothing is reported
as Unsupported, never taken at its word.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable


class Unsupported(Exception):
    """The camera cannot do what was asked (it refused, or ignored it). One line."""


@dataclass(frozen=True, slots=True)
class WhiteBalance:
    """A white balance as the camera counts it: a colour temperature (V4L2 webcams) or the
    red and blue gains against green (libcamera)."""

    kelvin: float | None = None
    gains: tuple[float, float] | None = None

    def __str__(self) -> str:
        if self.kelvin is not None:
            return f"{self.kelvin:.0f} K"
        if self.gains is not None:
            return f"red gain {self.gains[0]:.2f}, blue gain {self.gains[1]:.2f}"
        return "as it was"


@runtime_checkable
class CameraControls(Protocol):
    name: str
    """The camera, for messages: 'camera 0'."""
    unit: str
    """How its exposure is counted, for messages: 'µs', '× 100 µs', '×' (linear)."""
    limits: tuple[float, float]
    """The least and most exposure it may be set to, in its units."""
    settle_frames: int
    """Frames still on their way after a change (buffers, the sensor's pipeline): the
    first to show a new setting is the one after them."""

    def set_auto_exposure(self, on: bool) -> None: ...

    def exposure(self) -> float:
        """The exposure now, in the camera's units."""
        ...

    def set_exposure(self, value: float) -> float:
        """Sets it (automatic exposure off first); the value the camera reports taking."""
        ...

    def white_balance(self) -> WhiteBalance: ...

    def lock_white_balance(self) -> WhiteBalance:
        """Automatic white balance off, held at the value it had reached."""
        ...

    def set_white_balance(self, value: WhiteBalance) -> WhiteBalance: ...


def controls_of(source: object) -> CameraControls | None:
    """The source's exposure and white balance controls; None when it has none (a video,
    a folder of images, a stand-in camera)."""
    controls = getattr(source, "controls", None)
    return controls if isinstance(controls, CameraControls) else None


def describe(controls: CameraControls, exposure: float) -> str:
    """An exposure as a person reads it: '12000 µs', '0.42 ×'."""
    return f"{exposure:.3g} {controls.unit}".rstrip()
