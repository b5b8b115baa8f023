"""What a card reader reports, whatever its protocol.

    CardPresented(tag="04A224B2C12A81", t_ns=..., reader="pn532")
    CardRemoved(tag="04A224B2C12A81", t_ns=..., reader="pn532")

A tag id is upper-case hex without separators: 10 digits for an EM4100 (RDM6300), 8, 14
or 20 for ISO 14443A UIDs of 4, 7 or 10 bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class CardPresented:
    tag: str
    t_ns: int
    """When the reader saw the card (the time its frame arrived, or the device's stamp)."""
    reader: str
    kind: Literal["presented"] = "presented"


@dataclass(frozen=True, slots=True)
class CardRemoved:
    tag: str
    t_ns: int
    """When the card was last seen: removal is decided after a silence, but dated back."""
    reader: str
    kind: Literal["removed"] = "removed"


CardEvent = CardPresented | CardRemoved


# ---- what a protocol parser reports (sans-I/O), before presence is decided ----------------


@dataclass(frozen=True, slots=True)
class TagSeen:
    """A complete, checked frame that names a tag."""

    tag: str
    t_ns: int


@dataclass(frozen=True, slots=True)
class NoTag:
    """The reader answered that no tag is in its field (a PN532 poll with no target)."""

    t_ns: int


@dataclass(frozen=True, slots=True)
class BadFrame:
    """Bytes that looked like a frame but failed a check; counted and dropped."""

    reason: str
    t_ns: int


@dataclass(frozen=True, slots=True)
class ButtonSeen:
    """A button edge reported by a reader that carries buttons (the Pico board)."""

    button: int
    pressed: bool
    device_us: int
    """The device's own microsecond timestamp of the edge."""
    t_ns: int


Observation = TagSeen | NoTag | BadFrame | ButtonSeen
