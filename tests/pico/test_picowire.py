"""picowire under CPython: framing, CRC, every frame type, resynchronisation, the session."""

from __future__ import annotations

import binascii

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.devices.cardreader import picowire as wire

u8 = st.integers(0, 255)
u16 = st.integers(0, wire.U16)
u64 = st.integers(0, wire.U64)
uids = st.binary(min_size=1, max_size=wire.MAX_UID)

messages: st.SearchStrategy[wire.Message] = st.one_of(
    st.builds(
        wire.Hello,
        u8,
        st.tuples(u8, u8, u8),
        u8,
        u8,
        st.integers(0, 254),
        st.booleans(),
        u64,
    ),
    st.builds(wire.Heartbeat, u64, u16, u16, st.binary(max_size=wire.MAX_UID)),
    st.builds(wire.Card, st.integers(0, 2), uids, u64),
    st.builds(wire.Button, u8, st.booleans(), u64),
    st.builds(wire.Ack, u8, u8, st.binary(max_size=wire.MAX_ECHO)),
    st.builds(wire.Nak, u8, u8, u8),
    st.builds(wire.Log, u8, st.text(max_size=60)),
    st.builds(wire.Ping, st.binary(max_size=wire.MAX_ECHO)),
    st.builds(wire.SetLed, u8, u8, u16),
    st.builds(wire.Beep, u16, u16),
    st.just(wire.HelloRequest()),
    st.builds(wire.Reset, u8),
)


def decode_all(data: bytes) -> list[wire.Received | wire.WireError]:
    return wire.Decoder().feed(data)


def test_crc16_ccitt_false_check_value() -> None:
    assert wire.crc16(b"123456789") == 0x29B1
    assert wire.crc16(b"") == 0xFFFF
    assert wire.crc16(b"6789", wire.crc16(b"12345")) == 0x29B1  # it continues


@given(st.binary(max_size=100))
def test_crc16_agrees_with_the_standard_library(data: bytes) -> None:
    assert wire.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


@given(messages, u8)
def test_every_message_round_trips(message: wire.Message, seq: int) -> None:
    frame = wire.encode(message, seq)
    assert decode_all(frame) == [wire.Received(seq, message)]
    assert wire.decode_body(wire.unstuff(frame)) == wire.Received(seq, message)


@given(messages, u8)
def test_frames_never_carry_ctrl_c_and_end_only_at_their_ends(
    message: wire.Message, seq: int
) -> None:
    frame = wire.encode(message, seq)
    assert wire.ETX not in frame
    assert frame[0] == frame[-1] == wire.END
    assert wire.END not in frame[1:-1]
    assert len(frame) <= 2 * wire.MAX_FRAME + 2


@given(st.lists(st.tuples(messages, u8), max_size=8), st.integers(1, 7))
def test_any_split_of_a_stream_decodes_the_same(
    frames: list[tuple[wire.Message, int]], chunk: int
) -> None:
    stream = b"".join(wire.encode(m, s) for m, s in frames)
    decoder = wire.Decoder()
    got: list[wire.Received | wire.WireError] = []
    for i in range(0, len(stream), chunk):
        got.extend(decoder.feed(stream[i : i + chunk]))
    assert got == [wire.Received(s, m) for m, s in frames]


@given(st.binary(max_size=80), messages, u8)
def test_resync_after_garbage_is_immediate(garbage: bytes, message: wire.Message, seq: int) -> None:
    # The frame after the garbage always decodes, whatever the garbage was; the garbage
    # gives what it would give on its own between two ENDs (nearly always errors).
    frame = wire.encode(message, seq)
    alone = decode_all(bytes([wire.END]) + garbage + bytes([wire.END]))
    got = decode_all(bytes([wire.END]) + garbage + frame)
    assert got == [*alone, wire.Received(seq, message)]


def test_garbage_between_frames_costs_one_error_and_nothing_else() -> None:
    a = wire.encode(wire.Button(0, True, 1), 1)
    b = wire.encode(wire.Button(0, False, 2), 2)
    got = decode_all(a + b"REPL text\r\n>>> " + b)
    assert got == [
        wire.Received(1, wire.Button(0, True, 1)),
        wire.WireError("bad CRC"),
        wire.Received(2, wire.Button(0, False, 2)),
    ]


def test_a_decoder_that_joins_mid_stream_drops_the_tail_silently() -> None:
    frame = wire.encode(wire.Heartbeat(5), 0)
    assert wire.Decoder().feed(frame[4:] + frame) == [wire.Received(0, wire.Heartbeat(5))]


@pytest.mark.parametrize(
    ("chunk", "reason"),
    [
        (b"\x01\x02", "short frame (2 bytes)"),
        (b"\x01\x04\x00\x00\x00\x00", "bad CRC"),
        (b"\xdb\x01", "bad escape"),
        (b"\x01\xdb", "bad escape"),
        (bytes(range(1, 66)), "overlong frame"),
    ],
)
def test_each_framing_error(chunk: bytes, reason: str) -> None:
    assert decode_all(b"\xc0" + chunk + b"\xc0") == [wire.WireError(reason)]


