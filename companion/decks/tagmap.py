"""Tag maps: which RFID tag is on which card, kept in a file of its own beside the deck.

Enrolling a deck (`companion deck enroll`) writes the tags it reads here rather than into
the deck file, so a deck stays as its author wrote it and a bundled deck (which may be
read-only) needs no change. The file is TOML:

    format = "memdeck-tags/1"
    deck = "mythologies-of-earth"

    [tags]
    "04A224B2C12A81" = 1   # Zeus
    "0A1B2C3D4E" = 17      # Hermes

- `deck.toml` keeps its tag map in `deck.tags.toml`, in the same directory.
- A bundled deck (or a deck built in code) keeps it in the user data directory:
  `<data dir>/decks/<deck id>.tags.toml` (see `companion.config.default_data_dir`).

Tags listed in the deck file itself (`rfid = [...]`) count as well: `tags_for(deck)` merges
both, and a tag may not name one card in the deck file and another in the tag map.

    tags = tags_for(deck)                   # {"04A224B2C12A81": 1, ...}
    deck = deck_with_tags(deck)             # the same deck, cards carrying every tag
    save_tag_map(deck, {"0A1B2C3D4E": 17})  # written atomically (temp file + os.replace)
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.config import default_data_dir
from companion.decks import load as _load
from companion.decks.load import DeckError, find_deck
from companion.decks.model import Deck, normalise_tag
from vision.common.files import write_atomically

TAG_MAP_FORMAT = "memdeck-tags/1"
TAG_MAP_SUFFIX = ".tags.toml"

_TAG = re.compile(r"^(?:[0-9A-F]{8}|[0-9A-F]{10}|[0-9A-F]{14}|[0-9A-F]{20})$")
_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column \d+\)$")


class TagMapError(DeckError):
    """A tag map that cannot be read, does not fit its deck, or cannot be written."""


def is_tag(tag: str) -> bool:
    """Whether `tag` (already normalised) is a tag id: 8, 14 or 20 hex digits, or 10 (EM4100)."""
    return bool(_TAG.match(tag))


def tag_kind(tag: str) -> str:
    """'em4100' for a 125 kHz tag (10 digits), 'iso14443a' for a 13.56 MHz UID (8/14/20)."""
    return "em4100" if len(normalise_tag(tag)) == 10 else "iso14443a"


def is_bundled(deck: Deck) -> bool:
    """Whether the deck ships with the companion (or was built in code, with no file)."""
    if deck.source is None:
        return True
    try:
        return deck.source.resolve().parent == _load.DATA_DIR.resolve()
    except OSError:
        return False


def tag_map_path(deck: Deck) -> Path:
    """Where the deck's tag map lives: beside the deck, or in the user data directory."""
    if is_bundled(deck) or deck.source is None:
        return default_data_dir() / "decks" / f"{deck.id}{TAG_MAP_SUFFIX}"
    source = deck.source
    stem = source.name[: -len(".toml")] if source.name.endswith(".toml") else source.name
    return source.with_name(stem + TAG_MAP_SUFFIX)


def deck_tags(deck: Deck) -> dict[str, int]:
    """The tags the deck file itself gives: {tag: card number}."""
    return {normalise_tag(tag): card.number for card in deck.cards for tag in card.rfid}


