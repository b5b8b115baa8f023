"""Random games of any plugin, for the conformance suite: played with the plugin's own random
player, capped, and written as game records through the referee and the store.

    game = play(find_plugin("mem"), setup, seed=7)
    game.final, game.actions, game.events
    text, live = record_live(plugin, setup, game.actions, directory)
"""

from __future__ import annotations

import io
import itertools
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from companion.games import plugin_names
from companion.games.contract import JSON, Action, Event, GameEngine, Viewer
from companion.games.plugin import GamePlugin
from companion.session import Referee
from companion.store import Store

PLUGINS = plugin_names()
"""Every registered game: a game added to the registry is checked with no edit here."""

MAX_ACTIONS = 300
"""A random game stops here if it has not ended: enough to reach every phase of the games we
have (a MemWars review can run to a thousand answers) while keeping the suite quick."""

SETTINGS = settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
"""For the checks that play one or two random games per example."""

SEEDS = st.integers(0, 2**32 - 1)

DECK: JSON = {"id": "none", "hash": "0"}
"""The deck a recorded game names: the engines do not read it."""


@dataclass(frozen=True)
class Step:
    action: Action
    state: Any
    """The state after `action`."""
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Game:
    plugin: GamePlugin
    setup: JSON
    seed: int
    start: Any
    opening: tuple[Event, ...]
    """What `start` reported before the first decision."""
    steps: tuple[Step, ...]

    @property
    def engine(self) -> GameEngine[Any]:
        return self.plugin.engine

    @property
    def states(self) -> list[Any]:
        """Every state, the start first: states[i] is the one actions[i] was applied to."""
        return [self.start, *(step.state for step in self.steps)]

    @property
    def actions(self) -> list[Action]:
        return [step.action for step in self.steps]

    @property
    def events(self) -> list[Event]:
        return [*self.opening, *itertools.chain.from_iterable(s.events for s in self.steps)]

    @property
    def final(self) -> Any:
        return self.steps[-1].state if self.steps else self.start


def seeded(setup: JSON, seed: int) -> JSON:
    """`setup` with its seed replaced, when it has one (every game so far has)."""
    return {**setup, "seed": seed} if "seed" in setup else dict(setup)


def setups(plugin: GamePlugin) -> st.SearchStrategy[tuple[JSON, int]]:
    """(setup, seed): one of the plugin's example setups with a seed varied by hypothesis; the
    same seed drives the random player."""
    return st.tuples(st.sampled_from(list(plugin.example_setups())), SEEDS).map(
        lambda pair: (seeded(pair[0], pair[1]), pair[1])
    )


def play(plugin: GamePlugin, setup: JSON, seed: int, max_actions: int = MAX_ACTIONS) -> Game:
    """A game from `setup` played by `plugin.random_action` with `random.Random(seed)`, until
    it ends or `max_actions` have been taken."""
    engine = plugin.engine
    rng = random.Random(seed)
    start, opening = engine.start(setup)
    state = start
    steps: list[Step] = []
    while len(steps) < max_actions and not engine.is_over(state):
        action = plugin.random_action(state, rng)
        state, events = engine.apply(state, action)
        steps.append(Step(action, state, events))
    return Game(plugin, setup, seed, start, tuple(opening), tuple(steps))


def replay_actions(plugin: GamePlugin, setup: JSON, actions: Sequence[Action]) -> Game:
    """The game `actions` make from `setup`, applied one by one (no random player)."""
    engine = plugin.engine
    start, opening = engine.start(setup)
    state = start
    steps: list[Step] = []
    for action in actions:
        state, events = engine.apply(state, action)
        steps.append(Step(action, state, events))
    return Game(plugin, setup, -1, start, tuple(opening), tuple(steps))


def side_count(engine: GameEngine[Any], state: Any) -> int:
    """How many sides play: every game's setup lists them under "sides" (as the UI reads)."""
    sides = engine.setup_of(state)["sides"]
    assert isinstance(sides, list) and sides, "a setup lists its sides under 'sides'"
    return len(sides)


def viewers(engine: GameEngine[Any], state: Any) -> list[Viewer]:
    """Every viewer the contract names: the spectator, the table and each side."""
    return ["spectator", "table", *range(side_count(engine, state))]


def assert_json_safe(value: Any, what: str) -> None:
    """`value` survives JSON unchanged: no tuples, no int keys, no NaN, no objects."""
    try:
        text = json.dumps(value, allow_nan=False)
    except (TypeError, ValueError) as err:
        raise AssertionError(f"{what} is not JSON-safe: {err}") from None
    assert json.loads(text) == value, f"{what} changes through JSON: {value!r}"


@dataclass(frozen=True)
class Live:
    """A game as the referee played it and the store recorded it."""

    record: str
    """The game record, as `companion export` writes it."""
    state: Any
    events: tuple[tuple[int, Event], ...]
    """Every event the referee reported, with the seq of the action that caused it."""


def record_live(
    plugin: GamePlugin, setup: JSON, actions: Sequence[Action], directory: Path
) -> Live:
    """Referees `actions` from `setup` through a real store in `directory`, then exports the
    game's record: the path a game at the table takes to a record file."""
    ticks = itertools.count()
    with Store.open(directory / "games.sqlite3") as store:
        # A clock that moves one second per reading, so that every `t` is distinct and exact.
        referee = Referee.start(store, plugin.name, setup, DECK, clock=lambda: float(next(ticks)))
        events: list[tuple[int, Event]] = []
        for action in actions:
            happened = referee.submit(action)
            events.extend((referee.seq, event) for event in happened)
        out = io.StringIO()
        store.export(referee.game_id, out)
        return Live(out.getvalue(), referee.state, tuple(events))
