"""The text of a printed card's QR code, read strictly."""

from __future__ import annotations

import pytest

from companion.decks.model import PLACES
from companion.printing.layout import QR_PREFIX, qr_payload
from vision.card_code import CARD_CODE_PREFIX, CARDS_IN_A_DECK
from vision.cards import CardCode, parse_card_code

DECK = "mythologies-of-earth"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("memdeck:mythologies-of-earth:17", CardCode(DECK, 17)),
        ("memdeck:mythologies-of-earth:1", CardCode(DECK, 1)),
        ("memdeck:mythologies-of-earth:100", CardCode(DECK, 100)),
        ("memdeck:x:3", CardCode("x", 3)),
        ("memdeck:deck2-b:50", CardCode("deck2-b", 50)),
        ("memdeck:mythologies-of-earth:0", None),
        ("memdeck:mythologies-of-earth:101", None),
        ("memdeck:mythologies-of-earth:017", None),
        ("memdeck:mythologies-of-earth:-1", None),
        ("memdeck:mythologies-of-earth:1.0", None),
        ("memdeck:mythologies-of-earth:", None),
        ("memdeck:mythologies-of-earth:١٧", None),  # Arabic-Indic digits
        ("memdeck:Mythologies-of-earth:17", None),
        ("memdeck:mythologies--of-earth:17", None),
        ("memdeck:-mythologies:17", None),
        ("memdeck:mythologies-:17", None),
        ("memdeck:mythologies_of_earth:17", None),
        ("memdeck::17", None),
        ("memdeck:mythologies-of-earth:17:2", None),
        ("MEMDECK:mythologies-of-earth:17", None),
        ("memdecks:mythologies-of-earth:17", None),
        (" memdeck:mythologies-of-earth:17", None),
        ("memdeck:mythologies-of-earth:17\n", None),
        ("memdeck:mythologies-of-earth:" + "9" * 5000, None),
        ("https://example.org/memdeck:x:3", None),
        ("", None),
    ],
)
def test_parsing(text: str, expected: CardCode | None) -> None:
    assert parse_card_code(text) == expected


def test_every_printed_code_reads_back() -> None:
    assert QR_PREFIX == CARD_CODE_PREFIX == "memdeck"
    for number in range(1, 101):
        assert parse_card_code(qr_payload(DECK, number)) == CardCode(DECK, number)


def test_the_tag_of_a_code_is_its_text() -> None:
    assert CardCode(DECK, 17).tag == "memdeck:mythologies-of-earth:17"


def test_the_highest_card_number_is_a_decks_last_place() -> None:
    # vision keeps its own copy, since it never imports companion.
    assert CARDS_IN_A_DECK == PLACES
