"""Tag map files: where they live, round trips, merging with the deck file, atomic writes."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from companion.decks import find_deck, load_deck
from companion.decks.tagmap import (
    TAG_MAP_FORMAT,
    TagMapError,
    deck_with_tags,
    load_tag_map,
    save_tag_map,
    tag_kind,
    tag_map_path,
    tags_for,
)
from tests.decks.helpers import write_deck

from .helpers import em, untagged_data, untagged_deck


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user data directory, in a temporary directory for every test."""
    directory = tmp_path / "user-data"
    monkeypatch.setenv("COMPANION_DATA", str(directory))
    return directory


def test_a_deck_files_tag_map_is_beside_it(tmp_path: Path) -> None:
    deck = untagged_deck(tmp_path)
    assert tag_map_path(deck) == tmp_path / "deck.tags.toml"


def test_a_bundled_decks_tag_map_is_in_the_user_data_directory(data_dir: Path) -> None:
    deck = find_deck("mythologies-of-earth")
    path = tag_map_path(deck)
    assert path == data_dir / "decks" / "mythologies-of-earth.tags.toml"
    assert load_tag_map("mythologies-of-earth") == {}
    assert save_tag_map(deck, {"0a1b2c3d4e": 17}) == path  # the directories are made
    assert load_tag_map(deck) == {"0A1B2C3D4E": 17}
    card = deck_with_tags(deck).card_for_tag("0a:1b:2c:3d:4e")
    assert card is not None and card.name == deck.card(17).name  # type: ignore[union-attr]


def test_round_trip_and_file_format(tmp_path: Path) -> None:
    deck = untagged_deck(tmp_path)
    tags = {em(17): 17, "04:a2:24:b2:c1:2a:81": 1, em(2): 2}
    path = save_tag_map(deck, tags)
    assert load_tag_map(deck) == {em(17): 17, "04A224B2C12A81": 1, em(2): 2}
    assert load_tag_map(str(tmp_path / "deck.toml")) == load_tag_map(deck)
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert data["format"] == TAG_MAP_FORMAT and data["deck"] == "test-deck"
    # In card order, each with its card's name (never a fact) as a comment.
    assert text.splitlines()[-3:] == [
        '"04A224B2C12A81" = 1  # Figure001',
        f'"{em(2)}" = 2  # Figure002',
        f'"{em(17)}" = 17  # Figure017',
    ]
    assert "Fact" not in text
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_the_deck_file_is_left_alone(tmp_path: Path) -> None:
    deck = untagged_deck(tmp_path)
    before = (tmp_path / "deck.toml").read_bytes()
    save_tag_map(deck, {em(1): 1})
    assert (tmp_path / "deck.toml").read_bytes() == before


def test_merging_with_the_deck_files_own_tags(tmp_path: Path) -> None:
    data = untagged_data()
    data["cards"][0]["rfid"] = ["04A224B2C12A81"]
    deck = load_deck(write_deck(tmp_path, data))
    # A tag the deck file already gives the same card is not written again.
    path = save_tag_map(deck, {"04A224B2C12A81": 1, em(2): 2})
    assert "04A224B2C12A81" not in path.read_text()
    assert load_tag_map(deck) == {em(2): 2}
    assert tags_for(deck) == {"04A224B2C12A81": 1, em(2): 2}
    tagged = deck_with_tags(deck)
    assert tagged.card(1).rfid == ("04A224B2C12A81",)  # type: ignore[union-attr]
    assert tagged.card_for_tag(em(2)) == tagged.card(2)
    # A tag may not be one card in the deck file and another in the map.
    with pytest.raises(TagMapError, match="is card 3 here but card 1 in the deck file"):
        save_tag_map(deck, {"04A224B2C12A81": 3})
    path.write_text(path.read_text() + '"04A224B2C12A81" = 3\n')
    with pytest.raises(TagMapError, match="is card 3 here but card 1 in the deck file"):
        tags_for(deck)


def test_without_a_tag_map_only_the_deck_files_tags(tmp_path: Path) -> None:
    data = untagged_data()
    data["cards"][4]["rfid"] = [em(5)]
    deck = load_deck(write_deck(tmp_path, data))
    assert tags_for(deck) == {em(5): 5}
    assert deck_with_tags(deck) is deck


def test_the_write_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deck = untagged_deck(tmp_path)
    path = save_tag_map(deck, {em(1): 1})
    before = path.read_text()

    def failing_replace(src: str | Path, dst: str | Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(TagMapError, match="cannot write the tag map: No space left on device"):
        save_tag_map(deck, {em(1): 1, em(2): 2})
    assert path.read_text() == before  # the old map, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.tags.toml", "deck.toml"]


def test_an_unwritable_place(tmp_path: Path, data_dir: Path) -> None:
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    data_dir.write_text("a file where the data directory should be")
    with pytest.raises(TagMapError, match="cannot write the tag map"):
        save_tag_map(find_deck("mythologies-of-earth"), {em(1): 1})


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('format = "memdeck-tags/1"\n[tags\n', r"deck.tags.toml:2: not valid TOML"),
        ('format = "memdeck-tags/2"\n', r"format must be 'memdeck-tags/1', got 'memdeck-tags/2'"),
        ('format = "memdeck-tags/1"\ndeck = "other"\n', r"is the tag map of deck 'other'"),
        ('format = "memdeck-tags/1"\ncolour = 1\n', r"unknown key 'colour'"),
        ('format = "memdeck-tags/1"\ntags = 3\n', r"\[tags\] must be a table"),
        ('format = "memdeck-tags/1"\n[tags]\n"XYZ" = 1\n', r"'XYZ' is not a tag id"),
        ('format = "memdeck-tags/1"\n[tags]\n"0A1B2C3D4E" = 26\n', r"has no card 26"),
        ('format = "memdeck-tags/1"\n[tags]\n"0A1B2C3D4E" = "1"\n', r"must be a card number"),
        ('format = "memdeck-tags/1"\n[tags]\n"0A1B2C3D4E" = true\n', r"must be a card number"),
        (
            'format = "memdeck-tags/1"\n[tags]\n"0A1B2C3D4E" = 1\n"0a:1b:2c:3d:4e" = 2\n',
            r"given to both card 1 and card 2",
        ),
    ],
)
def test_a_bad_tag_map_is_one_clear_line(tmp_path: Path, text: str, message: str) -> None:
    deck = untagged_deck(tmp_path)
    (tmp_path / "deck.tags.toml").write_text(text)
    with pytest.raises(TagMapError, match=message) as caught:
        load_tag_map(deck)
    assert "\n" not in str(caught.value) and str(tmp_path / "deck.tags.toml") in str(caught.value)


def test_saving_checks_the_cards_and_tags(tmp_path: Path) -> None:
    deck = untagged_deck(tmp_path)
    with pytest.raises(TagMapError, match="has no card 30"):
        save_tag_map(deck, {em(1): 30})
    with pytest.raises(TagMapError, match="is not a tag id"):
        save_tag_map(deck, {"123": 1})
    assert not (tmp_path / "deck.tags.toml").exists()


def test_tag_kinds() -> None:
    assert tag_kind("0A1B2C3D4E") == "em4100"
    assert tag_kind("04A224B2") == tag_kind("04:a2:24:b2:c1:2a:81") == "iso14443a"
