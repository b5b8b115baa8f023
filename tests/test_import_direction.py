"""Which package may import which, read from the source with `ast`, not from a running
interpreter: every import counts, at module level, inside a function or under
`if TYPE_CHECKING:`, since a local import is as much a dependency as any other, only a
hidden one.

    LAYERS                       # (lower, upper): the lower package never imports the upper
    import_graph("vision")       # {"vision.reader": {"vision.calibration", ...}, ...}
    import_cycles("vision")      # [["vision.a", "vision.b"], ...]: each a circle of modules

To add a rule, add a pair to LAYERS; to check another package for cycles, add it to
ACYCLIC.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping, Set
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

LAYERS: tuple[tuple[str, str], ...] = (("vision", "companion"),)
"""(lower, upper): no module of the lower package imports the upper one. The camera
pipeline is a library the companion uses, and it must stay usable (and testable) alone."""

ACYCLIC: tuple[str, ...] = ("vision",)
"""Packages with no import cycle among their own modules. companion is not here yet: it
has cycles still (see companion_cycles below, which lists them without asserting)."""


def module_files(package: str) -> dict[str, Path]:
    """Every module of `package` by dotted name; a package by its own name (its __init__)."""
    modules: dict[str, Path] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def imported_names(module: str, path: Path) -> Iterator[str]:
    """The dotted names `module` imports, anywhere in its file: for `from a import b` both
    `a.b` (b may be a module) and `a`, relative imports made absolute."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                here = module.split(".") if is_package else module.split(".")[:-1]
                base = here[: len(here) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            yield source
            yield from (f"{source}.{alias.name}" for alias in node.names)


def imports_of_package(package: str, other: str) -> dict[str, set[str]]:
    """For each module of `package` that imports anything of `other`, the modules of `other`
    it imports (`from a.b import f` counts as a.b, not also as a.b.f)."""
    found: dict[str, set[str]] = {}
    for module, path in module_files(package).items():
        names = {
            name
            for name in imported_names(module, path)
            if name == other or name.startswith(other + ".")
        }
        names -= {name for name in names if name.rpartition(".")[0] in names}
        if names:
            found[module] = names
    return found


def import_graph(package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports. An import of a name inside a
    module (`from a.b import f`) is an edge to a.b; importing a.b.c is not counted as an
    import of the packages a and a.b, whose __init__ Python runs on the way, since a
    package's __init__ importing its own modules is no circle anybody has to untangle."""
    modules = module_files(package)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = {name for name in imported_names(module, path) if name in modules}
        # `from a import b` yields both a and a.b: when b is a module, a is not imported
        # for b's sake (only its __init__ runs), so the edge is to a.b alone.
        targets -= {name.rpartition(".")[0] for name in targets}
        targets.discard(module)
        graph[module] = targets
    return graph


def strongly_connected(graph: Mapping[str, Set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm,
    iterative, so that no package is too deep for it), each sorted, sorted by first name."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, ())))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
    return sorted(components)


def one_cycle(graph: Mapping[str, Set[str]], component: list[str]) -> list[str]:
    """One circle through a component, as the modules in import order, the first again at
    the end: what a reader follows to see why the component is one."""
    members = set(component)
    start = component[0]
    # Breadth-first from start back to start, inside the component: the shortest circle.
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for successor in sorted(graph[node] & members):
                if successor == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if successor not in came_from:
                    came_from[successor] = node
                    following.append(successor)
        frontier = following
    raise AssertionError(f"{component} is no cycle")


def import_cycles(package: str) -> list[tuple[list[str], list[str]]]:
    """Each strongly connected component of `package` (modules that all reach each other
    through imports), with one circle through it."""
    graph = import_graph(package)
    return [(component, one_cycle(graph, component)) for component in strongly_connected(graph)]


def describe(cycles: list[tuple[list[str], list[str]]]) -> str:
    return "\n".join(
        " -> ".join(cycle)
        + ("" if len(component) < len(cycle) else f" (one tangle: {', '.join(component)})")
        for component, cycle in cycles
    )


@pytest.mark.parametrize(("lower", "upper"), LAYERS)
def test_lower_layer_never_imports_upper(lower: str, upper: str) -> None:
    found = imports_of_package(lower, upper)
    assert not found, f"{lower} imports {upper}:\n" + "\n".join(
        f"{module}: {', '.join(sorted(names))}" for module, names in sorted(found.items())
    )


@pytest.mark.parametrize("package", ACYCLIC)
def test_no_import_cycle(package: str) -> None:
    cycles = import_cycles(package)
    assert not cycles, f"import cycles in {package}:\n{describe(cycles)}"


def test_cycle_finder_finds_a_circle_and_nothing_else() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": set()}
    assert strongly_connected(graph) == [["a", "b", "c"]]
    assert one_cycle(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_every_import_is_seen_and_relative_ones_resolve(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text(
        "from . import sibling\nfrom .. import top\nfrom .pkg.deep import name\n"
        "def f():\n    import x.y\n"
        "if TYPE_CHECKING:\n    from z import Z\n",
        encoding="utf-8",
    )
    names = set(imported_names("p.q.m", path))
    assert {"p.q.sibling", "p.top", "p.q.pkg.deep", "x.y", "z"} <= names


def companion_cycles() -> list[tuple[list[str], list[str]]]:
    """The import cycles companion has today, for a reader to list (not asserted: add
    "companion" to ACYCLIC once there are none)."""
    return import_cycles("companion")


if __name__ == "__main__":
    for package in ("vision", "companion"):
        print(f"{package}:\n{describe(import_cycles(package)) or '(no cycle)'}")
    for lower, upper in LAYERS:
        for module, names in sorted(imports_of_package(lower, upper).items()):
            print(f"{module} imports {', '.join(sorted(names))}")
