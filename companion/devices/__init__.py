"""The clock's hardware: player and pause buttons, one LED per player and a buzzer, on a
Raspberry Pi's GPIO pins through gpiozero, each with a simulated twin for any machine.

gpiozero is imported only when a device is made, so this package imports everywhere.
Wiring and the default pin map: hardware/clock-wiring.md.
"""

from companion.clock.presses import ButtonPress
from companion.devices.buttons import ClockButtons
from companion.devices.buzzer import Beep, ClockBuzzer, TerminalBell, beeps_due
from companion.devices.debounce import Debouncer
from companion.devices.keyboard import KeyboardButtons
from companion.devices.lights import ClockLights, LightState, light_states

__all__ = [
    "Beep",
    "ButtonPress",
    "ClockButtons",
    "ClockBuzzer",
    "ClockLights",
    "Debouncer",
    "KeyboardButtons",
    "LightState",
    "TerminalBell",
    "beeps_due",
    "light_states",
]
