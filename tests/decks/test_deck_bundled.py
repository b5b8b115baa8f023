"""The example deck shipped with the companion (written separately; skipped until it exists)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from companion.cli import main
from companion.decks import DATA_DIR, bundled_decks, load_deck, schema, validate_deck_file

EXAMPLE = DATA_DIR / "mythologies-of-earth.toml"

pytestmark = pytest.mark.skipif(not EXAMPLE.exists(), reason="example deck not written yet")


def test_the_example_deck_validates() -> None:
    assert [str(p) for p in validate_deck_file(EXAMPLE)] == []


def test_the_example_deck_is_whole() -> None:
    deck = load_deck(EXAMPLE)
    assert deck.id == "mythologies-of-earth"
    assert len(deck.cards) == 100
    assert deck.depth >= 4
    assert list(deck.quadrants) == ["Greek", "Roman", "Egyptian", "Norse"]
    assert deck.places_covered == tuple(range(1, 101))


def test_the_example_deck_matches_the_schema() -> None:
    data = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    Draft202012Validator(schema()).validate(data)


def test_every_bundled_deck_is_named_by_its_id() -> None:
    for deck_id, path in bundled_decks().items():
        assert load_deck(path).id == deck_id, path


def test_the_cli_validates_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "validate", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{EXAMPLE}: ok (100 cards, depth ")
    assert out.rstrip().endswith("25+25+25+25 places)")


def test_it_is_found_by_id() -> None:
    assert Path(str(load_deck(EXAMPLE).source)) == EXAMPLE