def load_tag_map(deck: Deck | str | Path) -> dict[str, int]:
    """The tags in the deck's tag map file, {tag: card number}; {} when there is no file.

    `deck` is a Deck, a bundled deck id or a deck file's path. Raises TagMapError for a file
    that is not a tag map of this deck, names a card the deck does not have, or gives a tag
    to another card than the deck file does.
    """
    if not isinstance(deck, Deck):
        deck = find_deck(deck)
    path = tag_map_path(deck)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise TagMapError(f"{path}: is a directory, not a tag map") from None
    except UnicodeDecodeError:
        raise TagMapError(f"{path}: not UTF-8 text") from None
    except OSError as err:
        raise TagMapError(f"{path}: cannot read: {err.strerror or err}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        message = str(err)
        where = ""
        if match := _TOML_WHERE.search(message):
            where, message = f":{match.group(1)}", message[: match.start()]
        raise TagMapError(f"{path}{where}: not valid TOML: {message}") from None
    tags = _parse(data, deck, str(path))
    _check_against_deck(tags, deck, str(path))
    return tags


def save_tag_map(deck: Deck, tags: Mapping[str, int]) -> Path:
    """Writes `tags` ({tag: card number}) as the deck's tag map, atomically; returns the path.

    Tags the deck file already gives the same card are left out (the deck says so already).
    A directory on the way to the file is made if missing.
    """
    clean = _normalised(tags)
    where = str(tag_map_path(deck))
    for tag, number in clean.items():
        _check_entry(tag, number, deck, where)
    _check_against_deck(clean, deck, where)
    own = deck_tags(deck)
    kept = {tag: number for tag, number in clean.items() if own.get(tag) != number}
    path = tag_map_path(deck)
    _write_atomically(path, render_tag_map(deck, kept))
    return path


def tags_for(deck: Deck) -> dict[str, int]:
    """Every tag of the deck, {tag: card number}: the deck file's and its tag map's."""
    return {**deck_tags(deck), **load_tag_map(deck)}


def deck_with_tags(deck: Deck) -> Deck:
    """The deck with each card's `rfid` holding its tag-map tags too (so card_for_tag works)."""
    extra: dict[int, list[str]] = {}
    for tag, number in load_tag_map(deck).items():
        extra.setdefault(number, []).append(tag)
    if not extra:
        return deck
    cards = tuple(
        dataclasses.replace(card, rfid=card.rfid + tuple(sorted(extra[card.number])))
        if card.number in extra
        else card
        for card in deck.cards
    )
    return dataclasses.replace(deck, cards=cards)


def render_tag_map(deck: Deck, tags: Mapping[str, int]) -> str:
    """The text of a tag map file: tags in card order, each with its card's name as a comment."""
    lines = [
        "# RFID tags of a MemDeck's cards, written by `companion deck enroll`.",
        '# See docs/cards.md. Each line: "TAG ID" = card number.',
        f'format = "{TAG_MAP_FORMAT}"',
        f"deck = {_toml_string(deck.id)}",
        "",
        "[tags]",
    ]
    for tag, number in sorted(tags.items(), key=lambda item: (item[1], item[0])):
        card = deck.card(number)
        name = f"  # {_one_line(card.name)}" if card is not None else ""
        lines.append(f'"{tag}" = {number}{name}')
    return "\n".join(lines) + "\n"


# ---- checks ------------------------------------------------------------------------------


def _parse(data: Mapping[str, Any], deck: Deck, where: str) -> dict[str, int]:
    unknown = sorted(set(data) - {"format", "deck", "tags"})
    if unknown:
        raise TagMapError(f"{where}: unknown key {unknown[0]!r} (known: deck, format, tags)")
    if data.get("format") != TAG_MAP_FORMAT:
        raise TagMapError(f"{where}: format must be {TAG_MAP_FORMAT!r}, got {data.get('format')!r}")
    if "deck" in data and data["deck"] != deck.id:
        raise TagMapError(f"{where}: is the tag map of deck {data['deck']!r}, not {deck.id!r}")
    raw = data.get("tags", {})
    if not isinstance(raw, dict):
        raise TagMapError(f'{where}: [tags] must be a table of "TAG" = card number')
    tags: dict[str, int] = {}
    for key, number in raw.items():
        tag = normalise_tag(key)
        if not isinstance(number, int) or isinstance(number, bool):
            raise TagMapError(f"{where}: tags.{key}: must be a card number, got {number!r}")
        if tag in tags and tags[tag] != number:
            raise TagMapError(
                f"{where}: tag {tag} is given to both card {tags[tag]} and card {number}"
            )
        _check_entry(tag, number, deck, where)
        tags[tag] = number
    return tags


def _check_entry(tag: str, number: int, deck: Deck, where: str) -> None:
    if not is_tag(tag):
        raise TagMapError(
            f"{where}: {tag!r} is not a tag id (upper-case hex of 8, 10, 14 or 20 digits)"
        )
    if deck.card(number) is None:
        raise TagMapError(f"{where}: tag {tag}: deck {deck.id!r} has no card {number}")


def _check_against_deck(tags: Mapping[str, int], deck: Deck, where: str) -> None:
    own = deck_tags(deck)
    for tag, number in tags.items():
        if tag in own and own[tag] != number:
            raise TagMapError(
                f"{where}: tag {tag} is card {number} here but card {own[tag]} in the deck file"
            )


def _normalised(tags: Mapping[str, int]) -> dict[str, int]:
    clean: dict[str, int] = {}
    for key, number in tags.items():
        tag = normalise_tag(key)
        if tag in clean and clean[tag] != number:
            raise TagMapError(f"tag {tag} is given to both card {clean[tag]} and card {number}")
        clean[tag] = number
    return clean


# ---- writing -----------------------------------------------------------------------------


def _write_atomically(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, text.encode("utf-8"))
    except OSError as err:
        raise TagMapError(f"{path}: cannot write the tag map: {err.strerror or err}") from None


def _toml_string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _one_line(text: str) -> str:
    return " ".join(text.split())


class TagDirectory:
    """Which card of which deck a tag is, over every deck the companion knows: the game's
    own deck first, then the bundled ones, so that a card of another deck is named as such
    rather than called unknown.

        directory = TagDirectory([game_deck, *other_decks])
        directory.lookup("04A224B2C12A81")      # ("mythologies-of-earth", 17) or None
    """

    def __init__(self, decks: Sequence[Deck]) -> None:
        self._tags: dict[str, tuple[str, int]] = {}
        for deck in decks:
            for tag, number in tags_for(deck).items():
                # The first deck listed wins a tag enrolled in two decks: the game's own.
                self._tags.setdefault(tag, (deck.id, number))

    def lookup(self, tag: str) -> tuple[str, int] | None:
        return self._tags.get(normalise_tag(tag))

    def __len__(self) -> int:
        return len(self._tags)
