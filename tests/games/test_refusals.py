"""A refused action changes nothing and names a rule the game's rules doc explains
(docs/engine.md, rule 6).

Refusals are provoked by replaying, at random points of a random game, actions taken at other
points of it or in another game of the same plugin, and those actions with their `side`
changed: most are out of turn or out of phase, some happen to be legal.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from companion.games.contract import Action, IllegalAction
from companion.games.plugin import GamePlugin

from .play import SETTINGS, Game, play, setups, side_count

ROOT = Path(__file__).resolve().parents[2]

TRIES_PER_POINT = 40


# ----------------------------------------------------------------- the rules doc's table


def documented_rule_ids(plugin: GamePlugin) -> set[str]:
    """The ids in the first column of the table under "## Rule ids in refusals" of the
    plugin's rules doc. Both docs write rows as `| ID | words |`; their header rows and
    separators differ (`| id | the rule |` and `| --- |`, `| Id | Refused because |` and
    `|---|`), and MemWars' section is the last of its file, so the section runs to the next
    "## " heading or the end, and only rows whose first cell starts with the prefix count."""
    text = (ROOT / "docs" / plugin.rules_doc).read_text()
    heading = "\n## Rule ids in refusals"
    assert heading in text, f"docs/{plugin.rules_doc} has no '## Rule ids in refusals'"
    section = text.split(heading, 1)[1].split("\n## ", 1)[0]
    cells = re.findall(r"^\|\s*([^|\s]+)\s*\|", section, flags=re.MULTILINE)
    return {cell for cell in cells if cell.startswith(plugin.rule_prefix)}


def test_the_rules_doc_lists_rule_ids(plugin: GamePlugin) -> None:
    assert documented_rule_ids(plugin)


# ----------------------------------------------------------------- ids in the sources


def package_dir(plugin: GamePlugin) -> Path:
    """The directory of the package the plugin's class is defined in."""
    return Path(inspect.getfile(type(plugin))).parent


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level `NAME = "text"` (annotated or not)."""
    out: dict[str, str] = {}
    for node in tree.body:
        target, value = None, None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        if (
            isinstance(target, ast.Name)
            and isinstance(value, ast.Constant)
            and isinstance(value.value, str)
        ):
            out[target.id] = value.value
    return out


def _strings_assigned(func: ast.FunctionDef, name: str) -> set[str]:
    """The strings written in the expressions a function assigns to local `name`
    (`rule = "A" if review else "B"`)."""
    out: set[str] = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            out |= {
                c.value
                for c in ast.walk(node.value)
                if isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value
            }
    return out


def _is_illegal_action(call: ast.Call) -> bool:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return name == "IllegalAction"


def rule_ids_in_sources(directory: Path) -> set[str]:
    """Every rule id a refusal in the package's sources names as written: the first argument
    of `IllegalAction(...)` when it is a string, a module constant, or a parameter of the
    function it is raised in (then the strings the package passes for that parameter), or a
    local variable (then the strings in what is assigned to it). An id that reaches a refusal
    through the state (MemWars keeps why a side was barred from challenging in the claim) is
    checked by the refusals met in play below instead."""
    trees = {path: ast.parse(path.read_text()) for path in sorted(directory.rglob("*.py"))}
    found: set[str] = set()
    forwarding: dict[str, tuple[int, str]] = {}
    """Function name -> (position, name) of the parameter it passes as a rule id."""
    for tree in trees.values():
        constants = _constants(tree)
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef):
                continue
            params = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
            for call in ast.walk(func):
                if not (isinstance(call, ast.Call) and _is_illegal_action(call) and call.args):
                    continue
                rule = call.args[0]
                if isinstance(rule, ast.Constant) and isinstance(rule.value, str):
                    found.add(rule.value)
                elif isinstance(rule, ast.Name) and rule.id in constants:
                    found.add(constants[rule.id])
                elif isinstance(rule, ast.Name) and rule.id in params:
                    forwarding[func.name] = (params.index(rule.id), rule.id)
                elif isinstance(rule, ast.Name):
                    found |= _strings_assigned(func, rule.id)
    for tree in trees.values():
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            name = getattr(call.func, "id", None) or getattr(call.func, "attr", None)
            if name not in forwarding:
                continue
            position, keyword = forwarding[name]
            args = [*call.args[position : position + 1]]
            args += [k.value for k in call.keywords if k.arg == keyword]
            for arg in args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
    return found


def test_every_rule_id_in_the_sources_is_documented(plugin: GamePlugin) -> None:
    used = rule_ids_in_sources(package_dir(plugin))
    assert len(used) >= 5, f"only {sorted(used)} found in {package_dir(plugin)}"
    wrong_prefix = sorted(r for r in used if not r.startswith(plugin.rule_prefix))
    assert not wrong_prefix, f"rule ids without {plugin.rule_prefix!r}: {wrong_prefix}"
    undocumented = sorted(used - documented_rule_ids(plugin))
    assert not undocumented, f"not in docs/{plugin.rules_doc}: {undocumented}"


# ----------------------------------------------------------------- refusals in play


def _other_sides(action: Action, sides: int) -> list[Action]:
    """`action` as taken by each other side, and by the first side that does not exist."""
    side = getattr(action, "side", None)
    if not dataclasses.is_dataclass(action) or isinstance(side, bool) or not isinstance(side, int):
        return []
    return [dataclasses.replace(action, side=s) for s in range(sides + 1) if s != side]  # type: ignore[call-arg]


@dataclasses.dataclass(frozen=True)
class Attempt:
    game: Game
    point: int
    """The index in game.states of the state the action was tried on."""
    action: Action
    refusal: IllegalAction | None


def attempts(game: Game, other: Game, points: list[int], rng: random.Random) -> Iterator[Attempt]:
    """Tries actions from elsewhere at each point, checking after each that the state is as
    it was, and after each point that the state still takes the action the game took."""
    engine = game.engine
    states = game.states
    pool = [*game.actions, *other.actions]
    sides = side_count(engine, game.start)
    pool += [variant for action in pool for variant in _other_sides(action, sides)]
    for point in points:
        i = point % len(states)
        state = states[i]
        before = engine.state_to_dict(state)
        for action in rng.sample(pool, min(TRIES_PER_POINT, len(pool))):
            refusal = None
            try:
                engine.apply(state, action)
            except IllegalAction as err:
                refusal = err
            # Whether refused or not, apply is pure: the state it was given is untouched.
            assert engine.state_to_dict(state) == before, (i, action, refusal)
            yield Attempt(game, i, action, refusal)
        if i < len(game.steps):
            step = game.steps[i]
            assert engine.apply(state, step.action) == (step.state, step.events), i


def _games(plugin: GamePlugin, data: st.DataObject) -> tuple[Game, Game]:
    setup, seed = data.draw(setups(plugin), label="game")
    other_setup, other_seed = data.draw(setups(plugin), label="other game")
    return play(plugin, setup, seed), play(plugin, other_setup, other_seed)


POINTS = st.lists(st.integers(0, 10**6), min_size=1, max_size=6)


@SETTINGS
@given(data=st.data())
def test_a_refused_action_changes_nothing(plugin: GamePlugin, data: st.DataObject) -> None:
    game, other = _games(plugin, data)
    points = data.draw(POINTS, label="points")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="sampling"))
    tried = list(attempts(game, other, points, rng))
    assert tried


@SETTINGS
@given(data=st.data())
def test_every_refusal_names_a_documented_rule(plugin: GamePlugin, data: st.DataObject) -> None:
    documented = documented_rule_ids(plugin)
    game, other = _games(plugin, data)
    points = data.draw(POINTS, label="points")
    rng = random.Random(data.draw(st.integers(0, 2**32), label="sampling"))
    for attempt in attempts(game, other, points, rng):
        refusal = attempt.refusal
        if refusal is None:
            continue
        where: Any = (attempt.point, attempt.action)
        assert isinstance(refusal.rule, str), where
        assert refusal.rule.startswith(plugin.rule_prefix), (refusal.rule, where)
        assert refusal.rule in documented, (refusal.rule, f"docs/{plugin.rules_doc}", where)
        assert isinstance(refusal.explanation, str) and refusal.explanation.strip(), where
