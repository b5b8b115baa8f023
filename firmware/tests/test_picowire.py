"""picowire.py on MicroPython: the same file the host uses, checked where it also runs."""

import picowire as wire
from harness import raises, run

EVERY = [
    wire.Hello(wire.VERSION, (1, 2, 3), wire.READER_MFRC522, 4, 4, True, 2**40 + 7),
    wire.Heartbeat(123456789012, 3, 65535, b"\x04\xa2\x24\xb2\xc1\x2a\x81"),
    wire.Heartbeat(5),
    wire.Card(wire.CARD_PRESENT, b"\x12\x34\x56\x78", 99),
    wire.Card(wire.CARD_STILL_PRESENT, bytes(range(10)), 2**63),
    wire.Card(wire.CARD_REMOVED, b"\xc0\xdb\x03\xde", 0),
    wire.Button(3, True, 1000),
    wire.Button(0, False, wire.U64),
    wire.Ack(7, wire.PING, b"\x03\xc0"),
    wire.Nak(255, wire.SET_LED, wire.NAK_OUT_OF_RANGE),
    wire.Log(wire.LOG_ERROR, "no card reader: OSError(5)"),
    wire.Ping(b"hello"),
    wire.SetLed(wire.ALL_LEDS, wire.LED_BLINK, 250),
    wire.Beep(120, 3000),
    wire.HelloRequest(),
    wire.Reset(wire.RESET_REBOOT),
]


def test_crc_check_value():
    assert wire.crc16(b"123456789") == 0x29B1
    assert wire.crc16(b"") == 0xFFFF


def test_every_frame_type_round_trips():
    decoder = wire.Decoder()
    stream = b"".join([wire.encode(m, i) for i, m in enumerate(EVERY)])
    got = decoder.feed(stream)
    assert got == [wire.Received(i, m) for i, m in enumerate(EVERY)], got


def test_no_ctrl_c_on_the_wire():
    for seq in (0, 3, 0xC0, 0xDB):
        for message in EVERY:
            frame = wire.encode(message, seq)
            assert 0x03 not in frame
            assert wire.END not in frame[1:-1]


def test_resync_after_garbage():
    decoder = wire.Decoder()
    good = wire.encode(wire.Button(1, True, 5), 9)
    out = decoder.feed(b"\x00\x01tail of something" + good + b"\xc0\xff\xfe\xfd\xfc\xfb\xc0" + good)
    assert out == [
        wire.Received(9, wire.Button(1, True, 5)),
        wire.WireError("bad CRC"),
        wire.Received(9, wire.Button(1, True, 5)),
    ]


def test_bytes_fed_one_at_a_time():
    decoder = wire.Decoder()
    frame = wire.encode(EVERY[1], 200)
    out = []
    for byte in frame:
        out.extend(decoder.feed(bytes([byte])))
    assert out == [wire.Received(200, EVERY[1])]


def test_session_answers_and_deduplicates():
    session = wire.DeviceSession(wire.Hello(firmware=(1, 0, 0), buttons=4, leds=4, buzzer=True))
    beep = wire.encode(wire.Beep(100), 5)
    actions, reply = session.receive(beep + beep, 77)
    assert actions == [wire.Beep(100)]
    replies = [r.message for r in wire.Decoder().feed(b"\xc0" + reply)]
    assert replies == [wire.Ack(5, wire.BEEP), wire.Ack(5, wire.BEEP)]


def test_session_refuses_what_it_cannot_do():
    session = wire.DeviceSession(wire.Hello(leds=2, buzzer=False))
    data = wire.encode(wire.SetLed(2, wire.LED_ON), 1) + wire.encode(wire.Beep(10), 2)
    actions, reply = session.receive(data, 0)
    assert actions == []
    replies = [r.message for r in wire.Decoder().feed(b"\xc0" + reply)]
    assert replies == [
        wire.Nak(1, wire.SET_LED, wire.NAK_OUT_OF_RANGE),
        wire.Nak(2, wire.BEEP, wire.NAK_UNSUPPORTED),
    ]


def test_bad_values_are_refused_when_encoding():
    assert raises(ValueError, wire.Button, 256, True, 0)
    assert raises(ValueError, wire.Card, 1, b"", 0)
    assert raises(ValueError, wire.Ping, bytes(17))
    assert raises(ValueError, wire.encode, wire.Ping(), 256)


run(globals(), "picowire")
