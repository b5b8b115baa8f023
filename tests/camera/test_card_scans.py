"""A card read by the camera is checked like an RFID scan, with no tag map at all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.devices.cardreader.events import CardPresented
from companion.games.contract import Expectation
from companion.session import Referee
from companion.store import Store
from companion.table.observations import CardScanned, ScanDesk, ScanOutcome, check_scan


def no_tag_map(tag: str) -> tuple[str, int] | None:
    return None


def seen(tag: str) -> CardPresented:
    return CardPresented(tag, 5, "camera")


@pytest.fixture()
def desk(tmp_path: Path) -> Iterator[ScanDesk]:
    with Store.open(tmp_path / "games.sqlite3") as store:
        setup = {
            "sides": [{"name": "Ada"}, {"name": "Bo"}],
            "mode": "basic",
            "quadrants": [1],
            "first_player": 0,
            "north": "top",
            "depth": 1,
            "seed": 1,
        }
        referee = Referee.start(store, "memwars", setup, {"id": "plain"})
        yield ScanDesk(referee, "plain", no_tag_map)


def test_the_expected_card_by_its_code(desk: ScanDesk) -> None:
    verdict = desk.scanned(seen("memdeck:plain:1"))
    assert verdict.accepted
    assert (verdict.deck, verdict.card, verdict.scan.reader) == ("plain", 1, "camera")


def test_another_card_of_the_deck_by_its_code(desk: ScanDesk) -> None:
    verdict = desk.scanned(seen("memdeck:plain:7"))
    assert verdict.outcome is ScanOutcome.NOT_EXPECTED
    assert verdict.message == "card 7 is not the card the rules expect now (card 1)"


def test_a_card_of_another_deck_by_its_code(desk: ScanDesk) -> None:
    verdict = desk.scanned(seen("memdeck:other-deck:1"))
    assert verdict.outcome is ScanOutcome.OTHER_DECK
    assert verdict.message == "that is card 1 of deck other-deck, not a card of plain"


def test_a_code_that_is_not_a_cards_is_an_unknown_tag(desk: ScanDesk) -> None:
    for tag in ("memdeck:plain:0", "memdeck:plain:101", "memdeck:Plain:1", "https://x.org"):
        assert desk.scanned(seen(tag)).outcome is ScanOutcome.UNKNOWN_TAG


def test_a_code_needs_no_lookup_and_overrides_none() -> None:
    # Whatever a tag map says, a code names its own card; other tags still go to the map.
    def lookup(tag: str) -> tuple[str, int] | None:
        return ("plain", 9)

    expectation = Expectation(-1, ("answer",), cards=(3,))
    by_code = check_scan(CardScanned("memdeck:plain:3", 0, "camera"), "plain", lookup, expectation)
    by_map = check_scan(CardScanned("0A1B2C3D4E", 0, "rdm6300"), "plain", lookup, expectation)
    assert (by_code.outcome, by_code.card) == (ScanOutcome.EXPECTED, 3)
    assert (by_map.outcome, by_map.card) == (ScanOutcome.NOT_EXPECTED, 9)
