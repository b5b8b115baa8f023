"""A byte-exact emulator of the Pico reader-and-buttons board, on the device end of a pty.

It speaks through picowire's DeviceSession, the very code the firmware runs, so every
byte it sends is one the firmware would send: HELLO at start, a HEARTBEAT every
`heartbeat_s`, CARD frames (and CARD_STILL_PRESENT refreshes every `refresh_s` while a card
lies on it), BUTTON edges, and an ACK or NAK for every host command.

    with PtyPair() as pair, PicoEmulator(pair.device_path) as board:
        board.present("04A224B2C12A81")     # CARD present, then refreshes
        board.press(0); board.release(0)    # BUTTON edges, stamped now (device time)
        board.remove()
        board.leds                          # [(mode, period_ms), ...] as the host set them
        board.beeps                         # [(duration_ms, frequency_hz), ...]
        board.corrupt_next(1)               # the next frame goes out with a bad CRC
        board.ignore_next(2)                # the next 2 host frames are lost on the way
        board.write_raw(b"noise")           # bytes as they are
        board.reboot()                      # a fresh boot: uptime from 0, HELLO, LEDs off

Its uptime starts at `boot_us` (by default 12.345 s) when it is made, on its own clock, so
a host that confused the two clocks would show it. If its port fails (PtyPair.unplug), it
opens it again as soon as it is back, as a board that stays powered would.
"""

from __future__ import annotations

import time
from typing import Any

import serial

from companion.devices.cardreader import picowire as wire
from companion.devices.cardreader.emulators import Emulator

WRITE_TIMEOUT_S = 2.0
FIRMWARE = (1, 0, 0)
DEFAULT_BOOT_US = 12_345_000


