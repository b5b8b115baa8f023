"""The PN532 13.56 MHz (ISO 14443A) reader over HSU, its UART mode: 115200 baud, 8N1.

Every exchange is a command from the host, an ACK from the PN532, then its response:

    host:   00  00 FF  LEN LCS  D4 CMD DATA...  DCS  00
    PN532:  00  00 FF  00 FF  00                         ACK
            00  00 FF  LEN LCS  D5 CMD+1 DATA... DCS 00  the response

LEN counts TFI (D4/D5), the command and its data; LEN + LCS = 0 and TFI + CMD + DATA + DCS
= 0, modulo 256. 00 00 FF FF 00 00 is a NACK ("send that again"), 00 00 FF 01 FF 7F 81 00
an error frame, and 00 00 FF FF FF LENM LENL LCS ... an extended frame for longer data.

After the port opens, the PN532 is woken (a long preamble, 0x55 0x55 then zeros), told
SAMConfiguration (normal mode), and told to give up on an empty field after a few tries
(RFConfiguration MaxRetries; by default it waits for a card for ever). Then it is polled
with InListPassiveTarget (1 target, 106 kbps type A) every `poll_interval_ns`; an answer
naming a target is a TagSeen with the NFCID1 (4, 7 or 10 bytes) in upper-case hex, and an
answer with no target a NoTag.

    pn = Pn532()
    pn.connected(t_ns)     # -> wake-up + SAMConfiguration
    pn.receive(data, t_ns) # -> [TagSeen("04A224B2C12A81", t_ns)], [NoTag(t_ns)], ...
    pn.due(t_ns)           # -> the next poll, a resend, or b""
"""

from __future__ import annotations

from companion.devices.cardreader.events import BadFrame, NoTag, Observation, TagSeen

HOST_TFI = 0xD4
DEVICE_TFI = 0xD5
ERROR_TFI = 0x7F

SAM_CONFIGURATION = 0x14
RF_CONFIGURATION = 0x32
IN_LIST_PASSIVE_TARGET = 0x4A

START = b"\x00\xff"
ACK = b"\x00\x00\xff\x00\xff\x00"
NACK = b"\x00\x00\xff\xff\x00\x00"
WAKEUP = b"\x55\x55" + bytes(14)
"""The HSU wake-up: the PN532 sleeps after power-on until it sees a long preamble."""

MAX_EXTENDED_LEN = 300
"""The PN532 never sends more than 264 bytes of data; a longer extended LEN is noise."""

SAM_NORMAL = bytes([SAM_CONFIGURATION, 0x01, 0x14, 0x01])
"""SAMConfiguration: normal mode (no SAM), timeout 0x14 × 50 ms, use the IRQ pin."""
MAX_RETRIES = bytes([RF_CONFIGURATION, 0x05, 0xFF, 0x01, 0x02])
"""RFConfiguration item 5: MxRtyATR 0xFF, MxRtyPSL 1, MxRtyPassiveActivation 2, so that an
InListPassiveTarget on an empty field answers "no target" instead of waiting for ever."""
POLL = bytes([IN_LIST_PASSIVE_TARGET, 0x01, 0x00])
"""InListPassiveTarget: MaxTg 1, BrTy 0 (106 kbps type A)."""

DEFAULT_TIMEOUT_NS = 100_000_000
DEFAULT_POLL_INTERVAL_NS = 50_000_000


def frame(payload: bytes, tfi: int = HOST_TFI) -> bytes:
    """A normal information frame around `payload` (the command code and its data)."""
    body = bytes([tfi]) + payload
    if len(body) > 255:
        raise ValueError("a normal frame carries at most 254 bytes of payload")
    length = len(body)
    return (
        b"\x00\x00\xff"
        + bytes([length, (-length) & 0xFF])
        + body
        + bytes([(-sum(body)) & 0xFF, 0x00])
    )


def extended_frame(payload: bytes, tfi: int = HOST_TFI) -> bytes:
    """An extended information frame (LEN on two bytes) around `payload`."""
    body = bytes([tfi]) + payload
    high, low = divmod(len(body), 256)
    return (
        b"\x00\x00\xff\xff\xff"
        + bytes([high, low, (-(high + low)) & 0xFF])
        + body
        + bytes([(-sum(body)) & 0xFF, 0x00])
    )


