"""Configuration files, generated from the settings there are and mutated: every one is in
force, or is one clear line; a setting that is in force can be used."""

from __future__ import annotations

import json
import os
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.config import Config, load_config, save_config, with_changes
from companion.errors import UserError
from tests.fuzz.harness import (
    FUZZ,
    FUZZ_SUBPROCESS,
    hostile_scalar,
    mutated,
    run_companion,
    survives,
    write,
)

DEFAULTS = Config().to_dict()
SETTINGS = [(section, key) for section, values in DEFAULTS.items() for key in values]


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(str(value), repr(value))
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{}"
    return "0" if value is None else str(value)


def setting_value(section: str, key: str) -> st.SearchStrategy[Any]:
    """A value of the setting's own type, mostly, else anything hostile."""
    default = DEFAULTS[section][key]
    if isinstance(default, bool):
        own: st.SearchStrategy[Any] = st.booleans()
    elif isinstance(default, int):
        own = st.integers(-(2**70), 2**70)
    elif isinstance(default, list):
        own = st.lists(st.integers(-5, 40), max_size=4)
    else:
        own = st.one_of(st.text(max_size=20), hostile_scalar().filter(lambda v: isinstance(v, str)))
    return st.one_of(own, own, hostile_scalar())


@st.composite
def config_text(draw: st.DrawFn) -> str:
    chosen = draw(st.lists(st.sampled_from(SETTINGS), max_size=6, unique=True))
    sections: dict[str, list[str]] = {}
    for section, key in chosen:
        value = draw(setting_value(section, key))
        sections.setdefault(section, []).append(f"{key} = {toml_value(value)}")
    if draw(st.integers(0, 9)) == 0:
        sections.setdefault(draw(st.sampled_from(("nosuch", "store"))), []).append("x = 1")
    return "".join(f"[{name}]\n" + "\n".join(lines) + "\n" for name, lines in sections.items())


def use(config: Config) -> None:
    """What the commands do with a configuration in force."""
    config.store.resolved_path()
    with_changes(config, {})
    with_changes(config, {"reader": {"port": "/dev/ttyUSB0"}})


def load_and_use(path: Path) -> None:
    config = load_config(path)
    use(config)
    save_config(config, path.with_name("saved.toml"))
    assert load_config(path.with_name("saved.toml")).to_dict() == config.to_dict()


@FUZZ
@given(text=config_text())
def test_a_generated_config_is_in_force_or_refused(tmp_path: Path, text: str) -> None:
    path = write(tmp_path / "c.toml", text.encode("utf-8", "surrogatepass"))
    survives("config values", lambda: load_and_use(path))


SEED = (
    b'[store]\npath = "~/games.sqlite3"\n[reader]\nport = "/dev/ttyUSB0"\n\n'
    b'[broker]\nurl = "mqtt://[::1]:1883"\nprefix = "clubs/paris"\n[pins]\nplayers = [17, 27]\n'
)


@FUZZ
@given(data=mutated(SEED))
def test_a_mutated_config_is_in_force_or_refused(tmp_path: Path, data: bytes) -> None:
    path = write(tmp_path / "c.toml", data)
    survives("config bytes", lambda: load_and_use(path))


@FUZZ_SUBPROCESS
@given(text=config_text(), by_option=st.booleans())
def test_config_show_ends_in_one_line(tmp_path: Path, text: str, by_option: bool) -> None:
    path = write(tmp_path / "c.toml", text.encode("utf-8", "surrogatepass"))
    if by_option:
        run_companion("config command", ["--config", str(path), "config", "show"])
    else:
        run_companion("config command", ["config", "show"], {"COMPANION_CONFIG": str(path)})


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('[reader]\nport = "/dev/tty\\u0000S0"', "reader.port must not hold a NUL byte"),
        ('[store]\npath = "games\\u0000.sqlite3"', "store.path must not hold a NUL byte"),
        ('[broker]\nurl = "mqtt://[::1"', "broker.url is not a URL"),
        ('[store]\npath = "~nosuchuser/x"', "store.path names the home directory of a user"),
        ("[pins]\npause = " + "9" * 4400, "not a configuration file: Exceeds the limit"),
        ("[pins]\nplayers = " + "[" * 3000, "values nested too deeply"),
    ],
)
def test_a_setting_that_cannot_work_is_refused(tmp_path: Path, line: str, message: str) -> None:
    path = write(tmp_path / "c.toml", line.encode())
    with pytest.raises(UserError, match=message.replace("[", r"\[").replace("(", r"\(")):
        load_config(path)


def test_a_config_that_is_a_dangling_link_is_an_error_not_the_defaults(tmp_path: Path) -> None:
    link = tmp_path / "c.toml"
    link.symlink_to(tmp_path / "gone.toml")
    with pytest.raises(UserError, match=r"symbolic link .* which does not exist"):
        load_config(link)
    for env, args in (({"COMPANION_CONFIG": str(link)}, []), ({}, ["--config", str(link)])):
        done = run_companion("config command", [*args, "config", "show"], env)
        assert done.returncode == 2 and "does not exist" in done.stderr


def test_every_setting_is_fuzzed() -> None:
    assert {f.name for f in fields(Config)} - {"source"} == set(DEFAULTS)
    assert os.environ["COMPANION_CONFIG"].endswith("config.toml")  # never the user's