def _body(version: int, frame_type: int, payload: bytes) -> bytes:
    head = bytes([version, frame_type, 9]) + payload
    return head + wire.crc16(head).to_bytes(2, "big")


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (_body(2, wire.HELLO, bytes(16)), "unsupported protocol version 2"),
        (_body(1, 0x42, b""), "unknown frame type 0x42"),
        (_body(1, wire.BUTTON, b"\x00\x01"), "bad Button: BUTTON needs 10 payload bytes, got 2"),
        (_body(1, wire.BUTTON, b"\x00\x02" + bytes(8)), "bad Button: BUTTON state must be 0 or 1"),
        (_body(1, wire.CARD, b"\x01" + bytes(8) + b"\x00"), "bad Card: a UID has 1..10 bytes"),
        (_body(1, wire.CARD, b"\x01" + bytes(8) + b"\x0b" + bytes(11)), "bad Card: CARD UID"),
    ],
)
def test_checked_frames_that_still_do_not_parse(body: bytes, reason: str) -> None:
    (got,) = decode_all(wire.stuff(body))
    assert isinstance(got, wire.WireError)
    assert got.reason.startswith(reason)
    assert got.seq == 9


def test_receivers_ignore_extra_payload_bytes() -> None:
    body = _body(1, wire.BUTTON, b"\x02\x01" + (7).to_bytes(8, "big") + b"later field")
    assert decode_all(wire.stuff(body)) == [wire.Received(9, wire.Button(2, True, 7))]


