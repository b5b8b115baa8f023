from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from companion.decks import Card, Deck, load_deck, normalise_tag, position

from .helpers import QUADRANTS, deck_data, write_deck


def _card(number: int = 7, place: int = 30, facts: tuple[str, ...] = ("Sky", "Eagle")) -> Card:
    return Card(
        number=number, place=place, name="Zeus", front="King of gods?", points=3, facts=facts
    )


def test_card_levels_start_with_the_name() -> None:
    card = _card()
    assert card.depth == 3
    assert [card.fact(level) for level in (1, 2, 3)] == ["Zeus", "Sky", "Eagle"]


@pytest.mark.parametrize("level", [0, 4, -1])
def test_card_level_out_of_range(level: int) -> None:
    with pytest.raises(ValueError, match=r"levels 1\.\.3"):
        _card().fact(level)


def test_card_quadrant() -> None:
    assert _card(place=30).quadrant == 2


@pytest.mark.parametrize(
    ("place", "expected"),
    [
        (1, (1, 1, 1)),
        (5, (1, 1, 5)),
        (6, (1, 2, 1)),
        (25, (1, 5, 5)),
        (26, (2, 1, 1)),
        (100, (4, 5, 5)),
    ],
)
def test_position_follows_the_macunx_numbering(place: int, expected: tuple[int, int, int]) -> None:
    assert position(place) == expected
    quadrant, quincunx, spot = expected
    assert 25 * (quadrant - 1) + 5 * (quincunx - 1) + spot == place


@pytest.mark.parametrize("place", [0, 101])
def test_position_rejects_places_off_the_board(place: int) -> None:
    with pytest.raises(ValueError):
        position(place)


def test_normalise_tag() -> None:
    assert normalise_tag("04:a2:24 b2-c1") == "04A224B2C1"


def test_lookups(deck_file: Path) -> None:
    deck = load_deck(deck_file)
    first = deck.card(1)
    assert first is not None
    assert first.place == 8
    assert deck.card_at(8) is first
    assert deck.card_for_tag("00000001") is first
    assert deck.card_for_tag("00:00:00:01") is first
    assert deck.card(101) is None
    assert deck.card_at(0) is None
    assert deck.card_for_tag("DEADBEEF") is None


def test_depth_is_what_every_card_has(tmp_path: Path) -> None:
    data = deck_data()
    data["cards"][40]["facts"] = ["only one"]
    data["deck"]["levels"] = ["Name"]
    deck = load_deck(write_deck(tmp_path, data))
    assert deck.depth == 2
    assert deck.max_depth == 5


def test_quadrant_names(deck_file: Path) -> None:
    deck = load_deck(deck_file)
    assert [deck.quadrant_name(q) for q in (1, 2, 3, 4)] == QUADRANTS
    with pytest.raises(ValueError):
        deck.quadrant_name(5)


def test_places_covered(tmp_path: Path) -> None:
    deck = load_deck(write_deck(tmp_path, deck_data(quadrants=(2, 4))))
    assert deck.places_covered == tuple([*range(26, 51), *range(76, 101)])
    assert deck.places_per_quadrant() == (0, 25, 0, 25)


def test_board_map_is_sorted_and_json_safe(deck_file: Path) -> None:
    deck = load_deck(deck_file)
    board = deck.board_map()
    assert len(board) == 100
    assert [row[0] for row in board] == list(range(1, 101))
    assert board[0] == [1, 8, 1]
    assert json.loads(json.dumps(board)) == board
    assert sorted(row[1] for row in board) == list(range(1, 101))


def test_hash_is_of_the_file_bytes(deck_file: Path) -> None:
    deck = load_deck(deck_file)
    assert deck.hash == "sha256:" + hashlib.sha256(deck_file.read_bytes()).hexdigest()


def test_levels_and_prompts(deck_file: Path) -> None:
    deck = load_deck(deck_file)
    assert deck.level_label(2) == "Domain"
    assert deck.prompt(1) == "Who is this?"
    assert deck.prompt(5) is None
    bare = Deck(
        id="x", title="X", author="A", subject="S", version="1", mapping="M",
        quadrants=tuple(QUADRANTS), cards=(_card(),),
    )  # fmt: skip
    assert (bare.level_label(1), bare.level_label(3)) == ("Name", "Level 3")
    assert bare.prompt(1) is None
    assert bare.depth == 3
    assert bare.source is None
    assert bare.language == "en"


def test_image_path_is_relative_to_the_deck(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "001.png").write_bytes(b"png")
    data = deck_data()
    data["cards"][0]["image"] = "images/001.png"
    deck = load_deck(write_deck(tmp_path, data))
    card = deck.card(1)
    assert card is not None
    assert card.image == "images/001.png"
    assert deck.image_path(card) == tmp_path / "images" / "001.png"
    other = deck.card(2)
    assert other is not None
    assert deck.image_path(other) is None
