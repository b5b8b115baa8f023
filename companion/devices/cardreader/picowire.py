"""The Pico board's wire format, version 1: framing, CRC-16, frame types, encode/decode,
and the device's end of the conversation. docs/pico-protocol.md describes it byte by byte.

This one file is used three ways: by the host (`pico.py`), by the emulator
(`pico_emulator.py`) and, copied to the Pico as `picowire.py`, by the firmware. So it is
written in the common subset of CPython 3.11 and MicroPython: it imports nothing, its
annotations name only builtins and its own classes (MicroPython ignores annotations,
CPython evaluates them), and it uses no dataclasses, no f-strings and no `str.format` specs
MicroPython lacks.

    frame = encode(SetLed(0, LED_BLINK, 500), seq=7)  # bytes for the wire, delimiters and all
    decoder = Decoder()
    decoder.feed(frame)                               # [Received(7, SetLed(0, 2, 500))]
    decoder.feed(b"\\xc0garbage\\xc0")                  # [WireError('short frame')] ...

A frame on the wire is END, the stuffed body, END. The body is
`version, type, seq, payload..., crc_hi, crc_lo`, with the CRC-16/CCITT-FALSE of everything
before it. Integers are big-endian.
"""

VERSION = 1

# ---- framing: SLIP (RFC 1055) with one more escape --------------------------------------
# 0x03 is Ctrl-C: MicroPython's USB serial turns it into a KeyboardInterrupt before the
# firmware can read it. Escaping it too means host bytes never stop the firmware, while a
# real Ctrl-C (mpremote, a terminal) still does.

END = 0xC0
ESC = 0xDB
ESC_END = 0xDC
ESC_ESC = 0xDD
ETX = 0x03
ESC_ETX = 0xDE

MAX_FRAME = 64
"""The longest body (header, payload and CRC, before stuffing) a receiver accepts."""
HEADER = 3
CRC_SIZE = 2
MIN_FRAME = HEADER + CRC_SIZE

# ---- frame types: device -> host below 0x80, host -> device from 0x80 ---------------------

HELLO = 0x01
HEARTBEAT = 0x02
CARD = 0x03
BUTTON = 0x04
ACK = 0x05
NAK = 0x06
LOG = 0x07
PING = 0x81
SET_LED = 0x82
BEEP = 0x83
HELLO_REQUEST = 0x84
RESET = 0x85

READER_NONE = 0
READER_MFRC522 = 1

FLAG_BUZZER = 0x01

CARD_REMOVED = 0
CARD_PRESENT = 1
CARD_STILL_PRESENT = 2
"""Sent again and again while the card stays, as a 125 kHz reader repeats its frame."""

LED_OFF = 0
LED_ON = 1
LED_BLINK = 2
ALL_LEDS = 0xFF
DEFAULT_BLINK_MS = 500

DEFAULT_BEEP_HZ = 2000
MAX_BEEP_MS = 10000

RESET_OUTPUTS = 0
RESET_REBOOT = 1

NAK_UNKNOWN_TYPE = 1
NAK_BAD_PAYLOAD = 2
NAK_OUT_OF_RANGE = 3
NAK_UNSUPPORTED = 4
NAK_VERSION = 5

LOG_INFO = 0
LOG_WARNING = 1
LOG_ERROR = 2

MAX_UID = 10
MAX_ECHO = 16
MAX_LOG_TEXT = 48
U16 = 0xFFFF
U64 = 0xFFFFFFFFFFFFFFFF

# ---- CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, not reflected, no final xor ------------


def _crc_table() -> list[int]:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of `data`; crc16(b"123456789") == 0x29B1."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def stuff(body: bytes) -> bytes:
    """END, `body` with END, ESC and 0x03 escaped, END."""
    out = bytearray()
    out.append(END)
    for byte in body:
        if byte == END:
            out.append(ESC)
            out.append(ESC_END)
        elif byte == ESC:
            out.append(ESC)
            out.append(ESC_ESC)
        elif byte == ETX:
            out.append(ESC)
            out.append(ESC_ETX)
        else:
            out.append(byte)
    out.append(END)
    return bytes(out)


