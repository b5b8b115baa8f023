"""A Raspberry Pi camera module through Picamera2 (libcamera), where OpenCV cannot reach it.

    camera = PicameraSource(width=1280, height=720)   # UserError without Picamera2 or a camera

Picamera2 comes with Raspberry Pi OS (`apt install python3-picamera2`) and is not on PyPI
in a usable form, so it is imported only here, when such a camera is asked for.
`camera.controls` sets its exposure and white balance (libcamera's controls, read back
from the frames' metadata).
"""

from __future__ import annotations

import importlib
import logging
import time
from collections.abc import Callable
from typing import Any

from vision.common.errors import UserError
from vision.sources.controls import Unsupported, WhiteBalance
from vision.sources.frame import CameraLost, Frame, Source, as_bgr

log = logging.getLogger(__name__)

NOT_INSTALLED = "Picamera2 is not installed (Raspberry Pi OS: apt install python3-picamera2)"
PIPELINE_FRAMES = 4
"""Frames libcamera has in flight: a control set now shows in the metadata within these."""
TAKEN = 0.1
"""How far (a share of it) the sensor may round an exposure (to whole lines) and still
count as taking it."""
DEFAULT_LIMITS = (100.0, 1_000_000.0)
"""Exposure in µs when the camera does not say its range."""


def _picamera2() -> Any:
    try:
        return importlib.import_module("picamera2")
    except ImportError:
        raise UserError(NOT_INSTALLED) from None


class PicameraSource(Source):
    def __init__(
        self,
        width: int = 1280,
        height: int = 720,
        fps: float | None = None,
        *,
        camera_number: int = 0,
        clock_ns: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        module = _picamera2()
        self.name = f"Raspberry Pi camera {camera_number}"
        self._clock_ns = clock_ns
        self._index = 0
        try:
            camera = module.Picamera2(camera_number)
        except Exception as error:  # Picamera2 raises IndexError, RuntimeError... for no camera
            raise UserError(f"cannot open the {self.name}: {error}") from None
        self._camera: Any = camera
        try:
            # "RGB888" is libcamera's name for pixels stored B, G, R in memory: the arrays
            # come out in OpenCV's order already, and must not be swapped.
            controls = {"FrameRate": float(fps)} if fps is not None else {}
            config = camera.create_video_configuration(
                main={"size": (width, height), "format": "RGB888"}, controls=controls
            )
            camera.configure(config)
            camera.start()
        except Exception as error:
            self.close()
            raise UserError(f"cannot start the {self.name} at {width}x{height}: {error}") from None
        self.controls = PicameraControls(lambda: self._camera, self.name)

    def read(self) -> Frame:
        if self._camera is None:
            raise CameraLost(f"the {self.name} is not open")
        try:
            image = self._camera.capture_array("main")
        except Exception as error:
            raise CameraLost(f"the {self.name} stopped delivering frames: {error}") from None
        frame = Frame(as_bgr(image), self._clock_ns(), self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        camera, self._camera = self._camera, None
        if camera is not None:
            try:
                camera.stop()
            finally:
                camera.close()


class PicameraControls:
    """libcamera's exposure and white balance through Picamera2's `set_controls`, read back
    from the metadata of the frames that follow.

    The exposure is counted as the light gathered: exposure time x analogue gain, in µs at
    gain 1. It is made of as long a time as the frame rate allows before any gain, which
    adds noise."""

    unit = "µs"
    settle_frames = PIPELINE_FRAMES

    def __init__(self, camera: Callable[[], Any], name: str) -> None:
        """`camera`: the open Picamera2, or None once the source is closed."""
        self._camera = camera
        self.name = name
        available = getattr(camera(), "camera_controls", {}) or {}
        time_range = available.get("ExposureTime")
        gain_range = available.get("AnalogueGain")
        self._times = (float(time_range[0]), float(time_range[1])) if time_range else DEFAULT_LIMITS
        self._most_gain = float(gain_range[1]) if gain_range else 1.0
        self.limits = (self._times[0], self._times[1] * self._most_gain)

    def set_auto_exposure(self, on: bool) -> None:
        if on:
            self._controls({"AeEnable": True})
            return
        # Held where automatic exposure had got to, until set otherwise.
        metadata = self._metadata()
        self._controls(
            {
                "AeEnable": False,
                "ExposureTime": int(metadata["ExposureTime"]),
                "AnalogueGain": float(metadata.get("AnalogueGain", 1.0)),
            }
        )

    def exposure(self) -> float:
        metadata = self._metadata()
        return float(metadata["ExposureTime"]) * float(metadata.get("AnalogueGain", 1.0))

    def set_exposure(self, value: float) -> float:
        value = min(max(value, self.limits[0]), self.limits[1])
        time = min(value, self._times[1])
        gain = max(1.0, value / time)
        self._controls({"AeEnable": False, "ExposureTime": round(time), "AnalogueGain": gain})
        for _ in range(PIPELINE_FRAMES + 1):
            got = self.exposure()
            if abs(got - value) <= TAKEN * value:
                return got
        raise Unsupported(
            f"the {self.name} ignores its exposure setting (set to {value:.0f} µs, "
            f"it reads {got:.0f} µs)"
        )

    def white_balance(self) -> WhiteBalance:
        gains = self._metadata().get("ColourGains")
        if gains is None:
            raise Unsupported(f"the {self.name} does not report its white balance")
        return WhiteBalance(gains=(float(gains[0]), float(gains[1])))

    def lock_white_balance(self) -> WhiteBalance:
        return self.set_white_balance(self.white_balance())

    def set_white_balance(self, value: WhiteBalance) -> WhiteBalance:
        if value.gains is None:
            raise Unsupported(f"the {self.name} takes its white balance as red and blue gains")
        self._controls({"AwbEnable": False, "ColourGains": value.gains})
        return value

    def _controls(self, controls: dict[str, Any]) -> None:
        camera = self._camera()
        if camera is None:
            raise CameraLost(f"the {self.name} is not open")
        try:
            camera.set_controls(controls)
        except Exception as error:  # Picamera2 raises several kinds for a control it lacks
            names = ", ".join(controls)
            raise Unsupported(f"the {self.name} does not take {names}: {error}") from None

    def _metadata(self) -> dict[str, Any]:
        camera = self._camera()
        if camera is None:
            raise CameraLost(f"the {self.name} is not open")
        try:
            metadata: dict[str, Any] = camera.capture_metadata()
        except Exception as error:
            raise CameraLost(f"the {self.name} stopped delivering frames: {error}") from None
        if "ExposureTime" not in metadata:
            raise Unsupported(f"the {self.name} does not report its exposure")
        return metadata
