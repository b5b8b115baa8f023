"""The RDM6300 125 kHz (EM4100) reader: it talks only, 9600 baud, 8N1.

While a card lies on the antenna the module repeats one 14-byte frame:

    0x02  D D D D D D D D D D  C C  0x03
    STX   10 ASCII hex data    ASCII hex checksum: the XOR of the 5 data bytes   ETX

The tag is the 10 data characters, upper-case ("0A1B2C3D4E"). A frame must pass every
check (length, hex characters, checksum, the closing 0x03) before it names a tag: a single
flipped bit must never read as another card.

    rdm = Rdm6300()
    rdm.receive(b"\\x020A1B2C3D4E4E\\x03", t_ns)   # -> [TagSeen("0A1B2C3D4E", t_ns)]
"""

from __future__ import annotations

from companion.devices.cardreader.events import BadFrame, Observation, TagSeen

STX = 0x02
ETX = 0x03
FRAME_LEN = 14
"""STX, 10 data characters, 2 checksum characters, ETX."""
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

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._identified = False

    def connected(self, t_ns: int) -> bytes:
        self._buffer.clear()
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
                observations.append(TagSeen(frame[1:11].decode("ascii").upper(), t_ns))
                self._identified = True
                start += FRAME_LEN
            else:
                observations.append(BadFrame(problem, t_ns))
                start += 1

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