def unstuff(frame: bytes) -> bytes:
    """The body of one stuffed frame, its ENDs stripped; raises WireError for a bad escape
    or an END in the middle."""
    data = bytes(frame)
    while data and data[0] == END:
        data = data[1:]
    while data and data[-1] == END:
        data = data[:-1]
    out = bytearray()
    escaped = False
    for byte in data:
        if escaped:
            escaped = False
            if byte == ESC_END:
                out.append(END)
            elif byte == ESC_ESC:
                out.append(ESC)
            elif byte == ESC_ETX:
                out.append(ETX)
            else:
                raise WireError("bad escape")
        elif byte == ESC:
            escaped = True
        elif byte == END:
            raise WireError("more than one frame")
        else:
            out.append(byte)
    if escaped:
        raise WireError("bad escape")
    return bytes(out)


# ---- errors and helpers -------------------------------------------------------------------


class WireError(Exception):
    """A frame that failed a check. `seq` and `frame_type` are set once the CRC passed (the
    device NAKs such a frame); a frame with a bad CRC, escape or length has neither."""

    def __init__(
        self, reason: str, seq: "int | None" = None, frame_type: "int | None" = None
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.seq = seq
        self.frame_type = frame_type

    def __eq__(self, other: object) -> bool:
        return isinstance(other, WireError) and other.reason == self.reason

    def __repr__(self) -> str:
        return "WireError(" + repr(self.reason) + ")"


def _hex2(value: int) -> str:
    return "0x" + "0123456789ABCDEF"[(value >> 4) & 15] + "0123456789ABCDEF"[value & 15]


def _check(name: str, value: int, high: int) -> int:
    if value < 0 or value > high:
        raise ValueError(name + " must be 0.." + str(high) + ", got " + str(value))
    return value


def _u16(value: int) -> bytes:
    return bytes([(value >> 8) & 0xFF, value & 0xFF])


def _u64(value: int) -> bytes:
    return bytes([(value >> shift) & 0xFF for shift in (56, 48, 40, 32, 24, 16, 8, 0)])


def _int(data: bytes, start: int, size: int) -> int:
    value = 0
    for byte in data[start : start + size]:
        value = (value << 8) | byte
    return value


def _need(payload: bytes, size: int, name: str) -> None:
    # Receivers ignore bytes after the fields they know: a later firmware may add fields at
    # the end without a new version. Too few bytes is always an error.
    if len(payload) < size:
        raise ValueError(name + " needs " + str(size) + " payload bytes, got " + str(len(payload)))


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeError:  # MicroPython has no errors="replace"
        return "".join([chr(b) if b < 0x80 else "?" for b in data])


def uid_hex(uid: bytes) -> str:
    """The tag id the companion uses: upper-case hex, no separators ('04A224B2C12A81')."""
    digits = "0123456789ABCDEF"
    return "".join([digits[b >> 4] + digits[b & 15] for b in uid])


# ---- messages -----------------------------------------------------------------------------


class Message:
    """One frame's meaning, without its header. Equal when type and fields are equal."""

    TYPE = 0
    NAME = "?"

    def fields(self) -> tuple[object, ...]:
        raise NotImplementedError

    def payload(self) -> bytes:
        raise NotImplementedError

    @classmethod
    def parse(cls, payload: bytes) -> "Message":
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Message)
            and other.TYPE == self.TYPE
            and other.fields() == self.fields()
        )

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((self.TYPE, self.fields()))

    def __repr__(self) -> str:
        return self.NAME + repr(self.fields())


