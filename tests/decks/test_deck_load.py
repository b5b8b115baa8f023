from __future__ import annotations

from pathlib import Path

import pytest

from companion.decks import DeckError, bundled_decks, deck_path, find_deck, load_deck
from companion.errors import UserError

from .helpers import LEVELS, QUADRANTS, deck_data, write_deck


def test_a_full_deck_loads(deck_file: Path) -> None:
    deck = load_deck(deck_file)
    assert (deck.id, deck.title, deck.author, deck.version) == (
        "test-deck",
        "Test Deck",
        "The Test Suite",
        "1.0",
    )
    assert deck.language == "en"
    assert deck.quadrants == tuple(QUADRANTS)
    assert deck.levels == tuple(LEVELS)
    assert len(deck.prompts) == 4
    assert deck.description.startswith("A deck for tests.")
    assert deck.source == deck_file
    assert len(deck.cards) == 100
    assert deck.depth == 5
    assert [c.number for c in deck.cards] == list(range(1, 101))
    card = deck.cards[0]
    assert card.facts == (
        "Fact 2 of card 1",
        "Fact 3 of card 1",
        "Fact 4 of card 1",
        "Fact 5 of card 1",
    )
    assert card.rfid == ("00000001",)
    assert card.image is None


@pytest.mark.parametrize("quadrants", [(1,), (3,), (1, 4), (2, 3, 4)])
def test_partial_decks_of_whole_quadrants_load(tmp_path: Path, quadrants: tuple[int, ...]) -> None:
    deck = load_deck(write_deck(tmp_path, deck_data(quadrants=quadrants)))
    assert len(deck.cards) == 25 * len(quadrants)
    counts = deck.places_per_quadrant()
    assert [q for q in (1, 2, 3, 4) if counts[q - 1] == 25] == list(quadrants)


def test_optional_fields_may_be_left_out(tmp_path: Path) -> None:
    data = deck_data()
    for key in ("levels", "prompts", "description"):
        del data["deck"][key]
    for card in data["cards"]:
        del card["rfid"]
    data["deck"]["language"] = "pt-BR"
    deck = load_deck(write_deck(tmp_path, data))
    assert (deck.levels, deck.prompts, deck.description) == ((), (), "")
    assert deck.language == "pt-BR"
    assert all(card.rfid == () for card in deck.cards)


def test_whole_floats_count_as_integers(tmp_path: Path) -> None:
    data = deck_data()
    data["cards"][0]["points"] = 2.0
    deck = load_deck(write_deck(tmp_path, data))
    card = deck.card(1)
    assert card is not None
    assert card.points == 2
    assert isinstance(card.points, int)


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = write_deck(tmp_path, deck_data())
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert len(load_deck(path).cards) == 100


def test_load_reports_the_first_problem_and_a_count(tmp_path: Path) -> None:
    data = deck_data()
    data["cards"][0]["points"] = -1
    data["cards"][1]["points"] = -2
    path = write_deck(tmp_path, data)
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    assert isinstance(caught.value, UserError)
    message = str(caught.value)
    assert "cards[0].points: -1 is less than the minimum of 0" in message
    assert "(and 1 more; run `companion deck validate" in message
    assert "\n" not in message


def test_load_of_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="no such file"):
        load_deck(tmp_path / "nope.toml")


def test_bundled_decks_are_the_toml_files_in_the_data_directory(bundled_dir: Path) -> None:
    assert bundled_decks() == {}
    write_deck(bundled_dir, deck_data(), name="test-deck.toml")
    (bundled_dir / "notes.txt").write_text("not a deck")
    assert bundled_decks() == {"test-deck": bundled_dir / "test-deck.toml"}


def test_find_deck_by_id_or_path(bundled_dir: Path, tmp_path: Path) -> None:
    write_deck(bundled_dir, deck_data(), name="test-deck.toml")
    assert find_deck("test-deck").source == bundled_dir / "test-deck.toml"
    elsewhere = write_deck(tmp_path, deck_data(quadrants=(1,)), name="mine.toml")
    assert len(find_deck(elsewhere).cards) == 25
    assert len(find_deck(str(elsewhere)).cards) == 25


def test_an_unknown_deck_lists_the_bundled_ones(bundled_dir: Path) -> None:
    write_deck(bundled_dir, deck_data(), name="test-deck.toml")
    write_deck(bundled_dir, deck_data(), name="other-deck.toml")
    with pytest.raises(DeckError) as caught:
        find_deck("no-such-deck")
    assert str(caught.value) == (
        "unknown deck 'no-such-deck': no such file and no bundled deck by that id "
        "(bundled decks: other-deck, test-deck)"
    )


def test_an_unknown_deck_with_nothing_bundled(bundled_dir: Path) -> None:
    with pytest.raises(DeckError, match=r"\(bundled decks: none\)"):
        deck_path("missing")
