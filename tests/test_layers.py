"""The import direction of the whole product, read from the source (every import, those
inside functions and under TYPE_CHECKING too): the engines import nothing above them, no
command is imported by anything but the command line, no module of `companion` imports
itself round in a circle, and the generic layers name no game.

A game is one plugin: what the rest of the product knows of a game it asks the game's plugin
(companion/games/plugin.py), and no game imports another.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("memwars", "mem", "memento", "mnemo")


GAME_SHELLS = ("play", "screens", "command", "printing")
"""The parts of a game's package that may use the product's generic layers: its play at the
table, its screens, its commands and its printables. Everything else in a game's package is
its engine."""

ENGINE_MAY_IMPORT = ("companion.games", "companion.errors")


def module_name(path: Path) -> str:
    name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return name.removesuffix(".__init__")


def modules(package: str) -> dict[str, Path]:
    return {module_name(p): p for p in sorted((ROOT / package).rglob("*.py"))}


def imports(path: Path) -> Iterator[str]:
    """Every module `path` imports, by its full dotted name (relative imports resolved)."""
    package = (
        module_name(path).rsplit(".", 1)[0] if path.name != "__init__.py" else module_name(path)
    )
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def is_engine(name: str) -> bool:
    parts = name.split(".")
    return parts[:2] == ["companion", "games"] and not (len(parts) > 3 and parts[3] in GAME_SHELLS)


def test_the_engines_import_nothing_above_them() -> None:
    wrong = {
        name: sorted(
            target
            for target in imports(path)
            if target.startswith("companion") and not target.startswith(ENGINE_MAY_IMPORT)
        )
        for name, path in modules("companion").items()
        if is_engine(name)
    }
    assert {name: found for name, found in wrong.items() if found} == {}


def test_vision_never_imports_companion() -> None:
    wrong = {
        name: sorted(t for t in imports(path) if t.split(".")[0] == "companion")
        for name, path in modules("vision").items()
    }
    assert {name: found for name, found in wrong.items() if found} == {}


def test_commands_are_imported_by_the_command_line_alone() -> None:
    wrong = {
        name: sorted(t for t in imports(path) if t.startswith("companion.commands"))
        for name, path in modules("companion").items()
        if not name.startswith("companion.commands") and name != "companion.cli"
    }
    assert {name: found for name, found in wrong.items() if found} == {}


def test_the_generic_layers_name_no_game() -> None:
    named: dict[str, set[str]] = defaultdict(set)
    for name, path in modules("companion").items():
        if name.startswith("companion.games"):
            continue
        for target in imports(path):
            parts = target.split(".")
            if parts[:2] == ["companion", "games"] and len(parts) > 2 and parts[2] in GAMES:
                named[name].add(parts[2])
    assert dict(named) == {}


def test_no_game_imports_another() -> None:
    wrong: dict[str, set[str]] = defaultdict(set)
    for name, path in modules("companion").items():
        parts = name.split(".")
        if parts[:2] != ["companion", "games"] or len(parts) < 3 or parts[2] not in GAMES:
            continue
        for target in imports(path):
            other = target.split(".")
            in_games = other[:2] == ["companion", "games"] and len(other) > 2
            if in_games and other[2] in GAMES and other[2] != parts[2]:
                wrong[name].add(other[2])
    assert dict(wrong) == {}


def cycles(package: str) -> list[list[str]]:
    """The import circles among `package`'s modules (strongly connected components)."""
    found = modules(package)
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in found.items():
        for target in imports(path):
            while target and target not in found:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                graph[name].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for name in sorted(found):
        if name not in index:
            visit(name)
    return circles


@pytest.mark.parametrize("package", ["companion", "vision"])
def test_no_import_circle(package: str) -> None:
    assert cycles(package) == []