class Hello(Message):
    """Device -> host, at boot and when asked: who the device is and what it has."""

    TYPE = HELLO
    NAME = "Hello"

    def __init__(
        self,
        protocol: int = VERSION,
        firmware: tuple[int, int, int] = (0, 0, 0),
        reader: int = READER_MFRC522,
        buttons: int = 4,
        leds: int = 4,
        buzzer: bool = True,
        uptime_us: int = 0,
    ) -> None:
        self.protocol = _check("protocol", protocol, 255)
        self.firmware = (
            _check("firmware major", firmware[0], 255),
            _check("firmware minor", firmware[1], 255),
            _check("firmware patch", firmware[2], 255),
        )
        self.reader = _check("reader", reader, 255)
        self.buttons = _check("buttons", buttons, 255)
        self.leds = _check("leds", leds, 254)
        self.buzzer = bool(buzzer)
        self.uptime_us = _check("uptime_us", uptime_us, U64)

    def fields(self) -> tuple[object, ...]:
        return (
            self.protocol,
            self.firmware,
            self.reader,
            self.buttons,
            self.leds,
            self.buzzer,
            self.uptime_us,
        )

    def payload(self) -> bytes:
        flags = FLAG_BUZZER if self.buzzer else 0
        head = bytes([self.protocol, self.firmware[0], self.firmware[1], self.firmware[2]])
        caps = bytes([self.reader, self.buttons, self.leds, flags])
        return head + caps + _u64(self.uptime_us)

    @classmethod
    def parse(cls, payload: bytes) -> "Hello":
        _need(payload, 16, "HELLO")
        return cls(
            payload[0],
            (payload[1], payload[2], payload[3]),
            payload[4],
            payload[5],
            payload[6],
            bool(payload[7] & FLAG_BUZZER),
            _int(payload, 8, 8),
        )

    def with_uptime(self, uptime_us: int) -> "Hello":
        return Hello(
            self.protocol,
            self.firmware,
            self.reader,
            self.buttons,
            self.leds,
            self.buzzer,
            uptime_us,
        )


def _uid_field(uid: bytes, empty_ok: bool) -> bytes:
    uid = bytes(uid)
    if len(uid) > MAX_UID or (not uid and not empty_ok):
        raise ValueError("a UID has 1.." + str(MAX_UID) + " bytes, got " + str(len(uid)))
    return uid


def _parse_uid(payload: bytes, at: int, name: str) -> bytes:
    _need(payload, at + 1, name)
    size = payload[at]
    if size > MAX_UID:
        raise ValueError(name + " UID length " + str(size) + " is over " + str(MAX_UID))
    _need(payload, at + 1 + size, name)
    return bytes(payload[at + 1 : at + 1 + size])


class Heartbeat(Message):
    """Device -> host, about once a second: uptime, counters and the card on the reader."""

    TYPE = HEARTBEAT
    NAME = "Heartbeat"

    def __init__(self, uptime_us: int, dropped: int = 0, rx_bad: int = 0, uid: bytes = b"") -> None:
        self.uptime_us = _check("uptime_us", uptime_us, U64)
        self.dropped = _check("dropped", dropped, U16)
        """Events the device's queue dropped since boot (saturates at 65535)."""
        self.rx_bad = _check("rx_bad", rx_bad, U16)
        """Frames from the host the device could not use since boot (saturates)."""
        self.uid = _uid_field(uid, True)
        """The card on the reader now, b"" for none."""

    def fields(self) -> tuple[object, ...]:
        return (self.uptime_us, self.dropped, self.rx_bad, self.uid)

    def payload(self) -> bytes:
        return (
            _u64(self.uptime_us)
            + _u16(self.dropped)
            + _u16(self.rx_bad)
            + bytes([len(self.uid)])
            + self.uid
        )

    @classmethod
    def parse(cls, payload: bytes) -> "Heartbeat":
        _need(payload, 13, "HEARTBEAT")
        uid = _parse_uid(payload, 12, "HEARTBEAT")
        return cls(_int(payload, 0, 8), _int(payload, 8, 2), _int(payload, 10, 2), uid)


class Card(Message):
    """Device -> host: a card arrived (CARD_PRESENT, stamped with its first read), is still
    there (CARD_STILL_PRESENT, its latest read) or left (CARD_REMOVED, its last read)."""

    TYPE = CARD
    NAME = "Card"

    def __init__(self, state: int, uid: bytes, t_us: int) -> None:
        self.state = _check("card state", state, CARD_STILL_PRESENT)
        self.uid = _uid_field(uid, False)
        self.t_us = _check("t_us", t_us, U64)

    @property
    def present(self) -> bool:
        return self.state != CARD_REMOVED

    def fields(self) -> tuple[object, ...]:
        return (self.state, self.uid, self.t_us)

    def payload(self) -> bytes:
        return bytes([self.state]) + _u64(self.t_us) + bytes([len(self.uid)]) + self.uid

    @classmethod
    def parse(cls, payload: bytes) -> "Card":
        _need(payload, 10, "CARD")
        return cls(payload[0], _parse_uid(payload, 9, "CARD"), _int(payload, 1, 8))


