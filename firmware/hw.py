"""The Pico's hardware, thin: pins, SPI, PWM and USB serial. Imported by main.py only;
everything with logic in it lives in the pure modules, which are tested off the board.

The pin map is hardware/pico-board.md's.
"""

import select
import sys
import time

from machine import PWM, SPI, Pin
from uptime import Uptime

SPI_ID = 0
SCK = 18
MOSI = 19
MISO = 16
CS = 17
RST = 20
SPI_BAUD = 4000000
BUTTONS = (2, 3, 4, 5)
LEDS = (6, 7, 8, 9)
BUZZER = 10
BEEP_MIN_HZ = 50
BEEP_MAX_HZ = 20000


class SpiBus:
    """The MFRC522 on SPI0: each transfer with CS held low (mfrc522.MFRC522's bus)."""

    def __init__(self):
        self.cs = Pin(CS, Pin.OUT, value=1)
        self.rst = Pin(RST, Pin.OUT, value=0)
        time.sleep_ms(2)
        self.rst.value(1)  # out of hard power-down; the oscillator needs ~40 ms
        time.sleep_ms(50)
        self.spi = SPI(
            SPI_ID,
            baudrate=SPI_BAUD,
            polarity=0,
            phase=0,
            bits=8,
            firstbit=SPI.MSB,
            sck=Pin(SCK),
            mosi=Pin(MOSI),
            miso=Pin(MISO),
        )

    def transfer(self, data):
        received = bytearray(len(data))
        self.cs.value(0)
        try:
            self.spi.write_readinto(data, received)
        finally:
            self.cs.value(1)
        return received


class Buttons:
    """Buttons to ground with the Pico's pull-ups: a pin reading 0 is a pressed button."""

    def __init__(self, pins=BUTTONS):
        self.pins = [Pin(number, Pin.IN, Pin.PULL_UP) for number in pins]

    def levels(self):
        """A bit mask, bit i set while button i is down (no allocation: called ~2000/s)."""
        mask = 0
        bit = 1
        for pin in self.pins:
            if not pin.value():
                mask |= bit
            bit <<= 1
        return mask

    def held(self, index):
        return not self.pins[index].value()


class PwmBuzzer:
    """A passive buzzer (or a piezo) on a PWM pin: square wave at the beep's frequency."""

    def __init__(self, pin=BUZZER):
        self.pwm = PWM(Pin(pin))
        self.pwm.duty_u16(0)

    def tone(self, hz):
        self.pwm.freq(min(max(hz, BEEP_MIN_HZ), BEEP_MAX_HZ))
        self.pwm.duty_u16(32768)

    def quiet(self):
        self.pwm.duty_u16(0)


class UsbSerial:
    """USB CDC through sys.stdin.buffer / sys.stdout.buffer (raw: no newline changes).
    Ctrl-C (0x03) still interrupts: picowire escapes it, so only a person sends one."""

    def __init__(self):
        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._readable = select.poll()
        self._readable.register(sys.stdin, select.POLLIN)
        try:
            self._writable = select.poll()
            self._writable.register(sys.stdout, select.POLLOUT)
        except (AttributeError, OSError, ValueError):
            self._writable = None
        self._seen_writable = False
        self._since_ms = time.ticks_ms()

    def read(self, limit=128):
        """What has arrived, up to `limit` bytes; never waits."""
        data = bytearray()
        while len(data) < limit and self._readable.poll(0):
            byte = self._in.read(1)
            if not byte:  # end of input (only off the board: a pipe in the tests)
                break
            data.extend(byte)
        return bytes(data)

    def writable(self):
        """False while the host is connected but not reading (a write would wait)."""
        if self._writable is None:
            return True
        if self._writable.poll(0):
            self._seen_writable = True
            return True
        if not self._seen_writable and time.ticks_diff(time.ticks_ms(), self._since_ms) > 2000:
            # A MicroPython whose USB serial never reports POLLOUT: write regardless.
            self._writable = None
            return True
        return False

    def write(self, data):
        self._out.write(data)


class Board:
    def __init__(self):
        self.clock = Uptime(time.ticks_us, time.ticks_diff)
        self.buttons = Buttons()
        self.led_pins = [Pin(number, Pin.OUT, value=0) for number in LEDS]
        self.buzzer = PwmBuzzer()
        self.port = UsbSerial()
        self.bus = SpiBus()
        try:
            self.status = Pin("LED", Pin.OUT)  # the Pico's own LED (GP25; Pico W too)
        except (TypeError, ValueError):
            self.status = None

    def safe_mode(self):
        """Button 0 held while the board starts: stay at the REPL."""
        return self.buttons.held(0)

    def quiet(self):
        for pin in self.led_pins:
            pin.value(0)
        self.buzzer.quiet()
