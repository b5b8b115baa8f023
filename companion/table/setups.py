"""Setups as data: a game's options and house rules in a TOML file, checked like the config,
and the named setups (an event's presets) kept in the user data directory.

    game = "memwars"
    name = "Club rapid"            # optional: how Home and `companion setup list` call it

    [options]                      # keys as `companion setup new memwars` lists them
    depth = 3
    quadrants = [1, 2]
    topology.kind = "standard"
    "sides.1.depth" = 4            # the second side plays one level deeper
    "clock.controls.0" = "15+10"

    [house_rules]
    "mw.timer" = "FLAG"

    setup = read_setup(Path("rapid.toml"))   # UserError naming the file and key
    save_setup(setup, "Club rapid")          # then find_setup("Club rapid")

A value the rule book calls "none" (a depth agreed rather than a handicap, a first player
drawn rather than agreed) is written ``"none"``: TOML has no null.
"""

from __future__ import annotations

import json
import re
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion.config import Config, default_data_dir
from companion.errors import UserError
from companion.games import find_plugin, plugin_names
from companion.games.options import BadOption, GameOption, check_options, option_for
from companion.store import Store
from companion.table.choices import Players
from companion.table.play import seat_of
from vision.common.files import parsing, read_input_text, write_atomically

NONE = "none"
"""How a file says a value the rule book leaves empty (None)."""
MAX_BYTES = 256 * 1024
"""A setup file is a few lines; anything much larger is not one."""
_TOP_KEYS = {"game", "name", "options", "house_rules"}


@dataclass(frozen=True)
class GameSetup:
    """A game's options and house rules, each checked: the ones that differ from the book's."""

    game: str
    options: Mapping[str, Any] = field(default_factory=dict)
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    name: str = ""


def setups_dir() -> Path:
    """Where named setups are kept."""
    return default_data_dir() / "setups"


def parse_setup(data: Mapping[str, Any], where: str) -> GameSetup:
    """A setup from a TOML file's tables; UserError naming `where` and the key at fault."""
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        known = ", ".join(sorted(_TOP_KEYS))
        raise UserError(f"{where}: {unknown[0]!r} is not a setup key ({known})")
    game = data.get("game")
    if not isinstance(game, str) or game not in plugin_names():
        known = ", ".join(plugin_names())
        raise UserError(f"{where}: game must be one of {known}, got {game!r}")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise UserError(f"{where}: name must be a text")
    plugin = find_plugin(game)
    raw_options = data.get("options", {})
    if not isinstance(raw_options, Mapping):
        raise UserError(f"{where}: [options] must be a table of option keys")
    values = {
        key: _from_file(value, option_for(key, plugin.options))
        for key, value in _flattened(raw_options).items()
    }
    try:
        options = check_options(values, plugin.options)
    except BadOption as err:
        raise UserError(f"{where}: options.{err.key}: {err.problem}") from None
    raw_rules = data.get("house_rules", {})
    if not isinstance(raw_rules, Mapping):
        raise UserError(f"{where}: [house_rules] must be a table of house-rule keys")
    # A house rule key has dots (mw.timer), and TOML reads dots unquoted as tables.
    rules = _flattened(raw_rules)
    for key, value in rules.items():
        rule = next((r for r in plugin.house_rules if r.key == key), None)
        if rule is None:
            raise UserError(
                f"{where}: house_rules.{key} is not a house rule of {game} "
                f"(see `companion rules {game}`)"
            )
        problem = rule.problem(value)
        if problem is not None:
            raise UserError(f"{where}: house_rules.{key}: {problem}")
    changed = {
        key: value
        for key, value in rules.items()
        if next(r for r in plugin.house_rules if r.key == key).default != value
    }
    return GameSetup(game, options, changed, name.strip())


def read_setup(path: Path) -> GameSetup:
    """A setup file; any problem is one UserError naming the file."""
    text = read_input_text(path, "setup file", limit=MAX_BYTES)
    with parsing(str(path), "setup file"):
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as err:
            raise UserError(f"not TOML: {err}", where=str(path)) from None
    return parse_setup(data, str(path))


def setup_text(setup: GameSetup) -> str:
    """The setup as a file `read_setup` reads back to the same setup."""
    lines = [f"game = {_toml(setup.game)}"]
    if setup.name:
        lines.append(f"name = {_toml(setup.name)}")
    if setup.options:
        lines += ["", "[options]"]
        lines += [f"{_key(k)} = {_toml(v)}" for k, v in setup.options.items()]
    if setup.house_rules:
        lines += ["", "[house_rules]"]
        lines += [f"{_key(k)} = {_toml(v)}" for k, v in setup.house_rules.items()]
    return "\n".join(lines) + "\n"