class Button(Message):
    """Device -> host: a debounced edge, stamped with the moment the contact first moved."""

    TYPE = BUTTON
    NAME = "Button"

    def __init__(self, index: int, pressed: bool, t_us: int) -> None:
        self.index = _check("button", index, 255)
        self.pressed = bool(pressed)
        self.t_us = _check("t_us", t_us, U64)

    def fields(self) -> tuple[object, ...]:
        return (self.index, self.pressed, self.t_us)

    def payload(self) -> bytes:
        return bytes([self.index, 1 if self.pressed else 0]) + _u64(self.t_us)

    @classmethod
    def parse(cls, payload: bytes) -> "Button":
        _need(payload, 10, "BUTTON")
        if payload[1] > 1:
            raise ValueError("BUTTON state must be 0 or 1, got " + str(payload[1]))
        return cls(payload[0], payload[1] == 1, _int(payload, 2, 8))


class Ack(Message):
    """Device -> host: the command with sequence number `seq` was carried out."""

    TYPE = ACK
    NAME = "Ack"

    def __init__(self, seq: int, command: int, data: bytes = b"") -> None:
        self.seq = _check("acknowledged seq", seq, 255)
        self.command = _check("acknowledged type", command, 255)
        self.data = bytes(data)
        """A PING's echo; empty for the other commands."""
        if len(self.data) > MAX_ECHO:
            raise ValueError("an ACK carries at most " + str(MAX_ECHO) + " bytes")

    def fields(self) -> tuple[object, ...]:
        return (self.seq, self.command, self.data)

    def payload(self) -> bytes:
        return bytes([self.seq, self.command]) + self.data

    @classmethod
    def parse(cls, payload: bytes) -> "Ack":
        _need(payload, 2, "ACK")
        return cls(payload[0], payload[1], bytes(payload[2 : 2 + MAX_ECHO]))


class Nak(Message):
    """Device -> host: the command with sequence number `seq` was refused, and why."""

    TYPE = NAK
    NAME = "Nak"

    def __init__(self, seq: int, command: int, reason: int) -> None:
        self.seq = _check("refused seq", seq, 255)
        self.command = _check("refused type", command, 255)
        self.reason = _check("reason", reason, 255)

    def fields(self) -> tuple[object, ...]:
        return (self.seq, self.command, self.reason)

    def payload(self) -> bytes:
        return bytes([self.seq, self.command, self.reason])

    @classmethod
    def parse(cls, payload: bytes) -> "Nak":
        _need(payload, 3, "NAK")
        return cls(payload[0], payload[1], payload[2])


class Log(Message):
    """Device -> host: a line of text (a reader that stopped answering, a caught error)."""

    TYPE = LOG
    NAME = "Log"

    def __init__(self, level: int, text: str) -> None:
        self.level = _check("log level", level, 255)
        data = text.encode("utf-8")[:MAX_LOG_TEXT]
        self.text = _text(data)

    def fields(self) -> tuple[object, ...]:
        return (self.level, self.text)

    def payload(self) -> bytes:
        return bytes([self.level]) + self.text.encode("utf-8")[:MAX_LOG_TEXT]

    @classmethod
    def parse(cls, payload: bytes) -> "Log":
        _need(payload, 1, "LOG")
        return cls(payload[0], _text(bytes(payload[1 : 1 + MAX_LOG_TEXT])))


class Ping(Message):
    """Host -> device: are you there? The ACK echoes `data`."""

    TYPE = PING
    NAME = "Ping"

    def __init__(self, data: bytes = b"") -> None:
        self.data = bytes(data)
        if len(self.data) > MAX_ECHO:
            raise ValueError("a PING carries at most " + str(MAX_ECHO) + " bytes")

    def fields(self) -> tuple[object, ...]:
        return (self.data,)

    def payload(self) -> bytes:
        return self.data

    @classmethod
    def parse(cls, payload: bytes) -> "Ping":
        return cls(bytes(payload[:MAX_ECHO]))


