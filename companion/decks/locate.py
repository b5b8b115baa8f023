"""Line numbers for fields of a deck file, found in the raw TOML text.

tomllib keeps no positions, so this reads the text again, just enough to know which table
each `key =` line belongs to. It understands `[table]`, `[[array.of.tables]]`, quoted keys
and multi-line strings; that is good enough for hand-written deck files, and when it cannot
find a key it answers with the line of the enclosing table (or None).

    lines = Locator(text)
    lines.line(("cards", 12, "points"))   # the `points =` line of the 13th [[cards]]
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field

FieldPath = tuple[str | int, ...]

_ARRAY_TABLE = re.compile(r"^\s*\[\[\s*([^\[\]]+?)\s*\]\]")
_TABLE = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]")
_KEY = re.compile(r"""^\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*[=.]""")
_TRIPLE_QUOTES = ('"""', "'''")


@dataclass
class _Table:
    header: int | None
    keys: dict[str, int] = field(default_factory=dict)


class Locator:
    def __init__(self, text: str) -> None:
        self._root = _Table(header=None)
        self._tables: dict[str, _Table] = {}
        self._arrays: dict[str, list[_Table]] = {}
        self._scan(text)

    def _scan(self, text: str) -> None:
        current = self._root
        open_quote: str | None = None
        for number, line in enumerate(text.splitlines(), start=1):
            if open_quote is not None:
                # Inside a multi-line string: a `[[cards]]` here is text, not a table.
                if line.count(open_quote) % 2 == 1:
                    open_quote = None
                continue
            if match := _ARRAY_TABLE.match(line):
                current = _Table(header=number)
                self._arrays.setdefault(_unquote(match.group(1)), []).append(current)
            elif match := _TABLE.match(line):
                current = _Table(header=number)
                self._tables.setdefault(_unquote(match.group(1)), current)
            elif match := _KEY.match(line):
                basic, literal, bare = match.groups()
                key = _unescape(basic) if basic is not None else literal or bare or ""
                current.keys.setdefault(key, number)
            open_quote = _opens_multiline(line)

    def line(self, path: FieldPath) -> int | None:
        """The line of the field at `path` (e.g. ("deck", "title")), or of its nearest parent."""
        if not path:
            return None
        head = path[0]
        if not isinstance(head, str):
            return None
        rest = path[1:]
        if head in self._arrays:
            tables = self._arrays[head]
            if rest and isinstance(rest[0], int) and 0 <= rest[0] < len(tables):
                return _in_table(tables[rest[0]], rest[1:])
            return tables[0].header
        if head in self._tables:
            return _in_table(self._tables[head], rest)
        return self._root.keys.get(head)


def _in_table(table: _Table, rest: FieldPath) -> int | None:
    if rest and isinstance(rest[0], str) and rest[0] in table.keys:
        return table.keys[rest[0]]
    return table.header


def _unescape(key: str) -> str:
    """A double-quoted key as TOML reads it (escapes such as \\n resolved)."""
    try:
        return next(iter(tomllib.loads(f'"{key}" = 0')))
    except tomllib.TOMLDecodeError:
        return key


def _unquote(name: str) -> str:
    return name.strip().strip("\"'")


def _opens_multiline(line: str) -> str | None:
    """The triple quote left open at the end of `line`, if any."""
    for quote in _TRIPLE_QUOTES:
        if line.count(quote) % 2 == 1:
            return quote
    return None
