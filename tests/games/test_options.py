"""Every option of every game (companion/games/options.py) is described, reaches the engine's
setup when chosen, and begins a game; and the rows of New game are what the All options page
opens on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.config import Config
from companion.games import find_engine, plugin_names
from companion.games.options import (
    CLOCK,
    BadOption,
    GameOption,
    apply_options,
    check_options,
    option_for,
    options_in,
)
from companion.games.plugin import GamePlugin
from companion.store import Store
from companion.table.choices import Players
from companion.table.play import seat_of

CONTEXT: dict[str, dict[str, Any]] = {
    # What an option needs beside it to mean anything: a side's own mode is Hybrid's only.
    "sides.*.mode": {"mode": "hybrid"},
}


def _players(form: Any) -> Players:
    colours = tuple(form.colours)[:2] if form.colours else ("", "")
    return Players(names=("Ada", "Bo"), colours=colours)


def _at(setup: dict[str, Any], key: str) -> Any:
    """The value at `key` in a setup; None where the setup leaves it out (as setups leave
    out what the book leaves empty)."""
    data: Any = setup
    for part in key.split("."):
        if isinstance(data, list):
            data = data[int(part)]
        elif part in data:
            data = data[part]
        else:
            return None
    return data


def test_every_option_is_described_and_its_default_is_one_of_its_values(
    plugin: GamePlugin,
) -> None:
    keys = [option.key for option in plugin.options]
    assert len(keys) == len(set(keys)), "an option listed twice"
    for option in plugin.options:
        assert option.question.endswith("?"), option.key
        assert option.group, option.key
        if option.rule:
            assert option.rule.startswith(plugin.rule_prefix), option.key
        if option.many:
            assert check_options({option.key: option.default}, plugin.options), option.key
        elif not option.typed:
            assert option.problem(option.default) is None, option.key


def _values(option: GameOption) -> list[Any]:
    if option.typed:
        return []
    if option.many:
        items = [value for _text, value in option.choices]
        return [items[:1], items[-1:], items]
    return [value for _text, value in option.choices]


def test_every_value_of_every_option_begins_a_game_that_has_it(
    plugin: GamePlugin, tmp_path: Path
) -> None:
    seat = seat_of(plugin.name)
    form = seat.form(plugin.name)
    defaults = {row.key: row.default for row in form.rows(Config())}
    began = refused = 0
    with Store.open(tmp_path / "games.sqlite3") as store:
        for option in plugin.options:
            key = option.for_side(1) if option.per_side else option.key
            for value in _values(option):
                chosen = {**CONTEXT.get(option.key, {}), key: value}
                if key.startswith(CLOCK):
                    chosen.update({f"{CLOCK}controls.{s}": value for s in range(2)})
                choices = form.choices(defaults, _players(form), {}, chosen)
                try:
                    referee = seat.begin(choices, store, Config())
                except ValueError as err:
                    # A value this game cannot take with the rest as they are (a fourth side's
                    # first move in a game of two, a depth the deck has not) is refused in a
                    # sentence naming the setup's field.
                    assert key.split(".")[0] in str(err), (key, value, err)
                    refused += 1
                    continue
                began += 1
                header = store.header(referee.game_id)
                if key.startswith(CLOCK):
                    controls = (header.clock or {}).get("controls") if value else None
                    assert controls == ([value, value] if value else None), (key, value)
                    continue
                engine = find_engine(plugin.name)
                setup = engine.setup_of(referee.state)
                shown = "roll" if value == "roll" else value
                assert _at(setup, key) == shown, (key, value)
    assert began > refused


def test_the_all_options_page_opens_on_what_the_rows_say(plugin: GamePlugin) -> None:
    form = seat_of(plugin.name).form(plugin.name)
    defaults = {row.key: row.default for row in form.rows(Config())}
    implied = form.options_of(defaults, Config())
    assert check_options(implied, plugin.options) == implied
    for key, value in implied.items():
        option = option_for(key, plugin.options)
        assert option is not None and option.problem(value) is None, (key, value)


def test_the_rows_of_memwars_are_options_on_the_page() -> None:
    form = seat_of("memwars").form("memwars")
    picks = {row.key: row.default for row in form.rows(Config())}
    picks.update(depth=3, quadrants=2, topology="competitive", handicap=1, time_control="5+3")
    implied = form.options_of(picks, Config())
    assert implied["depth"] == 3
    assert implied["quadrants"] == [1, 2]
    assert implied["topology.kind"] == "competitive"
    assert implied["sides.1.depth"] == 4
    assert implied["clock.controls.0"] == implied["clock.controls.1"] == "5+3"


def test_options_are_checked_by_key_side_and_value() -> None:
    options = (
        GameOption("depth", "Depth", "How deep?", "", 1, (("1", 1), ("2", 2), ("Roll", "roll"))),
        GameOption("sides.*.depth", "Depth", "Own depth?", "", None, (("No", None), ("2", 2))),
        GameOption("quadrants", "Board", "Which?", "", [1, 2], (("1", 1), ("2", 2)), many=True),
        GameOption("board", "Deal", "Dealt by hand?", "", "", ()),
        GameOption("timer", "Time", "Timed?", "", False, (("No", False), ("Yes", True))),
    )
    assert check_options({"quadrants": [2, 1], "sides.1.depth": 2}, options) == {
        "quadrants": [1, 2],
        "sides.1.depth": 2,
    }
    assert check_options({"board": "  "}, options) == {}
    for bad, field in (
        ({"depth": 4}, "depth"),
        ({"depth": True}, "depth"),
        ({"timer": 1}, "timer"),
        ({"quadrants": []}, "quadrants"),
        ({"quadrants": [1, 1]}, "quadrants"),
        ({"sides.9.depth": 2}, "sides.9.depth"),
        ({"sides.*.depth": 2}, "sides.*.depth"),
        ({"colour": "red"}, "colour"),
        ({"board": 7}, "board"),
    ):
        with pytest.raises(BadOption) as caught:
            check_options(bad, options)
        assert caught.value.key == field


def test_options_go_where_their_keys_say_and_no_side_is_made() -> None:
    setup: dict[str, Any] = {
        "depth": 1,
        "sides": [{"name": "Ada"}, {"name": "Bo"}],
        "topology": {"kind": "flat"},
    }
    out = apply_options(
        setup,
        {
            "depth": "roll",
            "sides.1.depth": 3,
            "sides.3.depth": 2,
            "topology.scoring": "multiply",
            "patterns.quincunx": 5,
            "clock.controls.0": "5+3",
        },
    )
    assert out == {
        "depth": "roll",
        "sides": [{"name": "Ada"}, {"name": "Bo", "depth": 3}],
        "topology": {"kind": "flat", "scoring": "multiply"},
        "patterns": {"quincunx": 5},
    }
    assert setup["depth"] == 1 and "depth" not in setup["sides"][1]  # the setup is not changed
    option = GameOption("sides.*.depth", "Depth", "Own depth?", "", None, (("No", None),))
    assert options_in(out, (option,), 2) == {"sides.1.depth": 3}


@pytest.mark.parametrize("game", plugin_names())
def test_every_game_has_options(game: str) -> None:
    from companion.games import find_plugin

    assert find_plugin(game).options


def test_a_name_with_an_ampersand_is_a_team_playing_one_side(tmp_path: Path) -> None:
    seat = seat_of("memwars")
    form = seat.form("memwars")
    picks = {row.key: row.default for row in form.rows(Config())}
    players = Players(names=("Ann & Bo", "Cy"), colours=("red", "blue"))
    with Store.open(tmp_path / "games.sqlite3") as store:
        referee = seat.begin(form.choices(picks, players, {}, {}), store, Config())
        sides = store.header(referee.game_id).setup["sides"]
    assert sides[0]["name"] == "Ann & Bo" and sides[0]["members"] == ["Ann", "Bo"]
    assert sides[1]["members"] == ["Cy"]