class SetLed(Message):
    """Host -> device: LED `index` (ALL_LEDS for every one) off, on, or blinking with a
    whole period of `period_ms` (0: DEFAULT_BLINK_MS)."""

    TYPE = SET_LED
    NAME = "SetLed"

    def __init__(self, index: int, mode: int, period_ms: int = 0) -> None:
        self.index = _check("LED", index, 255)
        self.mode = _check("LED mode", mode, 255)
        self.period_ms = _check("period_ms", period_ms, U16)

    def fields(self) -> tuple[object, ...]:
        return (self.index, self.mode, self.period_ms)

    def payload(self) -> bytes:
        return bytes([self.index, self.mode]) + _u16(self.period_ms)

    @classmethod
    def parse(cls, payload: bytes) -> "SetLed":
        _need(payload, 4, "SET_LED")
        return cls(payload[0], payload[1], _int(payload, 2, 2))


class Beep(Message):
    """Host -> device: sound the buzzer for `duration_ms` (0 stops it) at `frequency_hz`
    (0: DEFAULT_BEEP_HZ)."""

    TYPE = BEEP
    NAME = "Beep"

    def __init__(self, duration_ms: int, frequency_hz: int = 0) -> None:
        self.duration_ms = _check("duration_ms", duration_ms, U16)
        self.frequency_hz = _check("frequency_hz", frequency_hz, U16)

    def fields(self) -> tuple[object, ...]:
        return (self.duration_ms, self.frequency_hz)

    def payload(self) -> bytes:
        return _u16(self.duration_ms) + _u16(self.frequency_hz)

    @classmethod
    def parse(cls, payload: bytes) -> "Beep":
        _need(payload, 4, "BEEP")
        return cls(_int(payload, 0, 2), _int(payload, 2, 2))


class HelloRequest(Message):
    """Host -> device: say HELLO again, and name the card on the reader, if any."""

    TYPE = HELLO_REQUEST
    NAME = "HelloRequest"

    def fields(self) -> tuple[object, ...]:
        return ()

    def payload(self) -> bytes:
        return b""

    @classmethod
    def parse(cls, payload: bytes) -> "HelloRequest":
        return cls()


class Reset(Message):
    """Host -> device: RESET_OUTPUTS (LEDs and buzzer off, then HELLO) or RESET_REBOOT."""

    TYPE = RESET
    NAME = "Reset"

    def __init__(self, mode: int = RESET_OUTPUTS) -> None:
        self.mode = _check("reset mode", mode, 255)

    def fields(self) -> tuple[object, ...]:
        return (self.mode,)

    def payload(self) -> bytes:
        return bytes([self.mode])

    @classmethod
    def parse(cls, payload: bytes) -> "Reset":
        _need(payload, 1, "RESET")
        return cls(payload[0])


MESSAGES: dict[int, type[Message]] = {
    HELLO: Hello,
    HEARTBEAT: Heartbeat,
    CARD: Card,
    BUTTON: Button,
    ACK: Ack,
    NAK: Nak,
    LOG: Log,
    PING: Ping,
    SET_LED: SetLed,
    BEEP: Beep,
    HELLO_REQUEST: HelloRequest,
    RESET: Reset,
}
"""Every frame type of version 1, by its type byte."""


def type_name(frame_type: int) -> str:
    message = MESSAGES.get(frame_type)
    return message.NAME if message is not None else _hex2(frame_type)


# ---- frames -------------------------------------------------------------------------------


class Received:
    """A frame that passed every check: its sequence number and its message."""

    def __init__(self, seq: int, message: Message) -> None:
        self.seq = seq
        self.message = message

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Received) and other.seq == self.seq and other.message == self.message
        )

    def __repr__(self) -> str:
        return "Received(" + str(self.seq) + ", " + repr(self.message) + ")"


