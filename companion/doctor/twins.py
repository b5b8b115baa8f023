"""The doctor's simulated twins (`companion doctor --simulate`): every device stands in for
itself, so the whole doctor runs on any machine, CI included.

- the camera: the virtual camera filming the printed MemWars board (vision/synth);
- the card reader: the configured protocol's emulated module behind a pseudo-terminal pair,
  probed through the real serial code;
- the GPIO pins: gpiozero's MockFactory, with `TwinAtTable` pressing each button asked for,
  and pressing the confirming button only when it sees the LED's or the buzzer's pin driven;
- the broker: the embedded one; the display page: served on a free port of this machine;
- the voice: espeak-ng renders for real, nothing is played.

    with simulated_devices(config) as devices:
        ...
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from companion.config import Config
from companion.devices.cardreader.probe import probe
from companion.devices.cardreader.ptypair import PtyPair, PtyPairError
from companion.devices.cardreader.simulated import simulated_tag, start_emulator
from companion.doctor.devices import Devices, Table, open_camera
from companion.streaming import LOOPBACK

SYNTHETIC_CAMERA = "synthetic"
HOLD_S = 0.06
"""How long the twin's finger holds a button down, and then stays off it: twice the
default debounce window."""
LOOK_S = 10.0
"""How long the twin watches an output pin for it to be driven (the buzzer beeps on a
thread of its own)."""


class TwinAtTable:
    """Hands and eyes on simulated devices: mock pins and an emulated reader."""

    def __init__(self, pins: Any, reader: Any = None, protocol: str = "rdm6300") -> None:
        self.pins = pins
        """gpiozero's MockFactory."""
        self.reader = reader
        self.protocol = protocol

    def press(self, pin: int) -> None:
        # Wired to ground with a pull-up: a press pulls the pin low. Held and let go as a
        # finger does, longer than the debounce window, so that neither edge is taken for
        # chatter of the one before.
        mock = self.pins.pin(pin)
        mock.drive_low()
        time.sleep(HOLD_S)
        mock.drive_high()
        time.sleep(HOLD_S)

    def look(self, output_pin: int, button_pin: int) -> None:
        mock = self.pins.pin(output_pin)
        deadline = time.monotonic() + LOOK_S
        while time.monotonic() < deadline:
            if any(state.state for state in mock.states):
                self.press(button_pin)
                return
            time.sleep(0.005)

    def lay_card(self) -> None:
        if self.reader is not None:
            self.reader.present(simulated_tag(self.protocol, 1))


@contextmanager
def simulated_devices(config: Config, *, table: Table | None = None) -> Iterator[Devices]:
    """Every device's twin, for as long as the `with` block lasts. `table`: hands other
    than the twin's (a test's, which press nothing)."""
    from gpiozero.pins.mock import MockFactory

    pins = MockFactory()
    protocol = config.reader.protocol
    with ExitStack() as stack:
        stack.callback(pins.reset)  # no pin stays claimed
        reader_port, problem, emulator = "", "", None
        try:
            pair = stack.enter_context(PtyPair())
            emulator = start_emulator(protocol, pair.device_path)
            stack.callback(emulator.close)
            reader_port = pair.host_path
        except PtyPairError as err:
            problem = str(err)
        yield Devices(
            camera=SYNTHETIC_CAMERA,
            open_camera=open_camera,
            reader_port=reader_port,
            probe=probe,
            pin_factory=pins,
            table=table or TwinAtTable(pins, emulator, protocol),
            broker_url="",
            display_host=LOOPBACK,
            display_port=0,
            audio_out=False,
            simulated=True,
            reader_problem=problem,
        )
