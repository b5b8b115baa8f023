"""Decks for the enrollment tests: those of tests/decks, without the tags they carry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.decks import Deck, load_deck
from tests.decks.helpers import deck_data, write_deck


def untagged_data(quadrants: tuple[int, ...] = (1,)) -> dict[str, Any]:
    """A valid deck over `quadrants` whose cards carry no rfid tags."""
    data = deck_data(quadrants=quadrants)
    for card in data["cards"]:
        del card["rfid"]
    return data


def write_untagged(directory: Path, quadrants: tuple[int, ...] = (1,)) -> Path:
    return write_deck(directory, untagged_data(quadrants))


def untagged_deck(directory: Path, quadrants: tuple[int, ...] = (1,)) -> Deck:
    return load_deck(write_untagged(directory, quadrants))


def em(number: int) -> str:
    """An EM4100 (RDM6300) tag id for card `number`: 10 hex digits."""
    return f"EE{number:08X}"