def body(message: Message, seq: int) -> bytes:
    """The frame before stuffing: version, type, seq, payload, CRC."""
    head = bytes([VERSION, message.TYPE, _check("seq", seq, 255)]) + message.payload()
    if len(head) + CRC_SIZE > MAX_FRAME:
        raise ValueError("a frame is at most " + str(MAX_FRAME) + " bytes")
    return head + _u16(crc16(head))


def encode(message: Message, seq: int) -> bytes:
    """The frame as it goes on the wire: END, stuffed body, END."""
    return stuff(body(message, seq))


def decode_body(data: bytes) -> Received:
    """Checks and parses one unstuffed frame; raises WireError."""
    if len(data) < MIN_FRAME:
        raise WireError("short frame (" + str(len(data)) + " bytes)")
    if crc16(data[:-CRC_SIZE]) != _int(data, len(data) - CRC_SIZE, CRC_SIZE):
        raise WireError("bad CRC")
    version, frame_type, seq = data[0], data[1], data[2]
    if version != VERSION:
        reason = "unsupported protocol version " + str(version)
        if frame_type == HELLO and len(data) >= HEADER + 4 + CRC_SIZE:
            # Every version keeps the header and HELLO's first 4 payload bytes: say who it is.
            fw = data[HEADER + 1 : HEADER + 4]
            reason += " (firmware " + str(fw[0]) + "." + str(fw[1]) + "." + str(fw[2]) + ")"
        raise WireError(reason, seq, frame_type)
    message = MESSAGES.get(frame_type)
    if message is None:
        raise WireError("unknown frame type " + _hex2(frame_type), seq, frame_type)
    try:
        parsed = message.parse(bytes(data[HEADER:-CRC_SIZE]))
    except ValueError as err:
        raise WireError("bad " + message.NAME + ": " + str(err), seq, frame_type) from None
    return Received(seq, parsed)


