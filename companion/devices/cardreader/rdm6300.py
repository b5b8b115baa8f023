"""The RDM6300 125 kHz (EM4100) reader: it talks only, 9600 baud, 8N1.

While a card lies on the antenna the module repeats one 14-byte frame:

    0x02  D D D D D D D D D D  C C  0x03
    STX   10 ASCII hex data    ASCII hex checksum: the XOR of the 5 data bytes   ETX

The tag is the 10 data characters, upper-case ("0A1B2C3D4E"). A frame must pass every
check (length, hex characters, checksum, the closing 0x03) before it counts at all.

Those checks are not enough: the checksum is one XOR byte, so two flipped bits in the same
column of two data bytes leave it right, and a crafted (or unlucky) frame names a card two
bits away from the real one. So a tag is seen only when **two identical valid frames come
one after the other**, the second within `confirm_window_ns` of the first. The module
repeats its frame while the card lies on it, so this costs one repeat of latency. A valid
frame that differs from the one before is only a candidate (counted in `unconfirmed` if
nothing confirms it). A confirmed card is seen twice at once: dated to the first of its
two frames (when it came), then to the second (so that it is fresh however late the
repeat was read).

    rdm = Rdm6300()
    rdm.receive(FRAME, t1)   # -> []: a candidate
    rdm.receive(FRAME, t2)   # -> [TagSeen(tag, t1), TagSeen(tag, t2)]: confirmed
    rdm.receive(FRAME, t3)   # -> [TagSeen("0A1B2C3D4E", t3)]: every repeat after that
"""

from __future__ import annotations

from companion.devices.cardreader.events import BadFrame, Observation, TagSeen

STX = 0x02
ETX = 0x03
FRAME_LEN = 14
"""STX, 10 data characters, 2 checksum characters, ETX."""
CONFIRM_WINDOW_NS = 1_000_000_000
"""The longest gap between a frame and the repeat that confirms it. A module repeats every
few tens of milliseconds; a longer gap (the reader thread held up) only costs a repeat."""
_HEX = b"0123456789ABCDEFabcdef"


def checksum(data: bytes) -> int:
    """The XOR of the data bytes."""
    result = 0
    for byte in data:
        result ^= byte
    return result


def encode_frame(tag: str) -> bytes:
    """The frame an RDM6300 sends for `tag` (10 hex digits): what the emulator writes."""
    data = bytes.fromhex(tag)
    if len(data) != 5 or len(tag) != 10:
        raise ValueError(f"an EM4100 tag is 10 hex digits, got {tag!r}")
    return bytes([STX]) + tag.upper().encode() + b"%02X" % checksum(data) + bytes([ETX])


class Rdm6300:
    """The sans-I/O parser of RDM6300 frames (see companion/devices/cardreader/protocol.py).

    Bytes before a 0x02 are skipped silently: the module sends nothing else, so they are
    line noise or the tail of a frame cut short. A frame that starts with 0x02 but fails a
    check is a BadFrame, and scanning resumes just after its 0x02, so a good frame that
    began inside a broken one is still found.
    """

    name = "rdm6300"
    baudrate = 9600

    def __init__(self, *, confirm_window_ns: int = CONFIRM_WINDOW_NS) -> None:
        if confirm_window_ns <= 0:
            raise ValueError("the window for a confirming repeat must be more than 0")
        self.confirm_window_ns = confirm_window_ns
        self._buffer = bytearray()
        self._identified = False
        self._last: tuple[str, int] | None = None
        """The last valid frame's tag and arrival."""
        self._confirmed = False
        """Whether that tag has been confirmed by a repeat (and is being refreshed)."""
        self._first_ns = 0
        """When the last tag's run of identical frames began: a confirmed card's date."""
        self.unconfirmed = 0
        """Valid frames never followed by an identical one in time: not cards."""

    def connected(self, t_ns: int) -> bytes:
        self._buffer.clear()
        self._settle()
        return b""

    def due(self, t_ns: int) -> bytes:
        return b""

    def identified(self) -> bool:
        """True once a valid frame has arrived (for `companion reader detect`)."""
        return self._identified

    def receive(self, data: bytes, t_ns: int) -> list[Observation]:
        buffer = self._buffer
        buffer += data
        observations: list[Observation] = []
        start = 0
        while True:
            start = buffer.find(STX, start)
            if start < 0:
                buffer.clear()  # no frame begins here: garbage, skipped silently
                return observations
            frame = bytes(buffer[start : start + FRAME_LEN])
            problem = _check(frame)
            if problem is None:
                if len(frame) < FRAME_LEN:
                    del buffer[:start]  # a good beginning: wait for the rest
                    return observations
                observations += self._confirm(frame[1:11].decode("ascii").upper(), t_ns)
                self._identified = True
                start += FRAME_LEN
            else:
                observations.append(BadFrame(problem, t_ns))
                start += 1

    def _confirm(self, tag: str, t_ns: int) -> list[TagSeen]:
        """A valid frame naming `tag`: seen once an identical frame came just before it."""
        last = self._last
        if last is not None and last[0] == tag and t_ns - last[1] <= self.confirm_window_ns:
            self._last = (tag, t_ns)
            if self._confirmed or self._first_ns == t_ns:
                self._confirmed = True
                return [TagSeen(tag, t_ns)]
            self._confirmed = True
            return [TagSeen(tag, self._first_ns), TagSeen(tag, t_ns)]
        self._settle()
        self._last = (tag, t_ns)
        self._first_ns = t_ns
        return []

    def _settle(self) -> None:
        """The run of identical frames ends: a lone frame in it is counted, and forgotten."""
        if self._last is not None and not self._confirmed:
            self.unconfirmed += 1
        self._last = None
        self._confirmed = False

    def __repr__(self) -> str:
        return "Rdm6300()"


def _check(frame: bytes) -> str | None:
    """Why `frame` (starting with STX, perhaps incomplete) is not a good frame, or None."""
    body = frame[1:13]
    if len(frame) == FRAME_LEN and frame[13] == ETX and not body.translate(None, _HEX):
        data = bytes.fromhex(body[:10].decode("ascii"))
        if checksum(data) == int(body[10:12], 16):
            return None
        return "rdm6300: wrong checksum"
    for byte in body:
        if byte in (STX, ETX):
            return "rdm6300: frame too short"
        if byte not in _HEX:
            return "rdm6300: not a hex character"
    if len(frame) < FRAME_LEN:
        return None
    return "rdm6300: no 0x03 at the end of the frame"
