"""Deck files for tests, built in code so each test changes exactly one thing.

data = deck_data()                       # 100 cards, 4 facts each (depth 5)
data["cards"][12]["points"] = -1
path = write_deck(tmp_path, data)
line_of(path.read_text(), "points = -1") # where the validator should point
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

QUADRANTS = ["Greek", "Roman", "Egyptian", "Norse"]
LEVELS = ["Name", "Domain", "Symbols", "Family", "Myth"]
PROMPTS = ["Who is this?", "What do they rule?", "What are their symbols?", "Who is family?"]


def card_data(number: int, place: int, facts: int = 4) -> dict[str, Any]:
    return {
        "number": number,
        "place": place,
        "name": f"Figure{number:03d}",
        "front": f"Clue {number}: a figure of legend. Who is this?",
        "points": number % 4,
        "facts": [f"Fact {level} of card {number}" for level in range(2, facts + 2)],
        "rfid": [f"{number:08X}"],
    }


def deck_data(quadrants: tuple[int, ...] = (1, 2, 3, 4), facts: int = 4) -> dict[str, Any]:
    """A valid deck covering `quadrants`; card numbers 1..N scattered over their places."""
    places = [25 * (q - 1) + p for q in quadrants for p in range(1, 26)]
    # 7 is coprime to 25, 50, 75 and 100, so this is a permutation and number != place.
    cards = [card_data(n, places[(n * 7) % len(places)], facts) for n in range(1, len(places) + 1)]
    return {
        "format": "memdeck/1",
        "deck": {
            "id": "test-deck",
            "title": "Test Deck",
            "author": "The Test Suite",
            "subject": "Made-up figures",
            "version": "1.0",
            "mapping": "Card n sits on place 7n, counted round the covered places.",
            "quadrants": list(QUADRANTS),
            "levels": LEVELS[: facts + 1],
            "prompts": PROMPTS[: facts + 1],
            "description": "A deck for tests.\n[[cards]] in a string is not a table.\n",
        },
        "cards": cards,
    }


def render(data: dict[str, Any]) -> str:
    """TOML in the layout a person would write: one [[cards]] table per card."""
    lines = ["# Written by tests/decks/helpers.py"]
    for key, value in data.items():
        if key not in ("deck", "cards"):
            lines.append(f"{key} = {_value(key, value)}")
    if "deck" in data:
        lines += ["", "[deck]"]
        lines += [f"{key} = {_value(key, value)}" for key, value in data["deck"].items()]
    for card in data.get("cards", []):
        lines += ["", "[[cards]]"]
        lines += [f"{key} = {_value(key, value)}" for key, value in card.items()]
    return "\n".join(lines) + "\n"


def _value(key: str, value: Any) -> str:
    if isinstance(value, str) and "\n" in value:
        return '"""\n' + value + '"""'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list) and key == "facts":
        return "[\n" + "".join(f"    {_value('', item)},\n" for item in value) + "]"
    if isinstance(value, list):
        return "[" + ", ".join(_value("", item) for item in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    return repr(value)


def write_deck(directory: Path, data: dict[str, Any] | str, name: str = "deck.toml") -> Path:
    path = directory / name
    path.write_text(data if isinstance(data, str) else render(data), encoding="utf-8")
    return path


def line_of(text: str, snippet: str) -> int:
    """The 1-based line of the one line containing `snippet`."""
    found = [n for n, line in enumerate(text.splitlines(), start=1) if snippet in line]
    assert len(found) == 1, f"{snippet!r} is on lines {found}"
    return found[0]


def card_line(text: str, index: int, key: str | None = None) -> int:
    """The line of the index-th [[cards]] header (from 0), or of `key =` inside that card."""
    lines = text.splitlines()
    headers = [n for n, line in enumerate(lines, start=1) if line == "[[cards]]"]
    start = headers[index]
    if key is None:
        return start
    for n in range(start, len(lines) + 1):
        if lines[n - 1].startswith(f"{key} = "):
            return n
    raise AssertionError(f"no {key} in cards[{index}]")