class Decoder:
    """Bytes in, frames out, resynchronising at every END.

    It starts by hunting: bytes before the first END are the tail of something it joined
    in the middle of, and are dropped without a word. After that, every non-empty stretch
    between two ENDs is either a frame or a WireError; empty stretches (END END, the
    boundary between two frames) are skipped. Garbage costs at most the frames it touches.
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self._buf = bytearray()
        self._escaped = False
        self._error = ""
        self._hunting = True

    def feed(self, data: bytes) -> "list[Received | WireError]":
        out: list[Received | WireError] = []
        for byte in data:
            if byte == END:
                if self._hunting:
                    self._hunting = False
                elif self._error or self._escaped:
                    out.append(WireError(self._error or "bad escape"))
                elif self._buf:
                    try:
                        out.append(decode_body(bytes(self._buf)))
                    except WireError as err:
                        out.append(err)
                self._buf = bytearray()
                self._escaped = False
                self._error = ""
                continue
            if self._hunting or self._error:
                continue
            if self._escaped:
                self._escaped = False
                if byte == ESC_END:
                    byte = END
                elif byte == ESC_ESC:
                    byte = ESC
                elif byte == ESC_ETX:
                    byte = ETX
                else:
                    self._error = "bad escape"
                    continue
            elif byte == ESC:
                self._escaped = True
                continue
            if len(self._buf) >= MAX_FRAME:
                self._error = "overlong frame"
                continue
            self._buf.append(byte)
        return out


# ---- the device's end of the conversation -------------------------------------------------


def _saturate(value: int) -> int:
    return value if value < U16 else U16


class DeviceSession:
    """What the device says and how it answers, without any I/O: the firmware and the
    emulator both use this, so they cannot disagree.

        session = DeviceSession(Hello(firmware=(1, 0, 0), buttons=4, leds=4))
        port.write(session.hello(uptime_us))
        actions, reply = session.receive(port.read(), uptime_us)
        port.write(reply)               # ACKs/NAKs (and a HELLO when asked)
        for action in actions: ...      # SetLed, Beep and Reset for the hardware

    Every host command gets exactly one ACK or NAK carrying its sequence number. A command
    that arrives again with the same sequence number and bytes (the host retrying after a
    lost ACK) is acknowledged again but not carried out twice. HELLO_REQUEST forgets that
    memory, so a host that starts again from sequence 0 is never mistaken for a retry.
    """

    def __init__(self, hello: Hello) -> None:
        self.info = hello
        self.seq = 0
        self.decoder = Decoder()
        self.rx_bad = 0
        self.card_uid = b""
        self.card_t_us = 0
        self._last_key = b""
        self._last_reply: Message | None = None

    def frame(self, message: Message) -> bytes:
        seq = self.seq
        self.seq = (seq + 1) & 0xFF
        return encode(message, seq)

    def hello(self, uptime_us: int) -> bytes:
        return self.frame(self.info.with_uptime(uptime_us))

    def heartbeat(self, uptime_us: int, dropped: int = 0) -> bytes:
        return self.frame(
            Heartbeat(uptime_us, _saturate(dropped), _saturate(self.rx_bad), self.card_uid)
        )

    def card(self, state: int, uid: bytes, t_us: int) -> bytes:
        if state == CARD_REMOVED:
            if uid == self.card_uid:
                self.card_uid = b""
        else:
            self.card_uid = bytes(uid)
            self.card_t_us = t_us
        return self.frame(Card(state, uid, t_us))

    def button(self, index: int, pressed: bool, t_us: int) -> bytes:
        return self.frame(Button(index, pressed, t_us))

    def log(self, level: int, text: str) -> bytes:
        return self.frame(Log(level, text))

    def receive(self, data: bytes, uptime_us: int) -> "tuple[list[Message], bytes]":
        """Frames from the host: (commands for the hardware, bytes to send back)."""
        actions: list[Message] = []
        reply = bytearray()
        for item in self.decoder.feed(data):
            if isinstance(item, WireError):
                self.rx_bad += 1
                if item.seq is not None and item.frame_type is not None:
                    reason = NAK_BAD_PAYLOAD
                    if item.reason.startswith("unsupported"):
                        reason = NAK_VERSION
                    elif item.reason.startswith("unknown"):
                        reason = NAK_UNKNOWN_TYPE
                    reply.extend(self.frame(Nak(item.seq, item.frame_type, reason)))
                continue
            reply.extend(self._command(item.seq, item.message, uptime_us, actions))
        return actions, bytes(reply)

    def _command(self, seq: int, message: Message, uptime_us: int, actions: list[Message]) -> bytes:
        key = bytes([message.TYPE, seq]) + message.payload()
        if isinstance(message, HelloRequest):
            self._last_key = b""
            self._last_reply = None
            out = self.frame(Ack(seq, message.TYPE)) + self.hello(uptime_us)
            if self.card_uid:
                out += self.frame(Card(CARD_PRESENT, self.card_uid, self.card_t_us))
            return out
        if key == self._last_key and self._last_reply is not None:
            return self.frame(self._last_reply)  # a retry: answer again, do not do it again
        refusal = self._refusal(message)
        if refusal:
            answer: Message = Nak(seq, message.TYPE, refusal)
        elif isinstance(message, Ping):
            answer = Ack(seq, message.TYPE, message.data)
        else:
            answer = Ack(seq, message.TYPE)
            actions.append(message)
        self._last_key = key
        self._last_reply = answer
        out = self.frame(answer)
        if isinstance(message, Reset) and not refusal and message.mode == RESET_OUTPUTS:
            out += self.hello(uptime_us)
        return out

    def _refusal(self, message: Message) -> int:
        """0, or why the command cannot be carried out."""
        if isinstance(message, SetLed):
            if message.index != ALL_LEDS and message.index >= self.info.leds:
                return NAK_OUT_OF_RANGE
            if message.mode > LED_BLINK:
                return NAK_OUT_OF_RANGE
            return 0
        if isinstance(message, Beep):
            if not self.info.buzzer:
                return NAK_UNSUPPORTED
            return NAK_OUT_OF_RANGE if message.duration_ms > MAX_BEEP_MS else 0
        if isinstance(message, Reset):
            return 0 if message.mode in (RESET_OUTPUTS, RESET_REBOOT) else NAK_OUT_OF_RANGE
        if isinstance(message, Ping):
            return 0
        return NAK_UNKNOWN_TYPE  # a device -> host type sent to the device (an echo?)
