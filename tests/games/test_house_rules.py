"""Every house rule is described, and each of its other values starts a game (or is refused
naming the rule, when it needs settings an example setup lacks) that random play can finish."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings

from companion.games.contract import JSON, BadSetup
from companion.games.house_rules import HouseRule
from companion.games.plugin import GamePlugin

from .play import SEEDS, SETTINGS, play, seeded

HOUSE_RULE_ACTIONS = 100
"""Random play under each house rule stops here: enough to pass the opening phases."""


def other_values(rule: HouseRule) -> list[Any]:
    """The values a switch can take besides its default: its alternatives, or for a switch
    checked by a function (a count), the neighbours of the default it accepts."""
    if rule.alternatives:
        return list(rule.alternatives)
    default = rule.default
    if isinstance(default, int) and not isinstance(default, bool):
        return [v for v in (default - 1, default + 1) if rule.problem(v) is None]
    return []


def test_every_house_rule_is_described(plugin: GamePlugin) -> None:
    rules = list(plugin.house_rules)
    keys = [r.key for r in rules]
    assert len(set(keys)) == len(keys), "a key is used twice"
    assert len({r.attribute for r in rules}) == len(rules), "an attribute is used twice"
    for rule in rules:
        assert isinstance(rule.key, str) and rule.key.strip(), rule
        assert rule.default in rule.choices, rule.key
        assert rule.problem(rule.default) is None, rule.key
        assert rule.settles.startswith(plugin.rule_prefix), rule.key
        # One sentence per value, default first, joined by " / " (house_rules.HouseRule).
        sentences = rule.meaning.split(" / ")
        assert len(sentences) == len(rule.choices), rule.key
        assert all(s.strip() for s in sentences), rule.key
        assert other_values(rule) or rule.validate is not None, rule.key


def with_each_other_value(plugin: GamePlugin) -> Iterator[tuple[HouseRule, Any, JSON, JSON]]:
    """(rule, value, example setup, that setup with only that house rule changed)."""
    for rule in plugin.house_rules:
        for value in other_values(rule):
            for example in plugin.example_setups():
                yield rule, value, example, {**example, "house_rules": {rule.key: value}}


def test_every_other_value_starts_a_game(plugin: GamePlugin) -> None:
    engine = plugin.engine
    started: dict[tuple[str, Any], int] = {}
    for rule, value, _, setup in with_each_other_value(plugin):
        started.setdefault((rule.key, value), 0)
        try:
            state, _ = engine.start(setup)
        except BadSetup as err:
            # The value needs a setting this example lacks (MeM's agreed first player needs
            # a first_player): the refusal must say which switch asked for it.
            assert rule.key in str(err), (rule.key, value, str(err))
            continue
        started[rule.key, value] += 1
        kept = engine.setup_of(state).get("house_rules", {})
        assert kept.get(rule.key) == value, (rule.key, value, kept)
        assert engine.new_game(engine.setup_of(state)) == engine.new_game(setup)
    never = sorted(str(pair) for pair, count in started.items() if not count)
    assert not never, f"no example setup starts a game with {never}"


@settings(SETTINGS, max_examples=3)
@given(seed=SEEDS)
def test_random_games_play_under_every_other_value(plugin: GamePlugin, seed: int) -> None:
    engine = plugin.engine
    for rule, value, example, setup in with_each_other_value(plugin):
        setup = seeded(setup, seed)
        try:
            engine.start(setup)
        except BadSetup:
            continue
        try:
            play(plugin, setup, seed, HOUSE_RULE_ACTIONS)
        except Exception as err:
            raise AssertionError(f"{rule.key}={value!r} with {example}: {err!r}") from err
