"""MemDeck files ("memdeck/1"): the cards of a MemWars deck and where they go on the board.

    from companion.decks import find_deck
    deck = find_deck("mythologies-of-earth")     # a bundled id, or a path to a .toml file
    deck.card_at(1).name, deck.depth, deck.board_map()

The format is described in docs/deck-format.md; its JSON Schema is memdeck.schema.json here.
"""

from __future__ import annotations

from companion.decks.load import (
    DATA_DIR,
    DeckError,
    bundled_decks,
    deck_path,
    find_deck,
    load_deck,
    validate_deck_file,
)
from companion.decks.model import Card, Deck, normalise_tag, position
from companion.decks.validate import FORMAT, SCHEMA_PATH, Problem, schema

__all__ = [
    "DATA_DIR",
    "FORMAT",
    "SCHEMA_PATH",
    "Card",
    "Deck",
    "DeckError",
    "Problem",
    "bundled_decks",
    "deck_path",
    "find_deck",
    "load_deck",
    "normalise_tag",
    "position",
    "schema",
    "validate_deck_file",
]