def target_response(uid: bytes | None) -> bytes:
    """The PN532's InListPassiveTarget response: no target, or one with NFCID1 `uid`."""
    if uid is None:
        return frame(bytes([IN_LIST_PASSIVE_TARGET + 1, 0x00]), DEVICE_TFI)
    if len(uid) not in (4, 7, 10):
        raise ValueError("an ISO 14443A UID has 4, 7 or 10 bytes")
    sens_res = {4: b"\x00\x04", 7: b"\x00\x44", 10: b"\x00\x84"}[len(uid)]
    sel_res = 0x08 if len(uid) == 4 else 0x00
    target = bytes([0x01]) + sens_res + bytes([sel_res, len(uid)]) + uid
    return frame(bytes([IN_LIST_PASSIVE_TARGET + 1, 0x01]) + target, DEVICE_TFI)


class Pn532:
    """The sans-I/O PN532 protocol (see companion/devices/cardreader/protocol.py).

    One command is in flight at a time. It is sent again when the PN532 answers NACK, when
    its answer fails a checksum, or when nothing answers within `timeout_ns` (then an ACK
    goes first: it tells the PN532 to abandon whatever it was doing). Until SAMConfiguration
    has been answered, what is sent again is the wake-up and SAMConfiguration.
    """

    name = "pn532"
    baudrate = 115200

    def __init__(
        self,
        *,
        timeout_ns: int = DEFAULT_TIMEOUT_NS,
        poll_interval_ns: int = DEFAULT_POLL_INTERVAL_NS,
    ) -> None:
        if timeout_ns <= 0 or poll_interval_ns <= 0:
            raise ValueError("the PN532 timeout and poll interval must be more than 0")
        self.timeout_ns = timeout_ns
        self.poll_interval_ns = poll_interval_ns
        self._buffer = bytearray()
        self._setup: list[bytes] = []
        """Commands still to send before polling (each payload: code + data)."""
        self._pending: bytes | None = None
        self._sent_at = 0
        self._polled_at: int | None = None
        self._resend = False
        self._stalled_at: int | None = None
        self._sam_acked = False
        self.resends = 0
        """How many commands were sent again (after a NACK, a bad answer or a timeout)."""

    # ---- the ReaderProtocol ---------------------------------------------------------------

    def connected(self, t_ns: int) -> bytes:
        self._buffer.clear()
        self._stalled_at = None
        self._setup = [MAX_RETRIES]
        self._sam_acked = False
        self._polled_at = None
        return self._send(SAM_NORMAL, t_ns)

    def due(self, t_ns: int) -> bytes:
        if self._pending is not None:
            timed_out = t_ns - self._sent_at >= self.timeout_ns
            if not (timed_out or self._resend):
                return b""
            self.resends += 1
            if timed_out and self._pending != SAM_NORMAL:
                # An ACK from the host tells the PN532 to abandon the command it is on.
                return ACK + self._send(self._pending, t_ns)
            return self._send(self._pending, t_ns)
        if self._setup:
            return self._send(self._setup.pop(0), t_ns)
        if self._polled_at is None or t_ns - self._polled_at >= self.poll_interval_ns:
            self._polled_at = t_ns
            return self._send(POLL, t_ns)
        return b""

    def receive(self, data: bytes, t_ns: int) -> list[Observation]:
        buffer = self._buffer
        buffer += data
        observations: list[Observation] = []
        if self._stalled_at is not None and t_ns - self._stalled_at >= self.timeout_ns:
            # A header (perhaps noise) promised more bytes than ever came: give up on it, so
            # that real frames caught in what it claimed are found after all.
            self._stalled_at = None
            start = buffer.find(START)
            if start >= 0:
                del buffer[: start + 2]
        start = 0
        while True:
            start = buffer.find(START, start)
            if start < 0:
                # Keep a trailing 0x00: it may be the first half of a start code.
                del buffer[: max(0, len(buffer) - 1)]
                self._stalled_at = None
                return observations
            end = self._parse_at(start, t_ns, observations)
            if end is None:
                del buffer[:start]  # incomplete: wait for the rest
                if self._stalled_at is None:
                    self._stalled_at = t_ns
                return observations
            self._stalled_at = None
            start = end

    def identified(self) -> bool:
        """True once the PN532 has acknowledged SAMConfiguration (for `reader detect`)."""
        return self._sam_acked

    # ---- internals --------------------------------------------------------------------------

    def _send(self, payload: bytes, t_ns: int) -> bytes:
        self._pending = payload
        self._sent_at = t_ns
        self._resend = False
        if payload == SAM_NORMAL:
            return WAKEUP + frame(payload)  # a PN532 that is asleep must be woken first
        return frame(payload)

    def _parse_at(self, start: int, t_ns: int, observations: list[Observation]) -> int | None:
        """Parses the frame whose start code 00 FF is at `start`: where scanning goes on, or
        None when the frame is not complete yet. Observations are appended."""
        buffer = self._buffer
        header = buffer[start + 2 : start + 4]
        if len(header) < 2:
            return None
        length, lcs = header
        if length == 0x00 and lcs == 0xFF:
            self._acknowledged()
            return start + 4
        if length == 0xFF and lcs == 0x00:
            self._nack()
            return start + 4
        if length == 0xFF and lcs == 0xFF:
            extended = buffer[start + 4 : start + 7]
            if len(extended) < 3:
                return None
            high, low, elcs = extended
            if (high + low + elcs) & 0xFF:
                return self._bad("pn532: extended length checksum", start, t_ns, observations)
            length = high * 256 + low
            if length == 0 or length > MAX_EXTENDED_LEN:
                return self._bad("pn532: extended length out of range", start, t_ns, observations)
            body_at = start + 7
        else:
            if (length + lcs) & 0xFF:
                return self._bad("pn532: length checksum", start, t_ns, observations)
            if length == 0:
                return self._bad("pn532: empty frame", start, t_ns, observations)
            body_at = start + 4
        if len(buffer) < body_at + length + 1:
            return None
        body = bytes(buffer[body_at : body_at + length])
        if (sum(body) + buffer[body_at + length]) & 0xFF:
            return self._bad("pn532: data checksum", start, t_ns, observations)
        self._frame(body, start, t_ns, observations)
        return body_at + length + 1

    def _bad(self, reason: str, start: int, t_ns: int, observations: list[Observation]) -> int:
        observations.append(BadFrame(reason, t_ns))
        if self._pending is not None:
            self._resend = True
        return start + 2  # what seemed a frame may hide a real one: look again inside it

    def _frame(self, body: bytes, start: int, t_ns: int, observations: list[Observation]) -> None:
        tfi = body[0]
        if tfi == ERROR_TFI:
            # The PN532 could not understand the command (an application-level error).
            if self._pending is not None:
                self._resend = True
            return
        if tfi == HOST_TFI:
            return  # our own command, echoed (a loopback): not an answer
        if tfi != DEVICE_TFI or len(body) < 2:
            observations.append(BadFrame("pn532: not a PN532 response", t_ns))
            return
        code, data = body[1], body[2:]
        if self._pending is not None and code == self._pending[0] + 1:
            self._pending = None
            self._resend = False
        if code == SAM_CONFIGURATION + 1:
            self._sam_acked = True
        elif code == IN_LIST_PASSIVE_TARGET + 1:
            observations.append(_targets(data, t_ns))

    def _acknowledged(self) -> None:
        if self._pending == SAM_NORMAL:
            self._sam_acked = True

    def _nack(self) -> None:
        if self._pending is not None:
            self._resend = True

    def __repr__(self) -> str:
        return f"Pn532(timeout_ns={self.timeout_ns}, poll_interval_ns={self.poll_interval_ns})"


