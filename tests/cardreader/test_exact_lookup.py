"""A tag the enrolled deck does not know is unknown: never matched to a near neighbour.

An RDM6300 frame two bits off a real tag keeps its checksum; if one got through twice, the
card it names must still be looked up exactly, and a tag one or two bits from an enrolled
one (or differing only in case or separators, which are not bits) is no card of the deck.
"""

from __future__ import annotations

from pathlib import Path

from companion.decks import load_deck
from companion.decks.tagmap import TagDirectory, save_tag_map
from companion.devices.cardreader.events import TagSeen
from companion.devices.cardreader.rdm6300 import Rdm6300, checksum, encode_frame
from companion.games.contract import Expectation
from companion.table.observations import CardScanned, ScanOutcome, check_scan
from tests.decks.helpers import write_deck
from tests.enroll.helpers import untagged_data

ENROLLED = {"0A1B2C3D4E": 1, "1122334455": 2, "04A224B2C12A81": 3}


def neighbours(tag: str) -> set[str]:
    """Every tag one or two bits away from `tag`."""
    value, bits = int(tag, 16), len(tag) * 4
    near = set()
    for first in range(bits):
        near.add(value ^ (1 << first))
        for second in range(first + 1, bits):
            near.add(value ^ (1 << first) ^ (1 << second))
    return {f"{n:0{len(tag)}X}" for n in near}


def directory(tmp_path: Path) -> TagDirectory:
    deck = load_deck(write_deck(tmp_path, untagged_data(), "ours.toml"))
    save_tag_map(deck, ENROLLED)
    return TagDirectory([deck])


def test_only_the_enrolled_tag_itself_names_its_card(tmp_path: Path) -> None:
    tags = directory(tmp_path)
    for tag, card in ENROLLED.items():
        assert tags.lookup(tag) == ("test-deck", card)
        assert tags.lookup(tag.lower()) == ("test-deck", card)  # case is not a bit
        near = neighbours(tag) - set(ENROLLED)
        assert len(near) > 700
        assert [n for n in near if tags.lookup(n) is not None] == []


def test_a_confirmed_frame_two_bits_off_is_an_unknown_tag(tmp_path: Path) -> None:
    tags = directory(tmp_path)
    expectation = Expectation(-1, ("answer",), cards=(1, 2))
    real = "0A1B2C3D4E"
    twin = f"{int(real, 16) ^ (1 << 3) ^ (1 << 11):010X}"  # bit 3 of two bytes
    assert checksum(bytes.fromhex(twin)) == checksum(bytes.fromhex(real))
    rdm = Rdm6300()
    seen = rdm.receive(encode_frame(twin) * 2, 0)  # even if it came twice
    assert [s.tag for s in seen if isinstance(s, TagSeen)] == [twin]
    verdict = check_scan(CardScanned(twin, 0, "rdm6300"), "test-deck", tags.lookup, expectation)
    assert verdict.outcome is ScanOutcome.UNKNOWN_TAG
    assert verdict.card is None and not verdict.accepted
