"""The companion speaks the player's language: every sentence it says of a game in a
language with a catalogue is translated, placeholders kept, nothing hidden added."""

from __future__ import annotations

import random

import pytest

from companion.games import find_plugin
from companion.voice.catalogue import BadCatalogue, Catalogue, _entry, catalogue_for, read_po

TRANSLATED = {"de": ("memwars", "mem")}
"""The games each catalogue covers whole: a sentence of theirs left in English fails."""


def said_in_games(game: str, seeds: int = 12) -> set[str]:
    """Every sentence the companion says in random games of every example setup: the
    narration of each event and each prompt (companion/voice/announcer.py)."""
    plugin = find_plugin(game)
    engine = plugin.engine
    said: set[str] = set()
    for setup in plugin.example_setups():
        for seed in range(seeds):
            rng = random.Random(seed)
            state, events = engine.start(setup)
            narrate = plugin.narrator(state)
            for _ in range(600):
                said |= {text for event in events if (text := narrate(event))}
                expected = engine.view(state, "spectator").get("expected")
                if isinstance(expected, dict) and expected.get("prompt"):
                    said.add(expected["prompt"])
                if engine.is_over(state):
                    break
                state, events = engine.apply(state, plugin.random_action(state, rng))
    return said


@pytest.mark.parametrize(
    ("language", "game"), [(lang, g) for lang, games in TRANSLATED.items() for g in games]
)
def test_every_sentence_of_a_covered_game_is_translated(language: str, game: str) -> None:
    catalogue = catalogue_for(language)
    said = said_in_games(game)
    assert len(said) > 20
    missing = sorted(s for s in said if not catalogue.knows(s))
    assert missing == [], missing[:10]
    for sentence in said:
        translated = catalogue.translate(sentence)
        # Numbers (places, cards, scores) are said as they were.
        assert sorted(filter(str.isdigit, sentence)) == sorted(filter(str.isdigit, translated))


def test_a_sentence_no_entry_matches_is_said_in_english() -> None:
    catalogue = catalogue_for("de")
    assert catalogue.translate("Something new happens.") == "Something new happens."
    assert catalogue_for("en").translate("Ada claims place 4.") == "Ada claims place 4."
    assert catalogue_for("de-ch").translate("Ada claims place 4.") == "Ada beansprucht Feld 4."


def test_pieces_are_translated_inside_sentences_only() -> None:
    catalogue = catalogue_for("de")
    assert catalogue.translate("nobody") == "nobody"  # a piece, never a sentence
    assert catalogue.translate("Game over: nobody wins.") == "Spielende: niemand gewinnt."
    # A player called like a piece keeps a name only where the sentence has a name.
    assert catalogue.translate("Bo claims place 3.") == "Bo beansprucht Feld 3."


def test_po_files_are_read_strictly() -> None:
    text = 'msgid ""\nmsgstr "header"\n\nmsgctxt "part"\nmsgid "a \\"b\\""\nmsgstr "c"\n'
    assert read_po(text, "x.po") == [("part", 'a "b"', "c")]
    with pytest.raises(BadCatalogue):
        read_po('msgid "a"\nnonsense\n', "x.po")
    with pytest.raises(BadCatalogue):
        read_po('msgid "a\\q"\nmsgstr "b"\n', "x.po")
    with pytest.raises(BadCatalogue, match="placeholders"):
        _entry("{name} claims", "{nom} beansprucht", "x.po")
    assert (
        Catalogue("xx", [_entry("{a} and {b}", "{b} et {a}", "x.po")]).translate("Ada and Bo")
        == "Bo et Ada"
    )
