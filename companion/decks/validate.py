"""Every problem in a parsed deck: structure by JSON Schema, then the rules across fields.

Both passes run on whatever parsed, so one run reports all problems rather than the first;
the rules skip values the schema already rejects.

    problems = check_deck(data, text, "deck.toml", base_dir=Path("."))
    print(problems[0])   # deck.toml:212: cards[12].points: -1 is less than the minimum of 0
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator, ValidationError

from companion.decks.locate import FieldPath, Locator
from companion.decks.model import PLACES, QUADRANT_CORNERS, QUADRANT_SIZE, normalise_tag

SCHEMA_PATH = Path(__file__).with_name("memdeck.schema.json")
FORMAT = "memdeck/1"

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")

Found = tuple[FieldPath, str]
"""A problem before it has a file and a line: (path in the deck, message)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a deck file; `str()` gives `file:line: field: message`."""

    file: str
    line: int | None
    field: str
    """Where in the deck, e.g. 'cards[12].points' (cards counted from 0); '' for the file."""
    message: str
    column: int | None = None

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return (
            f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"
        )


def field_name(path: FieldPath) -> str:
    """('cards', 12, 'points') -> 'cards[12].points'."""
    name = ""
    for part in path:
        if isinstance(part, int):
            name += f"[{part}]"
        elif not _BARE_KEY.fullmatch(part):
            # A quoted TOML key can hold anything, newlines included; keep problems one line.
            name += f"[{json.dumps(part)}]"
        else:
            name += f".{part}" if name else part
    return name


@functools.cache
def schema() -> dict[str, Any]:
    """The memdeck/1 JSON Schema (draft 2020-12), as shipped next to this module."""
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


@functools.cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(schema())


def check_deck(
    data: Mapping[str, Any], text: str, file: str, base_dir: Path | None = None
) -> list[Problem]:
    """All problems in `data` (parsed from `text`), in file order, each reported once.

    `base_dir` is where images are looked for; None skips that check.
    """
    locator = Locator(text)
    problems: dict[tuple[str, str], Problem] = {}
    for path, message in [*check_structure(data), *check_rules(data, base_dir)]:
        name = field_name(path)
        problems.setdefault((name, message), Problem(file, locator.line(path), name, message))
    return sorted(problems.values(), key=lambda p: p.line or 0)


# --- structure ---------------------------------------------------------------------------


def check_structure(data: Mapping[str, Any]) -> list[Found]:
    """(path, message) for every way `data` departs from the schema."""
    return [found for error in _validator().iter_errors(data) for found in _explain(error)]


def _explain(error: ValidationError) -> Iterator[Found]:
    path: FieldPath = tuple(error.absolute_path)
    instance: Any = error.instance
    keyword: Any = error.validator
    expected: Any = error.validator_value
    part: Mapping[str, Any] = error.schema if isinstance(error.schema, Mapping) else {}
    if keyword == "required" and isinstance(instance, Mapping):
        for key in expected:
            if key not in instance:
                yield (*path, key), "missing (required)"
    elif keyword == "additionalProperties" and isinstance(instance, Mapping):
        known = part.get("properties", {})
        for key in instance:
            if key not in known:
                yield (*path, key), f"unknown field (known: {', '.join(sorted(known))})"
    elif keyword == "const" and path == ("format",):
        yield path, f"unsupported format {_short(instance)}; this companion reads {FORMAT!r}"
    elif keyword == "pattern" and "description" in part:
        yield path, _pattern_message(instance, expected, part["description"])
    elif keyword in ("minItems", "maxItems") and path == ("deck", "quadrants"):
        yield path, f"needs 4 names (NW, NE, SW, SE), got {len(instance)}"
    elif keyword in ("minItems", "maxItems") and path == ("cards",):
        yield path, f"a deck has 1 to {PLACES} cards, got {len(instance)}"
    elif keyword == "uniqueItems" and isinstance(instance, list):
        twice = [x for i, x in enumerate(instance) if x in instance[:i]]
        yield path, f"{_short(twice[0])} appears twice" if twice else "entries must differ"
    else:
        yield path, _shorten_message(error.message, instance)


def _pattern_message(value: Any, pattern: str, description: str) -> str:
    message = f"{_short(value)} {description}"
    if isinstance(value, str):
        fixed = normalise_tag(value)
        if fixed != value and re.search(pattern, fixed):
            message += f"; write it as {fixed!r}"
    return message


def _short(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _shorten_message(message: str, instance: Any) -> str:
    # jsonschema opens most messages with the whole offending value; a long front or a whole
    # card would bury the point.
    full = repr(instance)
    if message.startswith(full) and len(full) > 60:
        return _short(instance) + message[len(full) :]
    return message


# --- rules across fields -----------------------------------------------------------------


def check_rules(data: Mapping[str, Any], base_dir: Path | None = None) -> list[Found]:
    """(path, message) for the rules a schema cannot say: uniqueness, quadrants, depth, ..."""
    cards = _cards(data)
    found: list[Found] = []
    found += _unique(cards, "number", "is already the number of")
    found += _unique(cards, "place", "is already the place of")
    found += _unique_tags(cards)
    found += _whole_quadrants(cards, _quadrant_names(data))
    found += _label_counts(data, cards)
    found += _fronts(cards)
    if base_dir is not None:
        found += _images(cards, base_dir)
    return found


def _cards(data: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    raw = data.get("cards")
    if not isinstance(raw, list):
        return []
    return [(i, card) for i, card in enumerate(raw) if isinstance(card, Mapping)]


def _whole(value: Any, low: int = 1, high: int = PLACES) -> int | None:
    """An integer in low..high as the schema accepts it (TOML 3.0 counts), else None."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value) if low <= value <= high else None


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _unique(cards: Sequence[tuple[int, Mapping[str, Any]]], key: str, clash: str) -> list[Found]:
    first: dict[int, int] = {}
    found: list[Found] = []
    for i, card in cards:
        value = _whole(card.get(key))
        if value is None:
            continue
        if value in first:
            found.append((("cards", i, key), f"{value} {clash} cards[{first[value]}]"))
        else:
            first[value] = i
    return found


