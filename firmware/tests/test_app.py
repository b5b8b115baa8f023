"""app.py, the whole firmware loop, with fake hardware: what goes out on the wire."""

import picowire as wire
from app import App
from harness import run

NTAG = b"\x04\xa2\x24\xb2\xc1\x2a\x81"


class Port:
    def __init__(self):
        self.inbox = b""
        self.out = bytearray()
        self.open = True
        self._decoder = wire.Decoder()
        self._decoder.feed(b"\xc0")

    def read(self):
        data, self.inbox = self.inbox, b""
        return data

    def writable(self):
        return self.open

    def write(self, data):
        self.out.extend(data)

    def messages(self):
        """Every message written since the last call."""
        data, self.out = bytes(self.out), bytearray()
        got = self._decoder.feed(data)
        for item in got:
            assert isinstance(item, wire.Received), item
        return [item.message for item in got]


class Clock:
    def __init__(self):
        self.t = 1000000
        self.step = 100  # every reading moves time on a little, as on the board

    def now_us(self):
        self.t += self.step
        return self.t


class Reader:
    def __init__(self):
        self.uid = None
        self.broken = False
        self.inits = 0
        self.idles = 0

    def init(self):
        self.inits += 1
        if self.broken:
            raise OSError("SPI says nothing")
        return 0x92

    def read_uid(self, idle):
        for _ in range(3):
            idle()
            self.idles += 1
        return self.uid


class Outputs:
    def __init__(self):
        self.leds = [[], [], [], []]
        self.sound = []

    def led(self, index):
        return lambda level: self.leds[index].append(level)

    def tone(self, hz):
        self.sound.append(hz)

    def quiet(self):
        self.sound.append(0)


def board(**kw):
    port, clock, reader, outputs = Port(), Clock(), Reader(), Outputs()
    state = {"mask": 0, "reboots": 0}
    app = App(
        port,
        clock,
        reader=reader,
        buttons=lambda: state["mask"],
        count=4,
        leds=[outputs.led(i) for i in range(4)],
        buzzer=outputs,
        reboot=lambda: state.__setitem__("reboots", state["reboots"] + 1),
        **kw,
    )
    return app, port, clock, reader, outputs, state


def run_for(app, clock, us):
    end = clock.t + us
    while clock.t < end:
        app.step()


def of(kind, messages):
    return [m for m in messages if isinstance(m, kind)]


def test_hello_first():
    app, port, *_ = board()
    app.start()
    assert port.messages() == [wire.Hello(1, (1, 0, 0), wire.READER_MFRC522, 4, 4, True, 1000100)]


def test_heartbeats_every_second():
    app, port, clock, *_ = board()
    app.start()
    run_for(app, clock, 3050000)
    beats = of(wire.Heartbeat, port.messages())
    assert len(beats) == 3
    assert beats[1].uptime_us - beats[0].uptime_us in range(1000000, 1001000)


def test_card_arrives_is_refreshed_and_leaves():
    app, port, clock, reader, *_ = board()
    app.start()
    port.messages()
    reader.uid = NTAG
    run_for(app, clock, 500000)
    cards = of(wire.Card, port.messages())
    assert cards[0].state == wire.CARD_PRESENT and cards[0].uid == NTAG
    refreshes = [c for c in cards[1:] if c.state == wire.CARD_STILL_PRESENT]
    assert 3 <= len(refreshes) <= 5
    reader.uid = None
    run_for(app, clock, 300000)
    messages = port.messages()
    removed = [c for c in of(wire.Card, messages) if c.state == wire.CARD_REMOVED]
    assert len(removed) == 1 and removed[0].uid == NTAG
    assert removed[0].t_us <= clock.t - 100000  # its last read, 3 misses before


def test_a_press_is_stamped_when_it_began_and_sampled_during_card_reads():
    app, port, clock, reader, _outputs, state = board()
    app.start()
    run_for(app, clock, 100000)
    port.messages()
    pressed_at = clock.t
    state["mask"] = 0b0100
    run_for(app, clock, 60000)
    state["mask"] = 0
    run_for(app, clock, 60000)
    buttons = of(wire.Button, port.messages())
    assert [(b.index, b.pressed) for b in buttons] == [(2, True), (2, False)]
    assert 0 < buttons[0].t_us - pressed_at < 500
    assert reader.idles > 0


def test_commands_act_and_are_acknowledged_once():
    app, port, clock, _reader, outputs, _state = board()
    app.start()
    port.messages()
    beep = wire.encode(wire.Beep(50, 3000), 4)
    port.inbox = wire.encode(wire.SetLed(1, wire.LED_ON), 3) + beep + beep
    port.inbox += wire.encode(wire.Ping(b"\x03x"), 5) + wire.encode(wire.SetLed(9, 1), 6)
    app.step()
    assert of(wire.Ack, port.messages()) == [
        wire.Ack(3, wire.SET_LED),
        wire.Ack(4, wire.BEEP),
        wire.Ack(4, wire.BEEP),
        wire.Ack(5, wire.PING, b"\x03x"),
    ]
    assert outputs.leds[1][-1] == 1
    assert outputs.sound == [0, 3000]  # one beep, not two
    run_for(app, clock, 60000)
    assert outputs.sound[-1] == 0


def test_hello_request_names_the_card_and_reset_reboots_after_its_ack():
    app, port, clock, reader, _outputs, state = board()
    app.start()
    reader.uid = NTAG
    run_for(app, clock, 100000)
    port.messages()
    port.inbox = wire.encode(wire.HelloRequest(), 0)
    app.step()
    got = port.messages()
    assert got[0] == wire.Ack(0, wire.HELLO_REQUEST)
    assert isinstance(got[1], wire.Hello)
    assert got[2].state == wire.CARD_PRESENT and got[2].uid == NTAG
    port.inbox = wire.encode(wire.Reset(wire.RESET_REBOOT), 1)
    app.step()
    assert port.messages()[0] == wire.Ack(1, wire.RESET)
    assert state["reboots"] == 1


def test_events_wait_while_the_host_does_not_read_and_overflow_is_counted():
    app, port, clock, _reader, _outputs, state = board(queue_size=4)
    app.start()
    port.messages()
    port.open = False
    for _ in range(5):  # 10 edges
        state["mask"] = 1
        run_for(app, clock, 30000)
        state["mask"] = 0
        run_for(app, clock, 30000)
    assert port.messages() == []
    assert len(app.queue) == 4 and app.queue.dropped == 6
    port.open = True
    run_for(app, clock, 1100000)
    got = port.messages()
    assert [(b.index, b.pressed) for b in of(wire.Button, got)] == [(0, True), (0, False)] * 2
    assert of(wire.Heartbeat, got)[0].dropped == 6


def test_a_missing_reader_is_reported_and_tried_again():
    app, port, clock, reader, *_ = board()
    reader.broken = True
    app.start()
    logs = of(wire.Log, port.messages())
    assert logs and "no card reader" in logs[0].text
    reader.broken = False
    reader.uid = NTAG
    run_for(app, clock, 2100000)
    assert reader.inits == 2
    assert of(wire.Card, port.messages())[0].uid == NTAG


def test_nothing_on_the_wire_is_ever_ctrl_c():
    app, port, clock, reader, _outputs, state = board()
    app.start()
    reader.uid = bytes([3, 3, 3, 3])
    for i in range(20):
        state["mask"] = i % 2
        run_for(app, clock, 33000)
    assert 3 not in bytes(port.out)
    assert len(port.messages()) > 20


run(globals(), "app")