class PicoEmulator(Emulator):
    baudrate = 115200
    poll_s = 0.002

    def __init__(
        self,
        path: str,
        *,
        buttons: int = 4,
        leds: int = 4,
        buzzer: bool = True,
        firmware: tuple[int, int, int] = FIRMWARE,
        heartbeat_s: float = 1.0,
        refresh_s: float = 0.1,
        boot_us: int = DEFAULT_BOOT_US,
    ) -> None:
        if heartbeat_s <= 0 or refresh_s <= 0:
            raise ValueError("heartbeat_s and refresh_s must be more than 0")
        self.heartbeat_s = heartbeat_s
        self.refresh_s = refresh_s
        self._info = wire.Hello(wire.VERSION, firmware, wire.READER_MFRC522, buttons, leds, buzzer)
        self.received: list[wire.Message] = []
        """Every host command that arrived intact (retries too), in order."""
        self.beeps: list[tuple[int, int]] = []
        self.resets: list[int] = []
        self.sent: list[wire.Message] = []
        """Every message it sent, in order."""
        self.rx_bytes = bytearray()
        """Every byte that arrived from the host, as it came (lost frames too)."""
        self._corrupt = 0
        self._ignore = 0
        self._boot(boot_us)
        super().__init__(path)  # opens the port, says hello, starts the board's loop

    # ---- the board's state ---------------------------------------------------------------

    def _boot(self, boot_us: int) -> None:
        self.session = wire.DeviceSession(self._info)
        """The firmware's own protocol code (picowire), which every byte goes through."""
        self._boot_ns = time.monotonic_ns() - boot_us * 1000
        self.leds: list[tuple[int, int]] = [(wire.LED_OFF, 0)] * self._info.leds
        """(mode, period_ms) for each LED, as the host last set it."""
        self._card = b""
        self._next_heartbeat = time.monotonic() + self.heartbeat_s
        self._next_refresh = 0.0
        self._rx = bytearray()
        self._spy_in = wire.Decoder()
        self._spy_out = wire.Decoder()

    def uptime_us(self) -> int:
        """The board's clock: microseconds since it booted."""
        return (time.monotonic_ns() - self._boot_ns) // 1000

    # ---- what happens to the board -------------------------------------------------------

    def present(self, uid: bytes | str) -> None:
        """A card with this UID (bytes, or hex) is laid on the reader; one already there is
        taken off first."""
        raw = bytes.fromhex(uid) if isinstance(uid, str) else bytes(uid)
        with self._lock:
            now = self.uptime_us()
            if self._card and self._card != raw:
                self._write_frame(self.session.card(wire.CARD_REMOVED, self._card, now))
            if self._card != raw:
                self._write_frame(self.session.card(wire.CARD_PRESENT, raw, now))
            self._card = raw
            self._next_refresh = time.monotonic() + self.refresh_s

    def remove(self) -> None:
        """The card is taken off the reader."""
        with self._lock:
            if self._card:
                now = self.uptime_us()
                self._write_frame(self.session.card(wire.CARD_REMOVED, self._card, now))
                self._card = b""

    def press(self, button: int, *, t_us: int | None = None) -> None:
        """Button `button` goes down, at `t_us` on the board's clock (default: now). A
        stamp in the past is how the firmware reports an edge it confirmed later."""
        self._edge(button, True, t_us)

    def release(self, button: int, *, t_us: int | None = None) -> None:
        self._edge(button, False, t_us)

    def _edge(self, button: int, pressed: bool, t_us: int | None) -> None:
        if not 0 <= button < self._info.buttons:
            raise ValueError(f"the board has buttons 0..{self._info.buttons - 1}")
        with self._lock:
            stamp = self.uptime_us() if t_us is None else t_us
            self._write_frame(self.session.button(button, pressed, stamp))

    def reboot(self, boot_us: int = 0) -> None:
        """A fresh boot: sequence numbers and uptime from 0, outputs off, no card, HELLO."""
        with self._lock:
            self._boot(boot_us)
            self._say_hello()

    # ---- test hooks --------------------------------------------------------------------

    def corrupt_next(self, count: int = 1) -> None:
        """The next `count` frames go out with one bit of their CRC flipped."""
        with self._lock:
            self._corrupt += count

    def ignore_next(self, count: int = 1) -> None:
        """The next `count` host frames are lost on the way: no effect, no answer."""
        with self._lock:
            self._ignore += count

    def write_raw(self, data: bytes) -> None:
        """Writes `data` as it is, between two frames."""
        with self._lock:
            self._write(data)

    # ---- the wire ----------------------------------------------------------------------

    def _before_thread(self) -> None:
        self._say_hello()  # a board announces itself as it boots

    def _say_hello(self) -> None:
        self._write_frame(self.session.hello(self.uptime_us()))

    def _write_frame(self, frames: bytes) -> None:
        """Writes frames from the session, recording what they say in `sent`, and
        corrupting them if asked."""
        for item in self._spy_out.feed(frames):
            if isinstance(item, wire.Received):
                self.sent.append(item.message)
        if self._corrupt:  # the first frame's CRC gets a bit flipped
            self._corrupt -= 1
            closing = frames.index(bytes([wire.END]), 1)
            body = bytearray(wire.unstuff(frames[: closing + 1]))
            body[-1] ^= 0x01
            frames = wire.stuff(bytes(body)) + frames[closing + 1 :]
        self._write(frames)

    def _write(self, data: bytes, *, wait_s: float = 0.0) -> None:
        # Unlike the other modules, a board's bytes are not retried: lost, as on a wire.
        port = self._port
        if port is None:
            return  # unplugged: the bytes are lost, as on a wire
        try:
            port.write(data)
        except serial.SerialTimeoutException:
            pass  # nobody reads the host end
        except (serial.SerialException, OSError):
            self._drop_port()

    # ---- the thread ----------------------------------------------------------------------

    def _step(self, port: Any) -> None:
        data = port.read(port.in_waiting or 1)
        with self._lock:
            if data:
                self._receive(data)
            now = time.monotonic()
            if self._card and now >= self._next_refresh:
                self._next_refresh = now + self.refresh_s
                stamp = self.uptime_us()
                self._write_frame(self.session.card(wire.CARD_STILL_PRESENT, self._card, stamp))
            if now >= self._next_heartbeat:
                self._next_heartbeat = now + self.heartbeat_s
                self._write_frame(self.session.heartbeat(self.uptime_us(), 0))

    def _receive(self, data: bytes) -> None:
        # The bytes reach the session cut at each END (a stream decoder does not mind where
        # its input is cut), so that `ignore_next` can lose a whole frame, END included.
        self.rx_bytes.extend(data)
        self._rx.extend(data)
        while True:
            end = self._rx.find(bytes([wire.END]))
            if end < 0:
                return
            segment = bytes(self._rx[: end + 1])
            del self._rx[: end + 1]
            if self._ignore and end > 0:
                self._ignore -= 1
                continue
            for item in self._spy_in.feed(segment):
                if isinstance(item, wire.Received):
                    self.received.append(item.message)
            actions, reply = self.session.receive(segment, self.uptime_us())
            if reply:
                self._write_frame(reply)
            for action in actions:
                self._act(action)

    def _act(self, action: wire.Message) -> None:
        if isinstance(action, wire.SetLed):
            indexes = range(len(self.leds)) if action.index == wire.ALL_LEDS else [action.index]
            for index in indexes:
                self.leds[index] = (action.mode, action.period_ms)
        elif isinstance(action, wire.Beep):
            self.beeps.append((action.duration_ms, action.frequency_hz))
        elif isinstance(action, wire.Reset):
            self.resets.append(action.mode)
            if action.mode == wire.RESET_REBOOT:
                self.reboot()
            else:
                self.leds = [(wire.LED_OFF, 0)] * len(self.leds)
