"""Cameras' exposure and white balance: what is set is read back, and a camera that says
yes and does nothing is reported as not supporting it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np
import pytest

from vision.exposure import meter_exposure
from vision.geometry import load_board
from vision.sources import CameraSource, ImageFolderSource, PicameraSource, SyntheticSource
from vision.sources import picamera as picamera_module
from vision.sources.controls import Unsupported, WhiteBalance, controls_of
from vision.sources.picamera import PicameraControls
from vision.synth.camera import SyntheticCamera
from vision.synth.conditions import Conditions

AUTO = cv2.CAP_PROP_AUTO_EXPOSURE
EXPOSURE = cv2.CAP_PROP_EXPOSURE
AUTO_WB = cv2.CAP_PROP_AUTO_WB
WB = cv2.CAP_PROP_WB_TEMPERATURE


class FakeCapture:
    """A V4L2 camera through OpenCV: remembers what is set, in order. Properties in
    `ignored` are accepted and left as they were; those in `refused` are refused."""

    def __init__(
        self,
        ignored: tuple[int, ...] = (),
        refused: tuple[int, ...] = (),
        values: dict[int, float] | None = None,
    ) -> None:
        self.values: dict[int, float] = {AUTO: 3.0, EXPOSURE: 312.0, AUTO_WB: 1.0, WB: 4600.0}
        self.values.update(values or {})
        self.ignored = ignored
        self.refused = refused
        self.sets: list[tuple[int, float]] = []

    def isOpened(self) -> bool:
        return True

    def read(self) -> tuple[bool, Any]:
        return True, np.full((4, 6, 3), 128, np.uint8)

    def set(self, prop: int, value: float) -> bool:
        if prop in self.refused:
            return False
        self.sets.append((prop, value))
        if prop not in self.ignored:
            self.values[prop] = value
        return True

    def get(self, prop: int) -> float:
        return self.values.get(prop, -1.0)

    def release(self) -> None:
        pass


def camera(capture: FakeCapture) -> CameraSource:
    return CameraSource(0, capture_factory=lambda _device: capture)


def controls_set(capture: FakeCapture) -> list[tuple[int, float]]:
    sizes = (cv2.CAP_PROP_FRAME_WIDTH, cv2.CAP_PROP_FRAME_HEIGHT, cv2.CAP_PROP_FPS)
    return [(prop, value) for prop, value in capture.sets if prop not in sizes]


def test_a_webcams_exposure_is_set_by_hand_and_read_back() -> None:
    capture = FakeCapture()
    controls = controls_of(camera(capture))
    assert controls is not None
    assert controls.exposure() == 312.0
    assert controls.set_exposure(120.4) == 120.0
    assert controls_set(capture) == [(AUTO, 1.0), (EXPOSURE, 120.0)]  # V4L2: 1 is manual
    controls.set_auto_exposure(True)
    assert capture.values[AUTO] == 3.0  # aperture priority, the webcams' automatic mode


def test_a_webcams_white_balance_is_held_where_automatic_had_it() -> None:
    capture = FakeCapture(values={WB: 4350.0})
    controls = controls_of(camera(capture))
    assert controls is not None
    assert controls.lock_white_balance() == WhiteBalance(kelvin=4350.0)
    assert controls_set(capture) == [(AUTO_WB, 0.0), (WB, 4350.0)]
    assert controls.set_white_balance(WhiteBalance(kelvin=5600.0)) == WhiteBalance(kelvin=5600)
    with pytest.raises(Unsupported, match="as a colour temperature"):
        controls.set_white_balance(WhiteBalance(gains=(1.5, 1.8)))


def test_a_webcam_that_rounds_an_exposure_still_takes_it() -> None:
    capture = FakeCapture()
    controls = controls_of(camera(capture))
    assert controls is not None

    def rounding_set(prop: int, value: float) -> bool:
        capture.values[prop] = 20.0 if prop == EXPOSURE and value < 20 else value
        return True

    capture.set = rounding_set  # type: ignore[method-assign]
    assert controls.set_exposure(5.0) == 20.0  # its shortest exposure


@pytest.mark.parametrize(
    ("capture", "message"),
    [
        (FakeCapture(ignored=(EXPOSURE,)), "camera 0 ignores its exposure setting"),
        (FakeCapture(ignored=(AUTO,)), "camera 0 ignores its automatic exposure setting"),
        (FakeCapture(refused=(AUTO,)), "camera 0 does not let its automatic exposure be set"),
    ],
)
def test_a_webcam_that_ignores_or_refuses_is_unsupported(
    capture: FakeCapture, message: str
) -> None:
    controls = controls_of(camera(capture))
    assert controls is not None
    with pytest.raises(Unsupported, match=message):
        controls.set_exposure(100.0)


def test_a_webcam_without_white_balance_controls_says_so() -> None:
    capture = FakeCapture(values={WB: -1.0})
    controls = controls_of(camera(capture))
    assert controls is not None
    with pytest.raises(Unsupported, match="does not report its white balance"):
        controls.lock_white_balance()


def test_metering_a_webcam_that_ignores_its_exposure_leaves_it_automatic() -> None:
    capture = FakeCapture(ignored=(EXPOSURE,))
    source = camera(capture)
    board = load_board()
    # What it films: the board with its paper burnt out.
    burnt = SyntheticCamera(board, Conditions.easy().replace(exposure=3.0)).read()
    assert meter_exposure(controls_of(source), lambda: burnt, board) is None
    assert (AUTO, 1.0) in controls_set(capture)
    assert capture.values[AUTO] == 3.0  # turned back on after the exposure was ignored


def test_what_was_set_is_set_again_when_the_camera_is_reopened() -> None:
    first, second = FakeCapture(), FakeCapture()
    captures = iter((first, second))
    source = CameraSource(0, capture_factory=lambda _device: next(captures))
    controls = controls_of(source)
    assert controls is not None
    controls.set_exposure(80.0)
    assert source.reopen()
    assert (second.values[AUTO], second.values[EXPOSURE]) == (1.0, 80.0)


class FakePicamera2:
    """Picamera2 as the source uses it; a control set shows in the next frame's metadata."""

    def __init__(self, _number: int = 0) -> None:
        self.camera_controls = {
            "ExposureTime": (100, 66_000, 20_000),
            "AnalogueGain": (1.0, 16.0, 1.0),
        }
        self.controls_set: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {
            "ExposureTime": 30_000,
            "AnalogueGain": 2.0,
            "ColourGains": (1.9, 1.6),
        }
        self.ignores_exposure = False

    def create_video_configuration(self, **kwargs: Any) -> dict[str, Any]:
        return kwargs

    def configure(self, _config: Any) -> None:
        pass

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass

    def capture_array(self, _stream: str) -> Any:
        return np.zeros((4, 6, 3), np.uint8)

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls_set.append(dict(controls))
        for name, value in controls.items():
            if name in ("ExposureTime", "AnalogueGain") and self.ignores_exposure:
                continue
            self.state[name] = value

    def capture_metadata(self) -> dict[str, Any]:
        return dict(self.state)


