"""What the doctor's checks take their devices through: small enough that a simulated twin
(companion/doctor/twins.py) or a test's broken part stands in for the real one.

    devices = real_devices(config)    # the Pi's camera, serial port, GPIO pins, audio out
    devices.open_camera(devices.camera)
    devices.probe(devices.reader_port, "pn532", 2.0)

`Table` is the person at the table: the doctor asks for a button to be pressed, a card laid
on the reader, a light looked at, and a person does it after reading the prompt (nothing to
do here), while the twin drives the simulated pins and reader itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from companion.config import Config
from companion.devices.cardreader.probe import probe
from companion.streaming import DISPLAY_PORT, EVERY_INTERFACE

if TYPE_CHECKING:
    from vision.sources.frame import FrameSource

OpenCamera = Callable[[str], "FrameSource"]
"""A camera spec (0, /dev/video2, picamera, ...) -> the source open; a UserError when it
cannot be opened."""
Probe = Callable[[str, str, float], tuple[bool, str]]
"""(port, protocol, seconds) -> (whether the device identified itself, what happened)."""


class Table(Protocol):
    """The hands and eyes at the table."""

    def press(self, pin: int) -> None:
        """The button on `pin` has been asked for: a person presses it, a twin drives it."""

    def look(self, output_pin: int, button_pin: int) -> None:
        """The LED or buzzer on `output_pin` is on: whoever sees or hears it presses the
        button on `button_pin` to say so."""

    def lay_card(self) -> None:
        """A card has been asked for on the reader."""


class PersonAtTable:
    """A real table: the person reads each prompt and acts; the doctor only waits."""

    def press(self, pin: int) -> None:
        pass

    def look(self, output_pin: int, button_pin: int) -> None:
        pass

    def lay_card(self) -> None:
        pass


def open_camera(spec: str) -> FrameSource:
    # Imported when the camera is checked: OpenCV is large, and not every check needs it.
    from vision.sources import open_source

    return open_source(spec)


@dataclass(frozen=True)
class Devices:
    camera: str
    """The frame source's spec; empty: no camera."""
    open_camera: OpenCamera
    reader_port: str
    """The card reader's serial port; empty: no reader."""
    probe: Probe
    pin_factory: Any
    """gpiozero's pin factory; None: its own choice, the Pi's pins."""
    table: Table
    broker_url: str
    """The broker to try; empty: an embedded broker is started and tried."""
    display_host: str
    display_port: int
    """Where the display page is served from (0: any free port)."""
    audio_out: bool
    """Whether the voice's sentence is played on the audio out."""
    simulated: bool = False
    reader_problem: str = ""
    """Why the reader's twin could not be made (socat missing); empty when it was."""


def real_devices(config: Config) -> Devices:
    """The Pi's own devices, as the configuration names them."""
    return Devices(
        camera=config.camera.source,
        open_camera=open_camera,
        reader_port=config.reader.port,
        probe=probe,
        pin_factory=None,
        table=PersonAtTable(),
        broker_url=config.broker.url,
        display_host=EVERY_INTERFACE,
        display_port=DISPLAY_PORT,
        audio_out=True,
    )