def _unique_tags(cards: Sequence[tuple[int, Mapping[str, Any]]]) -> list[Found]:
    first: dict[str, int] = {}
    found: list[Found] = []
    for i, card in cards:
        tags = card.get("rfid")
        if not isinstance(tags, list):
            continue
        for t, tag in enumerate(tags):
            if not isinstance(tag, str):
                continue
            tag = normalise_tag(tag)
            if tag in first:
                owner = "this card" if first[tag] == i else f"cards[{first[tag]}]"
                found.append((("cards", i, "rfid", t), f"tag {tag} is already on {owner}"))
            else:
                first[tag] = i
    return found


def _quadrant_names(data: Mapping[str, Any]) -> list[str]:
    """'NE, Roman' style labels; just the corner when the deck's names are unusable."""
    deck = data.get("deck")
    names = deck.get("quadrants") if isinstance(deck, Mapping) else None
    if isinstance(names, list) and len(names) == 4 and all(isinstance(n, str) for n in names):
        return [f"{corner}, {name}" for corner, name in zip(QUADRANT_CORNERS, names, strict=True)]
    return list(QUADRANT_CORNERS)


def _whole_quadrants(
    cards: Sequence[tuple[int, Mapping[str, Any]]], names: Sequence[str]
) -> list[Found]:
    # A game is played on whole quadrants, so a deck must fill every place of each one it
    # touches: 25, 50, 75 or 100 cards.
    places: dict[int, int] = {}
    for i, card in cards:
        place = _whole(card.get("place"))
        if place is not None:
            places.setdefault(place, i)
    found: list[Found] = []
    for quadrant in range(1, 5):
        span = range(QUADRANT_SIZE * (quadrant - 1) + 1, QUADRANT_SIZE * quadrant + 1)
        present = [places[p] for p in span if p in places]
        missing = [p for p in span if p not in places]
        if present and missing:
            listed = ", ".join(map(str, missing[:10])) + (
                f" and {len(missing) - 10} more" if len(missing) > 10 else ""
            )
            found.append(
                (
                    ("cards", min(present)),
                    f"quadrant {quadrant} ({names[quadrant - 1]}) is incomplete: "
                    f"no card for place{'s' if len(missing) > 1 else ''} {listed} "
                    "(a deck fills whole quadrants: 25, 50, 75 or 100 cards)",
                )
            )
    return found


def _label_counts(
    data: Mapping[str, Any], cards: Sequence[tuple[int, Mapping[str, Any]]]
) -> list[Found]:
    deck = data.get("deck")
    lengths = [len(c["facts"]) for _, c in cards if isinstance(c.get("facts"), list)]
    if not isinstance(deck, Mapping) or not lengths:
        return []
    deepest = 1 + max(lengths)
    found: list[Found] = []
    for key in ("levels", "prompts"):
        entries = deck.get(key)
        if isinstance(entries, list) and len(entries) > deepest:
            found.append(
                (
                    ("deck", key),
                    f"{len(entries)} entries, but the deepest card has {deepest} levels "
                    f"(its name and {deepest - 1} facts)",
                )
            )
    return found


def _fronts(cards: Sequence[tuple[int, Mapping[str, Any]]]) -> list[Found]:
    found: list[Found] = []
    for i, card in cards:
        name, front = _text(card.get("name")), _text(card.get("front"))
        if name is None or front is None:
            continue
        # Whole words only: 'Thor' gives away 'Thor' but not 'Thorough'.
        if re.search(rf"(?<!\w){re.escape(name.strip())}(?!\w)", front, re.IGNORECASE):
            found.append(
                (("cards", i, "front"), f"gives the answer away: it contains the name {name!r}")
            )
    return found


def _images(cards: Sequence[tuple[int, Mapping[str, Any]]], base_dir: Path) -> list[Found]:
    found: list[Found] = []
    for i, card in cards:
        image = _text(card.get("image"))
        if image is None:
            continue
        where = base_dir / image
        if not where.is_file():
            what = "is a directory, not an image" if where.is_dir() else "not found"
            found.append((("cards", i, "image"), f"{image!r} {what} (looked for {where})"))
    return found