def _targets(data: bytes, t_ns: int) -> Observation:
    """An InListPassiveTarget response's data: NbTg, then Tg, SENS_RES (2), SEL_RES,
    NFCIDLength, NFCID1 (and an ATS for ISO 14443-4 cards, which is not needed here)."""
    if not data:
        return BadFrame("pn532: empty InListPassiveTarget response", t_ns)
    if data[0] == 0:
        return NoTag(t_ns)
    if data[0] != 1:
        return BadFrame("pn532: more than the 1 target asked for", t_ns)
    if len(data) < 6:
        return BadFrame("pn532: short target data", t_ns)
    uid_length = data[5]
    uid = data[6 : 6 + uid_length]
    if uid_length not in (4, 7, 10) or len(uid) != uid_length:
        return BadFrame("pn532: bad NFCID1 length", t_ns)
    # SENS_RES (ATQA) says how long the UID is: bits 7-6 of its second byte, 0 single
    # (4 bytes), 1 double (7), 2 triple (10). A length that disagrees is not to be believed.
    if _UID_SIZES.get(data[3] >> 6) != uid_length:
        return BadFrame("pn532: NFCID1 length does not match SENS_RES", t_ns)
    rest = data[6 + uid_length :]
    if rest and rest[0] != len(rest):  # what follows can only be an ATS, its length first
        return BadFrame("pn532: target data longer than its UID and ATS", t_ns)
    return TagSeen(uid.hex().upper(), t_ns)


_UID_SIZES = {0: 4, 1: 7, 2: 10}
