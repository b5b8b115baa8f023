"""The firmware's loop, without hardware: everything it drives is given, so the whole loop
also runs under the MicroPython unix port and CPython with fakes (tests/test_app.py).

    app = App(port, clock, reader=MFRC522(bus), buttons=board.buttons.levels,
              leds=[pin.value for pin in led_pins], buzzer=PwmBuzzer(), reboot=machine.reset)
    app.run()                      # HELLO, then step() forever

One step: sample the buttons; every 50 ms read the card reader (sampling the buttons
while it waits for the card); read what the host sent and answer it (picowire's
DeviceSession); update LEDs and buzzer; every second a HEARTBEAT, and every 100 ms while a
card lies on the reader a CARD_STILL_PRESENT refresh; then send queued events.

Events (card arrivals and removals, button edges) wait in a bounded queue while the host
is not reading; the heartbeat carries the count of those dropped. Answers, heartbeats and
refreshes are state rather than events: when the port cannot take them, they are skipped
(the host retries its commands; the next heartbeat comes a second later).

    port:     read() -> bytes (never blocks), write(data), writable() -> bool
    clock:    now_us() -> microseconds since boot (uptime.Uptime)
    reader:   init(), read_uid(idle) -> bytes | None (mfrc522.MFRC522), or None
    buttons:  () -> bit mask of pressed buttons (bit i: button i), with `count` buttons
    leds:     a list of callables taking 0 or 1
    buzzer:   tone(hz) / quiet(), or None
    reboot:   () -> never returns (machine.reset), or None
    status:   a callable taking 0 or 1 (the Pico's own LED, toggled by each heartbeat), or None
"""

import picowire as wire
from buzzer import Beeper
from cardpresence import CardPresence
from debounce import Debouncer
from eventqueue import EventQueue
from leds import LedBank

FIRMWARE = (1, 0, 0)
HEARTBEAT_US = 1000000
POLL_US = 50000
REFRESH_US = 100000
READER_RETRY_US = 2000000
READER_FAILURES = 3
"""Chip errors in a row before the reader is set up again."""
QUEUE_SIZE = 32

CARD_EVENT = 0
BUTTON_EVENT = 1


def _no_buttons():
    return 0


class _Silent:
    def tone(self, hz):
        pass

    def quiet(self):
        pass


class App:
    def __init__(
        self,
        port,
        clock,
        reader=None,
        buttons=None,
        count=0,
        leds=(),
        buzzer=None,
        reboot=None,
        status=None,
        queue_size=QUEUE_SIZE,
    ):
        self.port = port
        self.clock = clock
        self.reader = reader
        self.buttons = buttons or _no_buttons
        self.count = count if buttons else 0
        self.leds = LedBank(leds)
        self.beeper = Beeper(buzzer or _Silent())
        self.reboot = reboot
        self.status = status
        self._status_level = 0
        kind = wire.READER_MFRC522 if reader is not None else wire.READER_NONE
        hello = wire.Hello(
            wire.VERSION, FIRMWARE, kind, self.count, len(self.leds), buzzer is not None
        )
        self.session = wire.DeviceSession(hello)
        self.queue = EventQueue(queue_size)
        self.presence = CardPresence()
        self.debouncers = [Debouncer() for _ in range(self.count)]
        self.reader_ok = False
        self.reader_failures = 0
        self._next_reader_try = 0
        self._next_poll = 0
        self._next_heartbeat = 0
        self._next_refresh = 0
        self._reboot_now = False

    # ---- the loop ----

    def start(self):
        now = self.clock.now_us()
        self._next_heartbeat = now + HEARTBEAT_US
        self.port.write(self.session.hello(now))
        self._setup_reader(now)

    def run(self):
        self.start()
        while True:
            self.step()

    def step(self):
        now = self.clock.now_us()
        self.sample_buttons()
        if now >= self._next_poll:
            self._next_poll = now + POLL_US
            self.poll_card(now)
        data = self.port.read()
        if data:
            self.receive(data, now)
        self.leds.update(now)
        self.beeper.update(now)
        if now >= self._next_heartbeat:
            self._next_heartbeat = now + HEARTBEAT_US
            self._send(self.session.heartbeat(now, self.queue.dropped))
            if self.status is not None:
                self._status_level ^= 1
                self.status(self._status_level)
        uid = self.presence.uid
        if uid is not None and now >= self._next_refresh and not len(self.queue):
            self._next_refresh = now + REFRESH_US
            last = self.presence.last_read_us
            self._send(self.session.card(wire.CARD_STILL_PRESENT, uid, last))
        self.flush()
        if self._reboot_now and self.reboot is not None:
            self.reboot()

    # ---- inputs ----

    def sample_buttons(self):
        """Reads every button once; also the reader's `idle` while it waits for a card."""
        if not self.count:
            return
        mask = self.buttons()
        now = self.clock.now_us()
        for index in range(self.count):
            edge = self.debouncers[index].sample((mask >> index) & 1, now)
            if edge is not None:
                self.queue.push((BUTTON_EVENT, index, edge[0], edge[1]))

    def poll_card(self, now):
        if self.reader is None:
            return
        if not self.reader_ok:
            if now < self._next_reader_try:
                return
            if not self._setup_reader(now):
                return
        try:
            uid = self.reader.read_uid(self.sample_buttons)
            self.reader_failures = 0
        except Exception as err:  # the chip, not the card: SPI noise, a loose wire
            uid = None
            self.reader_failures += 1
            if self.reader_failures >= READER_FAILURES:
                self.reader_ok = False
                self._next_reader_try = now + READER_RETRY_US
                self._log(wire.LOG_ERROR, "card reader failed: " + str(err))
        for present, card, stamp in self.presence.update(uid, now):
            state = wire.CARD_PRESENT if present else wire.CARD_REMOVED
            self.queue.push((CARD_EVENT, state, card, stamp))
            if present:
                self._next_refresh = now + REFRESH_US

    def _setup_reader(self, now):
        if self.reader is None:
            return False
        try:
            self.reader.init()
        except Exception as err:
            self.reader_ok = False
            self._next_reader_try = now + READER_RETRY_US
            self._log(wire.LOG_ERROR, "no card reader: " + str(err))
            return False
        self.reader_ok = True
        self.reader_failures = 0
        return True

    # ---- the host ----

    def receive(self, data, now):
        actions, reply = self.session.receive(data, now)
        self._send(reply)
        for action in actions:
            if isinstance(action, wire.SetLed):
                self.leds.set(action.index, action.mode, action.period_ms, now)
            elif isinstance(action, wire.Beep):
                self.beeper.beep(action.duration_ms, action.frequency_hz, now)
            elif isinstance(action, wire.Reset):
                self.leds.off()
                self.beeper.stop()
                if action.mode == wire.RESET_REBOOT:
                    self._reboot_now = True  # once the ACK is out, at the end of the step

    def flush(self):
        """Sends queued events while the port takes them."""
        while len(self.queue) and self.port.writable():
            event = self.queue.pop()
            if event[0] == CARD_EVENT:
                self.port.write(self.session.card(event[1], event[2], event[3]))
            else:
                self.port.write(self.session.button(event[1], event[2], event[3]))

    def _send(self, data):
        if data and self.port.writable():
            self.port.write(data)

    def _log(self, level, text):
        self._send(self.session.log(level, text))
