"""docs/tournament.md's examples are payloads the schemas accept, and the hub makes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.publish.wire import validate

ROOT = Path(__file__).resolve().parents[2]


def kind_of(data: dict[str, Any]) -> str:
    if "standings" in data:
        return "standings"
    return "pairings" if "tables" in data else "assignment"


def test_the_examples_validate() -> None:
    text = (ROOT / "docs/tournament.md").read_text()
    kinds = []
    for block in text.split("```json\n")[1:]:
        data = json.loads(block.split("```", 1)[0])
        validate(kind_of(data), data)
        kinds.append(kind_of(data))
    assert sorted(kinds) == ["assignment", "pairings", "standings"]


def test_the_readme_lists_the_command() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "| `companion tournament new EVENT" in readme
    assert "[docs/tournament.md](docs/tournament.md)" in readme