@pytest.mark.parametrize(
    "message",
    [
        wire.Card(wire.CARD_PRESENT, b"\xc0\xdb\x03\xde\xdc\xdd\x04", 0xC0DB03),
        wire.Hello(wire.VERSION, (1, 0, 0), wire.READER_MFRC522, 4, 4, True, 12_345_678),
        wire.SetLed(1, wire.LED_BLINK, 500),
    ],
)
def test_every_single_bit_flip_is_caught(message: wire.Message) -> None:
    frame = wire.encode(message, 0xC0)
    for i in range(len(frame) * 8):
        broken = bytearray(frame)
        broken[i // 8] ^= 1 << (i % 8)
        for item in decode_all(b"\xc0" + bytes(broken) + b"\xc0"):
            assert isinstance(item, wire.WireError), (i, item)


# Frames quoted in docs/pico-protocol.md: if these change, so must the document.
DOC_EXAMPLES = [
    (wire.HelloRequest(), 0, "c0 01 84 00 2c f0 c0"),
    (wire.SetLed(1, wire.LED_BLINK, 500), 3, "c0 01 82 db de 01 02 01 f4 7c 63 c0"),
    (
        wire.Hello(wire.VERSION, (1, 0, 0), wire.READER_MFRC522, 4, 4, True, 1_500_000),
        0,
        "c0 01 01 00 01 01 00 00 01 04 04 01 00 00 00 00 00 16 e3 60 57 37 c0",
    ),
    (
        wire.Card(wire.CARD_PRESENT, bytes.fromhex("04A224B2C12A81"), 2_000_000),
        5,
        "c0 01 db de 05 01 00 00 00 00 00 1e 84 80 07 04 a2 24 b2 c1 2a 81 d9 75 c0",
    ),
    (wire.Button(0, True, 2_250_000), 6, "c0 01 04 06 00 01 00 00 00 00 00 22 55 10 71 b1 c0"),
    (wire.Ack(3, wire.SET_LED), 7, "c0 01 05 07 db de 82 66 11 c0"),
]


@pytest.mark.parametrize(("message", "seq", "hex_"), DOC_EXAMPLES)
def test_the_documented_examples(message: wire.Message, seq: int, hex_: str) -> None:
    assert wire.encode(message, seq).hex(" ") == hex_


class TestDeviceSession:
    def session(self, **caps: int | bool) -> wire.DeviceSession:
        return wire.DeviceSession(wire.Hello(firmware=(1, 0, 0), **caps))  # type: ignore[arg-type]

    def replies(self, data: bytes) -> list[wire.Message]:
        got = decode_all(b"\xc0" + data)
        assert all(isinstance(g, wire.Received) for g in got)
        return [g.message for g in got if isinstance(g, wire.Received)]

    def test_sequence_numbers_count_every_frame_and_wrap(self) -> None:
        session = self.session()
        seqs = []
        for _ in range(300):
            (got,) = decode_all(session.button(0, True, 0))
            assert isinstance(got, wire.Received)
            seqs.append(got.seq)
        assert seqs == [i % 256 for i in range(300)]

    def test_a_retry_is_acknowledged_but_not_done_twice(self) -> None:
        session = self.session()
        led = wire.encode(wire.SetLed(0, wire.LED_ON), 4)
        first = session.receive(led, 0)
        again = session.receive(led, 0)
        assert first[0] == [wire.SetLed(0, wire.LED_ON)]
        assert again[0] == []
        assert self.replies(first[1]) == self.replies(again[1]) == [wire.Ack(4, wire.SET_LED)]

    def test_a_new_command_with_the_same_seq_but_other_bytes_is_done(self) -> None:
        session = self.session()
        session.receive(wire.encode(wire.SetLed(0, wire.LED_ON), 4), 0)
        actions, _ = session.receive(wire.encode(wire.SetLed(0, wire.LED_OFF), 4), 0)
        assert actions == [wire.SetLed(0, wire.LED_OFF)]

    def test_hello_request_forgets_the_last_command(self) -> None:
        session = self.session()
        led = wire.encode(wire.SetLed(0, wire.LED_ON), 0)
        session.receive(led, 0)
        _, reply = session.receive(wire.encode(wire.HelloRequest(), 0), 5)
        assert self.replies(reply) == [
            wire.Ack(0, wire.HELLO_REQUEST),
            wire.Hello(firmware=(1, 0, 0), uptime_us=5),
        ]
        assert session.receive(led, 0)[0] == [wire.SetLed(0, wire.LED_ON)]

    def test_hello_request_names_the_card_on_the_reader(self) -> None:
        session = self.session()
        session.card(wire.CARD_PRESENT, b"\x01\x02\x03\x04", 77)
        _, reply = session.receive(wire.encode(wire.HelloRequest(), 1), 100)
        assert self.replies(reply)[-1] == wire.Card(wire.CARD_PRESENT, b"\x01\x02\x03\x04", 77)
        session.card(wire.CARD_REMOVED, b"\x01\x02\x03\x04", 90)
        _, reply = session.receive(wire.encode(wire.HelloRequest(), 2), 100)
        assert not any(isinstance(m, wire.Card) for m in self.replies(reply))

    @pytest.mark.parametrize(
        ("command", "reason"),
        [
            (wire.SetLed(4, wire.LED_ON), wire.NAK_OUT_OF_RANGE),
            (wire.SetLed(0, 3), wire.NAK_OUT_OF_RANGE),
            (wire.Beep(wire.MAX_BEEP_MS + 1), wire.NAK_OUT_OF_RANGE),
            (wire.Reset(7), wire.NAK_OUT_OF_RANGE),
            (wire.Heartbeat(0), wire.NAK_UNKNOWN_TYPE),
        ],
    )
    def test_refusals(self, command: wire.Message, reason: int) -> None:
        actions, reply = self.session(leds=4).receive(wire.encode(command, 8), 0)
        assert actions == []
        assert self.replies(reply) == [wire.Nak(8, command.TYPE, reason)]

    def test_no_buzzer_no_beep(self) -> None:
        _, reply = self.session(buzzer=False).receive(wire.encode(wire.Beep(10), 1), 0)
        assert self.replies(reply) == [wire.Nak(1, wire.BEEP, wire.NAK_UNSUPPORTED)]

    def test_frames_it_cannot_parse_are_refused_or_counted(self) -> None:
        session = self.session()
        bad_type = wire.stuff(_body(1, 0x99, b""))
        bad_version = wire.stuff(_body(3, wire.PING, b""))
        bad_crc = b"\xc0\x01\x81\x00\x00\x00\xc0"
        _, reply = session.receive(bad_type + bad_version + bad_crc, 0)
        assert self.replies(reply) == [
            wire.Nak(9, 0x99, wire.NAK_UNKNOWN_TYPE),
            wire.Nak(9, wire.PING, wire.NAK_VERSION),
        ]
        assert session.rx_bad == 3

    def test_reset_outputs_says_hello_again(self) -> None:
        session = self.session()
        actions, reply = session.receive(wire.encode(wire.Reset(wire.RESET_OUTPUTS), 2), 9)
        assert actions == [wire.Reset(wire.RESET_OUTPUTS)]
        assert self.replies(reply) == [wire.Ack(2, wire.RESET), session.info.with_uptime(9)]


def test_values_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match=r"button must be 0\.\.255"):
        wire.Button(256, True, 0)
    with pytest.raises(ValueError, match="t_us"):
        wire.Button(0, True, -1)
    with pytest.raises(ValueError, match="UID"):
        wire.Card(wire.CARD_PRESENT, bytes(11), 0)
    with pytest.raises(ValueError, match="at most 16"):
        wire.Ping(bytes(17))


def test_log_text_is_cut_to_48_bytes_without_breaking() -> None:
    log = wire.Log(wire.LOG_INFO, "é" * 40)
    assert len(log.payload()) <= 1 + wire.MAX_LOG_TEXT
    (got,) = decode_all(wire.encode(log, 0))
    assert isinstance(got, wire.Received)
    assert got.message == log


def test_uid_hex() -> None:
    assert wire.uid_hex(bytes.fromhex("04a224b2c12a81")) == "04A224B2C12A81"
    assert wire.type_name(wire.SET_LED) == "SetLed"
    assert wire.type_name(0x77) == "0x77"
