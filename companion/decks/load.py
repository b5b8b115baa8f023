"""Reading deck files: bundled decks by id, any other by path, with every problem reported.

deck = find_deck("mythologies-of-earth")       # bundled id, or a path to a .toml file
for problem in validate_deck_file("my-deck.toml"):
    print(problem)                             # my-deck.toml:12: deck.title: missing (required)
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.decks.model import Card, Deck, normalise_tag
from companion.decks.validate import Problem, check_deck
from companion.errors import UserError
from vision.common.files import parsing, read_input_bytes

DATA_DIR = Path(__file__).parent / "data"
"""Where bundled decks live, one `<id>.toml` each."""

MAX_BYTES = 5_000_000
"""Far above any deck (100 cards of text); stops a wrong argument from being read whole."""

_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_END = re.compile(r"\s*\(at end of document\)$")


class DeckError(UserError):
    """A deck that cannot be found, read or used; one line, exit code 2."""


def bundled_decks() -> dict[str, Path]:
    """The decks shipped with the companion: {id: path}, by id."""
    if not DATA_DIR.is_dir():
        return {}
    return {path.stem: path for path in sorted(DATA_DIR.glob("*.toml")) if path.is_file()}


def deck_path(name_or_path: str | Path) -> Path:
    """The file for a bundled deck id or a path; raises DeckError naming the bundled ids."""
    path = Path(name_or_path)
    if path.exists():
        return path
    bundled = bundled_decks()
    if str(name_or_path) in bundled:
        return bundled[str(name_or_path)]
    known = ", ".join(bundled) if bundled else "none"
    raise DeckError(
        f"unknown deck {str(name_or_path)!r}: no such file and no bundled deck by that id "
        f"(bundled decks: {known})"
    )


def find_deck(name_or_path: str | Path) -> Deck:
    """The deck for a bundled id or a file path, loaded and checked."""
    return load_deck(deck_path(name_or_path))


def load_deck(path: str | Path) -> Deck:
    """Reads and checks a deck file; raises DeckError with the first problem (and a count)."""
    path = Path(path)
    problems, data, digest = _examine(path)
    if problems or data is None:
        more = len(problems) - 1
        extra = f" (and {more} more; run `companion deck validate {path}`)" if more else ""
        raise DeckError(f"{problems[0]}{extra}")
    try:
        with parsing(str(path), "deck file"):
            return _build(data, path, digest)
    except UserError as err:
        raise DeckError(err.message, where=err.where) from None


def validate_deck_file(path: str | Path) -> list[Problem]:
    """Every problem in a deck file, in file order; empty when the deck is good."""
    return _examine(Path(path))[0]


def _examine(path: Path) -> tuple[list[Problem], dict[str, Any] | None, str]:
    """(problems, parsed TOML or None, 'sha256:<hex>' or '')."""
    file = str(path)
    try:
        raw = _read_bytes(path)
        text = _decode(raw)
    except DeckError as err:
        return [Problem(file, None, "", err.message)], None, ""
    digest = "sha256:" + hashlib.sha256(raw).hexdigest()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        return [_syntax_problem(file, text, err)], None, digest
    except RecursionError:
        return [Problem(file, None, "", "not valid TOML: values nested too deeply")], None, digest
    except (ValueError, OverflowError) as err:
        # A number past Python's limit on digits (4,300) is a ValueError, not a TOML error.
        return [Problem(file, None, "", f"not valid TOML: {err}")], None, digest
    try:
        return check_deck(data, text, file, base_dir=path.parent), data, digest
    except RecursionError:
        # Parsed, but too deep for the schema check; no deck nests arrays in arrays at all.
        return [Problem(file, None, "", "values nested too deeply to check")], None, digest


def _read_bytes(path: Path) -> bytes:
    try:
        return read_input_bytes(path, "deck file", MAX_BYTES)
    except UserError as err:
        raise DeckError(err.message) from None


def _decode(raw: bytes) -> str:
    if b"\x00" in raw:
        raise DeckError("not a text file (it contains NUL bytes); a deck is UTF-8 TOML text")
    try:
        # utf-8-sig: editors on Windows like to start files with a byte-order mark.
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        byte = raw[err.start]
        raise DeckError(
            f"not UTF-8 text (byte 0x{byte:02X} at offset {err.start}); save the deck as UTF-8"
        ) from None


def _syntax_problem(file: str, text: str, err: tomllib.TOMLDecodeError) -> Problem:
    message = str(err)
    if match := _TOML_WHERE.search(message):
        line, column = int(match.group(1)), int(match.group(2))
        return Problem(file, line, "", f"not valid TOML: {message[: match.start()]}", column)
    if match := _TOML_END.search(message):
        last = text.count("\n") + (0 if text.endswith("\n") else 1)
        return Problem(file, max(last, 1), "", f"not valid TOML: {message[: match.start()]}")
    return Problem(file, None, "", f"not valid TOML: {message}")


def _build(data: Mapping[str, Any], source: Path, digest: str) -> Deck:
    meta = data["deck"]
    cards = sorted((_card(card) for card in data["cards"]), key=lambda c: c.number)
    return Deck(
        id=meta["id"],
        title=meta["title"],
        author=meta["author"],
        subject=meta["subject"],
        version=meta["version"],
        language=meta.get("language", "en"),
        mapping=meta["mapping"],
        quadrants=tuple(meta["quadrants"]),
        levels=tuple(meta.get("levels", ())),
        prompts=tuple(meta.get("prompts", ())),
        description=meta.get("description", ""),
        cards=tuple(cards),
        source=source,
        hash=digest,
    )


def _card(card: Mapping[str, Any]) -> Card:
    # int(): the schema's "integer" admits 3.0, which TOML keeps as a float.
    return Card(
        number=int(card["number"]),
        place=int(card["place"]),
        name=card["name"],
        front=card["front"],
        points=int(card["points"]),
        facts=tuple(card["facts"]),
        image=card.get("image"),
        rfid=tuple(normalise_tag(tag) for tag in card.get("rfid", ())),
    )
