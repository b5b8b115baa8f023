"""Reading a setup's "sides" for games whose sides have a name and nothing else.

side_names([{"name": "Ada"}, {"name": ""}], fewest=2, most=4, game="memento ludis")
# ('Ada', 'Player 2')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.contract import BadSetup


def side_names(raw: Any, *, fewest: int, most: int, game: str) -> tuple[str, ...]:
    """The names in seating order; a blank name is 'Player N'. BadSetup names the field."""
    if not isinstance(raw, Sequence) or isinstance(raw, str) or not fewest <= len(raw) <= most:
        players = f"{fewest} to {most} players" if fewest != most else _players(fewest)
        raise BadSetup("sides", f"{game} is played by {players}")
    names = []
    for i, item in enumerate(raw):
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
            raise BadSetup(f"sides[{i}]", 'must be an object with a "name"')
        if set(item) - {"name"}:
            raise BadSetup(f"sides[{i}].{sorted(set(item) - {'name'})[0]}", "is not a side key")
        names.append(item["name"].strip() or f"Player {i + 1}")
    return tuple(names)


def _players(count: int) -> str:
    return f"{count} player" + ("s" if count != 1 else "")
