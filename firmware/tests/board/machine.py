"""A fake `machine` module: main.py and hw.py run unchanged under the MicroPython unix port.

Put this folder first on MICROPYPATH. The board it plays:

- an MFRC522 on SPI0 (fake_mfrc522.FakeChip) with an NTAG21x lying on it from the start;
- button 1 pressed from 150 ms to 350 ms after start (real time), the others up;
- LEDs and the buzzer recorded;
- after RUN_MS the scenario ends: the next pin read raises SystemExit (exit code 0), and
  the recordings go to stderr as one line: `BOARD leds=[...] tones=[...] cs_ok=True`.

machine.reset() ends the run too, with exit code 3.
"""

import sys
import time

from fake_mfrc522 import FakeCard, FakeChip

RUN_MS = 1300
NTAG = bytes([0x04, 0xA2, 0x24, 0xB2, 0xC1, 0x2A, 0x81])
PRESS = (1, 150, 350)  # button index, from ms, to ms

_start = time.ticks_ms()
_pins = {}
_chip = FakeChip([FakeCard(NTAG)])
_tones = []
_cs_ok = [True]


def _elapsed_ms():
    return time.ticks_diff(time.ticks_ms(), _start)


def _report():
    leds = [_pins[n].level for n in (6, 7, 8, 9) if n in _pins]
    line = "BOARD leds=" + repr(leds) + " tones=" + repr(_tones) + " cs_ok=" + repr(_cs_ok[0])
    sys.stderr.write(line + "\n")


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1

    def __init__(self, ident, mode=-1, pull=-1, value=None):
        self.ident = ident
        self.mode = mode
        self.level = value if value is not None else 0
        _pins[ident] = self

    def value(self, level=None):
        if level is not None:
            self.level = level
            return None
        if _elapsed_ms() > RUN_MS:
            _report()
            raise SystemExit(0)
        if self.ident in (2, 3, 4, 5):
            button, start, end = PRESS
            pressed = self.ident - 2 == button and start <= _elapsed_ms() < end
            return 0 if pressed else 1  # pull-up: a pressed button reads 0
        return self.level

    def __call__(self, level=None):
        return self.value(level)


class SPI:
    MSB = 0

    def __init__(self, ident, baudrate=0, polarity=0, phase=0, bits=8, firstbit=0, **pins):
        self.ident = ident

    def write_readinto(self, out, into):
        if _pins[17].level != 0:
            _cs_ok[0] = False  # a transfer without chip select
        data = _chip.transfer(bytes(out))
        for i in range(len(data)):
            into[i] = data[i]


class PWM:
    def __init__(self, pin):
        self.pin = pin
        self.hz = 0

    def freq(self, hz):
        self.hz = hz

    def duty_u16(self, duty):
        if duty:
            _tones.append(self.hz)


def reset():
    _report()
    raise SystemExit(3)
