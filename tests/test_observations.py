"""Scanned cards are checked against the deck and the rules; nothing is accepted silently."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.devices.cardreader.events import CardPresented
from companion.games.memwars import actions as A
from companion.session import Referee
from companion.store import Store
from companion.table.observations import ScanDesk, ScanOutcome, ScanVerdict

TAGS = {f"{n:010X}": ("plain", n) for n in range(1, 101)}
TAGS["AAAAAAAAAA"] = ("other", 5)


def lookup(tag: str) -> tuple[str, int] | None:
    return TAGS.get(tag)


def scan(card: int) -> CardPresented:
    return CardPresented(f"{card:010X}", 0, "rdm6300")


@pytest.fixture()
def desk(tmp_path: Path) -> Iterator[ScanDesk]:
    store = Store.open(tmp_path / "games.sqlite3")
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
    yield ScanDesk(referee, "plain", lookup)
    store.close()


def test_the_presented_card_is_expected(desk: ScanDesk) -> None:
    verdict = desk.scanned(scan(1))
    assert verdict.accepted and verdict.card == 1 and verdict.outcome is ScanOutcome.EXPECTED


def test_another_card_of_the_deck_is_reported(desk: ScanDesk) -> None:
    verdict = desk.scanned(scan(7))
    assert verdict.outcome is ScanOutcome.NOT_EXPECTED and not verdict.accepted
    assert verdict.message == "card 7 is not the card the rules expect now (card 1)"


def test_unknown_tags_and_other_decks(desk: ScanDesk) -> None:
    unknown = desk.scanned(CardPresented("0102030405", 0, "rdm6300"))
    assert unknown.outcome is ScanOutcome.UNKNOWN_TAG and "enroll" in unknown.message
    other = desk.scanned(CardPresented("AAAAAAAAAA", 0, "rdm6300"))
    assert other.outcome is ScanOutcome.OTHER_DECK and "deck other" in other.message


def test_when_no_card_is_expected(tmp_path: Path) -> None:
    with Store.open(tmp_path / "games.sqlite3") as store:
        setup = {
            "sides": [{"name": "Ada"}, {"name": "Bo"}],
            "quadrants": [1],
            "first_player": 0,
            "north": "top",
            "depth": 1,
            "seed": 1,
        }
        referee = Referee.start(store, "memwars", setup, {"id": "plain"})
        desk = ScanDesk(referee, "plain", lookup)
        assert desk.scanned(scan(3)).outcome is ScanOutcome.NOT_NOW
        referee.submit(A.Claim(0, 3))
        referee.submit(A.Challenge(1))
        referee.submit(A.Contest(0))
        referee.submit(A.Maintain(1))
        assert desk.scanned(scan(3)).accepted  # the card of the challenged place is checked


def test_listeners_hear_and_logs_keep_cards_private(
    desk: ScanDesk, caplog: pytest.LogCaptureFixture
) -> None:
    heard: list[ScanVerdict] = []
    desk.subscribe(heard.append)
    with caplog.at_level(logging.INFO, logger="companion.table.observations"):
        desk.scanned(scan(1))
    assert [v.card for v in heard] == [1]
    assert "0000000001" not in caplog.text and "card 1" not in caplog.text
