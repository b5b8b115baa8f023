"""Setups as data (companion/table/setups.py, `companion setup`, `--setup`): a setup file is
read back as written, every file is a setup or one clear line, a named setup is kept in the
user data directory, and a game begun from a setup has its options and house rules."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from companion.cli import main
from companion.config import Config
from companion.errors import UserError
from companion.games import find_plugin, plugin_names
from companion.games.options import GameOption
from companion.store import Store
from companion.table.play import seat_of
from companion.table.setups import (
    GameSetup,
    check_setup,
    choices_for,
    find_setup,
    parse_setup,
    read_setup,
    save_setup,
    saved_setups,
    setup_text,
    setups_dir,
    template,
)
from tests.fuzz.harness import FUZZ, hostile_scalar, survives


@pytest.fixture(autouse=True)
def _private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.toml"))


def _value(option: GameOption) -> st.SearchStrategy[Any]:
    if option.typed:
        return st.text(alphabet='ABCDEF/ .x"\\\n\t', min_size=1, max_size=12)
    values = [value for _text, value in option.choices]
    if option.many:
        return st.lists(st.sampled_from(values), min_size=1, unique=True).map(
            lambda chosen: [v for v in values if v in chosen]
        )
    return st.sampled_from(values)


@st.composite
def setups(draw: st.DrawFn) -> GameSetup:
    game = draw(st.sampled_from(plugin_names()))
    plugin = find_plugin(game)
    options: dict[str, Any] = {}
    for option in draw(st.lists(st.sampled_from(list(plugin.options)), unique_by=lambda o: o.key)):
        key = option.for_side(draw(st.integers(0, 1))) if option.per_side else option.key
        value = draw(_value(option))
        if not (option.typed and not value.strip()):
            options[key] = value
    rules = {
        rule.key: draw(st.sampled_from(rule.alternatives))
        for rule in draw(st.lists(st.sampled_from(list(plugin.house_rules)), unique=True))
        if rule.alternatives
    }
    name = draw(st.text(min_size=0, max_size=12).map(str.strip))
    return GameSetup(game, options, rules, name)


@FUZZ
@given(setups())
@example(GameSetup("memwars", {}, {}, "\x7f"))  # DEL: TOML wants it escaped, JSON does not
def test_a_setup_written_is_read_back_the_same(setup: GameSetup) -> None:
    import tomllib

    assert parse_setup(tomllib.loads(setup_text(setup)), "a file") == setup


@FUZZ
@given(
    text=st.one_of(
        st.text(max_size=200),
        st.builds(
            lambda game, key, value: (
                f"game = {json.dumps(game)}\n[options]\n"
                f"{json.dumps(key)} = {json.dumps(value) if not isinstance(value, float) else 1}\n"
            ),
            st.sampled_from([*plugin_names(), "chess", ""]),
            st.sampled_from(["depth", "quadrants", "sides.1.depth", "sides.*.depth", "x", "game"]),
            st.one_of(hostile_scalar(), st.lists(st.integers(-3, 6), max_size=5)),
        ),
    )
)
def test_every_file_is_a_setup_or_one_clear_line(text: str, tmp_path_factory: Any) -> None:
    path = tmp_path_factory.mktemp("setup") / "setup.toml"
    path.write_text(text, encoding="utf-8", errors="surrogatepass") if _encodable(text) else None
    if not path.exists():
        return
    error = survives("setup file", lambda: read_setup(path))
    if error is not None:
        assert "\n" not in str(error).strip()
        assert str(path) in str(error)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def test_a_template_lists_every_option_and_house_rule_and_reads_as_a_setup() -> None:
    import tomllib

    for game in plugin_names():
        text = template(game)
        plugin = find_plugin(game)
        for option in plugin.options:
            assert option.question in text
        for rule in plugin.house_rules:
            assert rule.key in text
        assert parse_setup(tomllib.loads(text), "template") == GameSetup(game)
        # Every commented line of it uncommented is a good setup too.
        setting = re.compile(r'^# ("[^"]+"|[A-Za-z0-9_-]+) = ')
        uncommented = "\n".join(
            line[2:] if setting.match(line) else line for line in text.splitlines()
        )
        parse_setup(tomllib.loads(uncommented), "uncommented")


def test_named_setups_are_kept_listed_found_and_begin_games(tmp_path: Path) -> None:
    setup = GameSetup(
        "memwars",
        {
            "depth": "roll",
            "quadrants": [2],
            "sides.1.depth": 3,
            "clock.controls.0": "5+3",
            "clock.controls.1": "15+10",
        },
        {"mw.timer": "FLAG_LOSES"},
    )
    path = save_setup(setup, "Club: rapid")
    assert path.parent == setups_dir() and path.name == "club-rapid.toml"
    assert saved_setups("memwars") == [GameSetup(**{**setup.__dict__, "name": "Club: rapid"})]
    assert saved_setups("mem") == []
    assert find_setup("Club: rapid") == find_setup(str(path))
    (setups_dir() / "broken.toml").write_text("game = [", encoding="utf-8")
    assert len(saved_setups()) == 1  # a damaged file is left out, not fatal
    with Store.open(tmp_path / "games.sqlite3") as store:
        referee = seat_of("memwars").begin(choices_for(setup, Config()), store, Config())
        header = store.header(referee.game_id)
    assert header.setup["depth"] == "roll" and header.setup["quadrants"] == [2]
    assert header.setup["sides"][1]["depth"] == 3
    assert header.setup["house_rules"] == {"mw.timer": "FLAG_LOSES"}
    assert header.clock is not None and header.clock["controls"] == ["5+3", "15+10"]


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"depth": 5, "quadrants": [1]}, None),
        ({"clock.controls.0": "5+3"}, "give every side a time"),
        ({"first_player": 3}, "first_player"),
        ({"mode": "study", "sides.0.mode": "basic"}, "mode"),
    ],
)
def test_a_setup_is_checked_by_beginning_its_game(
    options: dict[str, Any], said: str | None
) -> None:
    setup = GameSetup("memwars", options)
    if said is None:
        check_setup(setup, Config())
        return
    with pytest.raises(UserError, match=said):
        check_setup(setup, Config())


def test_the_setup_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mem.toml"
    assert main(["setup", "new", "mem", "--out", str(out)]) == 0
    assert main(["setup", "new", "mem", "--out", str(out)]) == 2  # not overwritten
    out.write_text('game = "mem"\nname = "Minis"\n[options]\ngame = "mini"\n', encoding="utf-8")
    assert main(["setup", "check", str(out)]) == 0
    assert main(["setup", "save", str(out)]) == 0
    capsys.readouterr()
    assert main(["setup", "list"]) == 0
    assert "Minis: MeM" in capsys.readouterr().out
    assert main(["setup", "show", "minis"]) == 0
    assert 'game = "mini"' in capsys.readouterr().out
    assert main(["setup", "delete", "Minis"]) == 0
    assert main(["setup", "show", "Minis"]) == 2
    capsys.readouterr()
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "mem"\n[options]\ngame = "chess"\n', encoding="utf-8")
    assert main(["setup", "check", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "options.game: must be one of" in err and err.count("\n") == 1


def test_the_terminal_game_is_played_with_a_setup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    setup = tmp_path / "small.toml"
    setup.write_text(
        'game = "memwars"\n[options]\nquadrants = [4]\n"topology.kind" = "standard"\n'
        '[house_rules]\n"mw.standard.allowPass" = true\n',
        encoding="utf-8",
    )
    code = main(
        ["run", "--no-app", "--no-stream", "--no-camera", "--setup", str(setup), "--linger", "0"]
    )
    assert code == 0
    with Store.open(Path(tmp_path / "data" / "games.sqlite3")) as store:
        (game,) = store.games()
        header = store.header(game.id)
    assert header.setup["quadrants"] == [4]
    assert header.setup["topology"]["kind"] == "standard"
    assert header.setup["house_rules"] == {"mw.standard.allowPass": True}