def template(game: str) -> str:
    """A setup file for `game` with every option and house rule written out as a comment:
    its question, its rule id, its default and its values."""
    plugin = find_plugin(game)
    lines = [
        f"# A setup for {plugin.title}: uncomment and change what you agree on.",
        f"# Check it with `companion setup check FILE`; house rules: `companion rules {game}`.",
        f"game = {_toml(game)}",
        "",
        "[options]",
    ]
    group = ""
    for option in plugin.options:
        if option.group != group:
            group = option.group
            lines += ["", f"# {group}"]
        defined = f" ({option.rule})" if option.rule else ""
        lines.append(f"# {option.question}{defined}")
        if option.typed:
            lines.append("#   a text")
        else:
            values = ", ".join(
                _toml(v) + (f" ({t})" if t != str(v) else "") for t, v in option.choices
            )
            lines.append(f"#   {'a list of ' if option.many else ''}{values}")
        key = option.for_side(0) if option.per_side else option.key
        if option.per_side:
            lines.append("#   per side: the side's number (0 for the first) in place of *")
        lines.append(f"# {_key(key)} = {_toml(option.default)}")
    lines += ["", "[house_rules]"]
    for rule in plugin.house_rules:
        lines.append(f"# {rule.meaning} ({rule.settles})")
        if rule.span:
            lines.append(f"#   {rule.span}")
        else:
            lines.append(f"#   {', '.join(_toml(c) for c in rule.choices)}")
        lines.append(f"# {_key(rule.key)} = {_toml(rule.default)}")
    return "\n".join(lines) + "\n"


def file_name(name: str) -> str:
    """The file a named setup is kept in: its name, lower case, words joined by '-'."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not slug:
        raise UserError(f"a setup's name needs a letter or a digit, got {name!r}")
    return f"{slug}.toml"


def save_setup(setup: GameSetup, name: str) -> Path:
    """Keeps `setup` under `name` (replacing one of that name) and says where."""
    name = name.strip()
    path = setups_dir() / file_name(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, setup_text(replace(setup, name=name)).encode("utf-8"))
    return path


def saved_setups(game: str | None = None) -> list[GameSetup]:
    """The named setups (of `game`, or all), by name; a damaged file is left out."""
    folder = setups_dir()
    found: list[GameSetup] = []
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
        try:
            setup = read_setup(path)
        except UserError:
            continue  # `companion setup list` says which files are damaged
        if game is None or setup.game == game:
            found.append(setup if setup.name else replace(setup, name=path.stem))
    return sorted(found, key=lambda s: s.name.lower())


def damaged_setups() -> list[str]:
    """One line for each file among the named setups that does not read."""
    folder = setups_dir()
    out = []
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
        try:
            read_setup(path)
        except UserError as err:
            out.append(str(err))
    return out


def find_setup(name_or_path: str) -> GameSetup:
    """A setup file, or a named setup when there is no such file."""
    candidate = Path(name_or_path).expanduser()
    if candidate.is_file():
        return read_setup(candidate)
    if re.search(r"[A-Za-z0-9]", name_or_path):
        path = setups_dir() / file_name(name_or_path)
        if path.is_file():
            return read_setup(path)
    names = ", ".join(s.name for s in saved_setups()) or "none yet"
    raise UserError(f"no setup file or named setup {name_or_path!r} (named setups: {names})")


def delete_setup(name: str) -> Path:
    path = setups_dir() / file_name(name)
    if not path.is_file():
        raise UserError(f"no setup named {name!r}")
    path.unlink()
    return path


def _flattened(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """TOML's nested tables as dotted keys: ``topology.kind = "x"`` and
    ``"topology.kind" = "x"`` are the same option."""
    out: dict[str, Any] = {}
    for key, value in table.items():
        if isinstance(value, Mapping):
            out.update(_flattened(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def _from_file(value: Any, option: GameOption | None) -> Any:
    """ "none" for a value the book leaves empty, where the option allows one."""
    if option is None or value != NONE:
        return value
    allowed = [v for _t, v in option.choices]
    return None if None in allowed and NONE not in allowed else value


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml(key)


def _toml(value: Any) -> str:
    if value is None:
        return f'"{NONE}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        # A JSON string is a TOML basic string: the same escapes, \uXXXX included; TOML
        # also wants DEL escaped, which JSON leaves as it is.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} in a setup file")


def choices_for(setup: GameSetup, config: Config, players: Players | None = None) -> Any:
    """The choices the game's seat begins a game from: its New game rows as they are at
    first, with the setup's options and house rules over them."""
    form = seat_of(setup.game).form(setup.game)
    picks = {row.key: row.default for row in form.rows(config)}
    return form.choices(picks, players or Players(names=("", "")), setup.house_rules, setup.options)


def check_setup(setup: GameSetup, config: Config) -> None:
    """Begins the setup's game in a store of its own, thrown away after: a UserError says
    why the rules refuse it (a depth the deck does not have, a Hybrid side in a Standard
    game...)."""
    with tempfile.TemporaryDirectory(prefix="companion-setup-") as folder:
        store = Store.open(Path(folder) / "check.sqlite3")
        try:
            seat_of(setup.game).begin(choices_for(setup, config), store, config)
        except ValueError as err:
            raise UserError(f"{setup.name or setup.game}: {err}") from None
        finally:
            store.close()
