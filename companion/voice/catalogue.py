"""What the companion says, in the player's language: message catalogues (gettext's .po
files, one per language, in companion/voice/catalogues/) whose entries are whole sentences
of the games' narration and prompts, with `{placeholders}` for what varies:

    msgid "{name} claims place {place}."
    msgstr "{name} beansprucht Feld {place}."

A sentence is translated by the first entry that matches it whole, the entry with the most
fixed text first; each placeholder's text is translated in turn when an entry matches it
alone (a quadrant's name, an outcome), and is kept as it is otherwise (a player's name, a
number). A placeholder written `{reason:t}` must be translated for the entry to match: its
text is one of the words the sentence picks from, never a name. Entries with the context
"part" (`msgctxt "part"`: a list's comma, a quadrant's name) translate only such pieces,
never a sentence. A sentence no entry matches is said as it is, in English.

    catalogue = catalogue_for("de")
    catalogue.translate("Ada claims place 17.")    # 'Ada beansprucht Feld 17.'
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

log = logging.getLogger(__name__)

CATALOGUES = Path(__file__).parent / "catalogues"
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)(:t)?\}")
_MAX_DEPTH = 6
"""How deep a placeholder's text is translated in turn (a list of four is three deep)."""
PART = "part"
"""The context of an entry that translates only a piece of a sentence."""


class BadCatalogue(ValueError):
    """A .po file that does not parse, or an entry whose placeholders do not match."""


@dataclass(frozen=True, slots=True)
class Entry:
    source: str
    target: str
    pattern: re.Pattern[str]
    fixed: int
    """How much of the source is fixed text: entries with more are tried first."""
    part: bool = False
    translated: frozenset[str] = frozenset()
    """The placeholders whose text must be translated for the entry to match."""


def _entry(source: str, target: str, where: str, part: bool = False) -> Entry:
    names = [name for name, _t in _PLACEHOLDER.findall(source)]
    if sorted(_PLACEHOLDER.findall(source)) != sorted(_PLACEHOLDER.findall(target)):
        raise BadCatalogue(f"{where}: {target!r} does not use the placeholders of {source!r}")
    if len(set(names)) != len(names):
        raise BadCatalogue(f"{where}: {source!r} names a placeholder twice")
    pieces = _PLACEHOLDER.split(source)  # text, name, ':t' or None, text, ...
    regex = "".join(
        re.escape(piece) if i % 3 == 0 else f"(?P<{piece}>.+?)"
        for i, piece in enumerate(pieces)
        if i % 3 != 2
    )
    fixed = sum(len(piece) for piece in pieces[::3])
    translated = frozenset(name for name, t in _PLACEHOLDER.findall(source) if t)
    return Entry(source, target, re.compile(regex, re.DOTALL), fixed, part, translated)


class Catalogue:
    def __init__(self, language: str, entries: Iterable[Entry] = ()) -> None:
        self.language = language
        self.entries = sorted(entries, key=lambda e: -e.fixed)

    def translate(self, sentence: str) -> str:
        """The sentence in this catalogue's language, or as it is when no entry matches."""
        translated = self._translate(sentence, 0)
        if translated is None:
            log.debug("no %s translation for %r", self.language, sentence)
            return sentence
        return translated

    def knows(self, sentence: str) -> bool:
        return self._translate(sentence, 0) is not None

    def _translate(self, text: str, depth: int) -> str | None:
        for entry in self.entries:
            if entry.part and depth == 0:
                continue
            found = entry.pattern.fullmatch(text)
            if found is None:
                continue
            values: dict[str, str] = {}
            for name, value in found.groupdict().items():
                said = self._translate(value, depth + 1) if depth < _MAX_DEPTH else None
                if said is None and name in entry.translated:
                    break
                values[name] = said if said is not None else value
            else:
                return _filled(entry.target, values)
        return None


def _filled(target: str, values: dict[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda found: values[found.group(1)], target)


def read_po(text: str, where: str) -> list[tuple[str, str, str]]:
    """The (msgctxt, msgid, msgstr) of each entry of a .po file's text, the header and
    untranslated entries left out."""
    pairs: list[tuple[str, str, str]] = []
    current: dict[str, str] = {}
    field = ""
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgid", "msgstr", "msgctxt"):
            if keyword in ("msgid", "msgctxt") and "msgstr" in current:
                pairs.append(_pair(current))
                current = {}
            field = keyword
            line = rest.strip()
        if not (line.startswith('"') and line.endswith('"') and len(line) >= 2) or not field:
            raise BadCatalogue(f"{where}:{number}: not a line of a .po file: {raw!r}")
        current[field] = current.get(field, "") + _unquote(line[1:-1], f"{where}:{number}")
    if "msgid" in current:
        pairs.append(_pair(current))
    return [(context, source, target) for context, source, target in pairs if source and target]


def _pair(fields: dict[str, str]) -> tuple[str, str, str]:
    return fields.get("msgctxt", ""), fields.get("msgid", ""), fields.get("msgstr", "")


def _unquote(text: str, where: str) -> str:
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
    out: list[str] = []
    chars = iter(text)
    for char in chars:
        if char != "\\":
            out.append(char)
            continue
        following = next(chars, "")
        if following not in escapes:
            raise BadCatalogue(f"{where}: an unknown escape \\{following}")
        out.append(escapes[following])
    return "".join(out)


def languages() -> tuple[str, ...]:
    """The languages with a catalogue, besides English."""
    return tuple(sorted(path.stem for path in CATALOGUES.glob("*.po")))


@cache
def catalogue_for(language: str) -> Catalogue:
    """The catalogue for a language as espeak-ng names it ('de', 'de-ch': German); an empty
    one (every sentence said in English) for English or a language without a catalogue."""
    primary = language.lower().split("-")[0]
    path = CATALOGUES / f"{primary}.po"
    if not path.is_file():
        return Catalogue(primary)
    where = str(path)
    entries = read_po(path.read_text(encoding="utf-8"), where)
    return Catalogue(
        primary,
        (_entry(source, target, where, context == PART) for context, source, target in entries),
    )
