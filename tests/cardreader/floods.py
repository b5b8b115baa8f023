"""Streams of noise and broken frames, and oracles that prove no valid tag frame hides in them.

A reader may report a tag only from a complete frame that passes every check. The oracles
below look at *every* offset of a stream, independently of the parsers, for such a frame;
the generators patch any they find (a corrupted frame can be valid by chance: a letter's
case flipped in an RDM6300 frame, an 8-bit PN532 checksum that happens to match). So when a
reader reports a tag from one of these streams, the reader is wrong.
"""

from __future__ import annotations

import random
import re

from companion.devices.cardreader import pn532
from companion.devices.cardreader.rdm6300 import encode_frame

_HEX = b"0123456789ABCDEFabcdef"
_NOT_HEX = bytes(b for b in range(256) if b not in _HEX and b != 0x02)
_RDM_CANDIDATE = re.compile(rb"(?=\x02([0-9A-Fa-f]{10})([0-9A-Fa-f]{2})\x03)")


def rdm6300_valid_offsets(stream: bytes | bytearray) -> list[int]:
    """Every offset where a valid RDM6300 frame starts."""
    found = []
    for match in _RDM_CANDIDATE.finditer(stream):
        data = bytes.fromhex(match.group(1).decode())
        xor = 0
        for byte in data:
            xor ^= byte
        if xor == int(match.group(2), 16):
            found.append(match.start())
    return found


def rdm6300_noise(rng: random.Random, size: int) -> bytes:
    """Random bytes with no 0x02 in them: no frame can even begin."""
    return rng.randbytes(size).replace(b"\x02", b"\x82")


def _random_tag(rng: random.Random) -> str:
    return rng.randbytes(5).hex().upper()


def rdm6300_broken_frame(rng: random.Random) -> bytes:
    frame = bytearray(encode_frame(_random_tag(rng)))
    kind = rng.randrange(7)
    if kind == 0:  # wrong checksum, still hex
        wrong = int(frame[11:13], 16) ^ rng.randrange(1, 256)
        frame[11:13] = b"%02X" % wrong
    elif kind == 1:  # a character that is not hex
        frame[rng.randrange(1, 13)] = rng.choice(_NOT_HEX)
    elif kind == 2:  # cut short: the next frame starts
        del frame[rng.randrange(1, 14) :]
    elif kind == 3:  # no ETX
        frame[13] = rng.choice([b for b in range(256) if b != 0x03])
    elif kind == 4:  # one character too many
        frame.insert(rng.randrange(1, 13), rng.choice(_HEX))
    elif kind == 5:  # a bit flipped anywhere
        frame[rng.randrange(14)] ^= 1 << rng.randrange(8)
    else:  # two frames interleaved byte by byte
        other = encode_frame(_random_tag(rng))
        frame = bytearray(b for pair in zip(frame, other, strict=True) for b in pair)
    if rng.random() < 0.3:
        frame += rdm6300_noise(rng, rng.randrange(1, 8))
    return bytes(frame)


POOL = 5000
"""Broken frames are drawn from a pool this big: making 10 MB of them one by one is slow."""


def _stream(rng: random.Random, size: int, pool: list[bytes]) -> bytearray:
    mean = sum(map(len, pool)) / len(pool)
    stream = bytearray()
    while len(stream) < size:
        stream += b"".join(rng.choices(pool, k=int((size - len(stream)) / mean) + 1))
    return stream


def rdm6300_broken_stream(rng: random.Random, size: int) -> bytes:
    """Broken RDM6300 frames of every kind, in random order, and no valid one anywhere."""
    stream = _stream(rng, size, [rdm6300_broken_frame(rng) for _ in range(POOL)])
    while offsets := rdm6300_valid_offsets(stream):
        for offset in offsets:
            stream[offset + 13] = 0x04  # the closing 0x03 goes: that frame is broken now
    return bytes(stream)


def pn532_tag_offsets(stream: bytes | bytearray) -> list[tuple[int, int]]:
    """(offset, index of the DCS byte) of every complete, checksum-valid PN532 frame that
    is an InListPassiveTarget response naming at least one target: a possible tag."""
    found = []
    start = stream.find(b"\x00\xff")
    while start >= 0:
        header = stream[start + 2 : start + 7]
        body_at = None
        length = 0
        if len(header) >= 2 and header[0] == 0xFF and header[1] == 0xFF:
            if len(header) == 5 and (header[2] + header[3] + header[4]) & 0xFF == 0:
                length = header[2] * 256 + header[3]
                body_at = start + 7
        elif len(header) >= 2 and (header[0] + header[1]) & 0xFF == 0:
            length = header[0]
            body_at = start + 4
        if body_at is not None and length >= 3 and body_at + length < len(stream):
            body = stream[body_at : body_at + length]
            if (
                (sum(body) + stream[body_at + length]) & 0xFF == 0
                and body[0] == 0xD5
                and body[1] == 0x4B
                and body[2] != 0
            ):
                found.append((start, body_at + length))
        start = stream.find(b"\x00\xff", start + 1)
    return found


def _clean_pn532(stream: bytearray) -> bytes:
    while offsets := pn532_tag_offsets(stream):
        for _, dcs_at in offsets:
            stream[dcs_at] ^= 0x01
    return bytes(stream)


def pn532_noise(rng: random.Random, size: int) -> bytes:
    return _clean_pn532(bytearray(rng.randbytes(size)))


def _random_uid(rng: random.Random) -> bytes:
    return rng.randbytes(rng.choice((4, 7, 10)))


def pn532_broken_frame(rng: random.Random) -> bytes:
    frame = bytearray(pn532.target_response(_random_uid(rng)))
    kind = rng.randrange(8)
    if kind == 0:  # wrong length checksum
        frame[4] ^= rng.randrange(1, 256)
    elif kind == 1:  # wrong data checksum
        frame[-2] ^= rng.randrange(1, 256)
    elif kind == 2:  # cut short
        del frame[rng.randrange(1, len(frame) - 1) :]
    elif kind == 3:  # a bit flipped anywhere
        frame[rng.randrange(len(frame))] ^= 1 << rng.randrange(8)
    elif kind == 4:  # two responses interleaved byte by byte
        other = pn532.target_response(_random_uid(rng))
        frame = bytearray(b for pair in zip(frame, other, strict=False) for b in pair)
    elif kind == 5:  # a well-made frame with an impossible UID length
        uid = rng.randbytes(rng.choice((1, 3, 5, 8, 11)))
        body = bytes([0x4B, 0x01, 0x01, 0x00, 0x04, 0x08, len(uid)]) + uid
        frame = bytearray(pn532.frame(body, pn532.DEVICE_TFI))
    elif kind == 6:  # what a PN532 may well send: ACKs, NACKs, "no target"
        frame = bytearray(rng.choice([pn532.ACK, pn532.NACK, pn532.target_response(None)]))
    else:  # an extended frame with a broken length checksum
        body = pn532.extended_frame(b"\x4b\x00", pn532.DEVICE_TFI)
        frame = bytearray(body)
        frame[7] ^= rng.randrange(1, 256)
    if rng.random() < 0.3:
        frame += rng.randbytes(rng.randrange(1, 8))
    return bytes(frame)


def pn532_broken_stream(rng: random.Random, size: int) -> bytes:
    """Broken PN532 responses of every kind (and some harmless frames), in random order,
    and no valid response naming a target anywhere."""
    return _clean_pn532(_stream(rng, size, [pn532_broken_frame(rng) for _ in range(POOL)]))
