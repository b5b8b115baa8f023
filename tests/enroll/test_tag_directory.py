"""One directory of tags over several decks, for checking scanned cards."""

from __future__ import annotations

from pathlib import Path

from companion.decks import load_deck
from companion.decks.tagmap import TagDirectory, save_tag_map
from companion.games.contract import Expectation
from companion.table.observations import CardScanned, ScanOutcome, check_scan
from tests.decks.helpers import write_deck

from .helpers import em, untagged_data


def two_decks(tmp_path: Path) -> TagDirectory:
    ours_data = untagged_data()
    theirs_data = untagged_data()
    theirs_data["deck"]["id"] = "their-deck"
    ours = load_deck(write_deck(tmp_path, ours_data, "ours.toml"))
    theirs = load_deck(write_deck(tmp_path, theirs_data, "theirs.toml"))
    save_tag_map(ours, {em(3): 3, em(4): 4})
    save_tag_map(theirs, {em(50): 5, em(4): 9})
    return TagDirectory([ours, theirs])


def test_lookup_over_decks(tmp_path: Path) -> None:
    directory = two_decks(tmp_path)
    assert directory.lookup(em(3)) == ("test-deck", 3)
    assert directory.lookup(em(50).lower()) == ("their-deck", 5)
    assert directory.lookup(em(4)) == ("test-deck", 4)  # the game's own deck comes first
    assert directory.lookup(em(99)) is None


def test_scans_checked_through_the_directory(tmp_path: Path) -> None:
    directory = two_decks(tmp_path)
    expectation = Expectation(-1, ("answer",), cards=(3,))
    verdicts = [
        check_scan(CardScanned(tag, 0, "rdm6300"), "test-deck", directory.lookup, expectation)
        for tag in (em(3), em(50), em(99))
    ]
    assert [v.outcome for v in verdicts] == [
        ScanOutcome.EXPECTED,
        ScanOutcome.OTHER_DECK,
        ScanOutcome.UNKNOWN_TAG,
    ]