@pytest.fixture()
def picam(monkeypatch: pytest.MonkeyPatch) -> FakePicamera2:
    fake = FakePicamera2()
    module = SimpleNamespace(Picamera2=lambda _number: fake)
    monkeypatch.setattr(picamera_module, "_picamera2", lambda: module)
    return fake


def test_a_picameras_exposure_is_set_through_its_controls(picam: FakePicamera2) -> None:
    controls = controls_of(PicameraSource())
    assert isinstance(controls, PicameraControls)
    assert controls.limits == (100.0, 66_000.0 * 16.0)
    assert controls.exposure() == 60_000.0  # 30 ms at gain 2
    controls.set_auto_exposure(False)
    assert picam.controls_set[-1] == {
        "AeEnable": False,
        "ExposureTime": 30_000,
        "AnalogueGain": 2.0,
    }
    assert controls.set_exposure(12_000.0) == 12_000.0
    # Light gathered by time before gain, which adds noise.
    assert picam.controls_set[-1] == {
        "AeEnable": False,
        "ExposureTime": 12_000,
        "AnalogueGain": 1.0,
    }
    controls.set_exposure(132_000.0)
    assert picam.controls_set[-1]["ExposureTime"] == 66_000
    assert picam.controls_set[-1]["AnalogueGain"] == 2.0


def test_a_picameras_white_balance_is_held_at_its_gains(picam: FakePicamera2) -> None:
    controls = controls_of(PicameraSource())
    assert controls is not None
    assert controls.lock_white_balance() == WhiteBalance(gains=(1.9, 1.6))
    assert picam.controls_set[-1] == {"AwbEnable": False, "ColourGains": (1.9, 1.6)}
    with pytest.raises(Unsupported, match="as red and blue gains"):
        controls.set_white_balance(WhiteBalance(kelvin=4000.0))


def test_a_picamera_that_ignores_its_exposure_is_unsupported(picam: FakePicamera2) -> None:
    picam.ignores_exposure = True
    controls = controls_of(PicameraSource())
    assert controls is not None
    with pytest.raises(Unsupported, match="ignores its exposure setting"):
        controls.set_exposure(5_000.0)


def test_files_and_stand_ins_have_no_controls(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((8, 8, 3), np.uint8))
    assert controls_of(ImageFolderSource(tmp_path)) is None

    class Drawer:
        def read(self) -> Any:
            return np.zeros((4, 4, 3), np.uint8)

    assert controls_of(SyntheticSource(Drawer())) is None
