"""`companion setup`: setups as files, and the named setups an event plays (its presets).

    companion setup new memwars --out rapid.toml   # every option and house rule, commented
    companion setup check rapid.toml               # read and begun as a game would be
    companion setup save rapid.toml --name "Club rapid"
    companion setup list
    companion setup show "Club rapid"
    companion setup delete "Club rapid"

`companion app --setup NAME|FILE` opens New game with it; `companion run --setup NAME|FILE`
plays the terminal game with it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.config import load_config
from companion.errors import UserError
from companion.games import find_plugin, plugin_names
from companion.render import safe
from companion.table.setups import (
    check_setup,
    damaged_setups,
    delete_setup,
    find_setup,
    read_setup,
    save_setup,
    saved_setups,
    setup_text,
    setups_dir,
    template,
)


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "setup", help="setup files and named setups: every option and house rule of a game"
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    new = actions.add_parser("new", help="write a setup file listing every option, commented")
    new.add_argument("game", choices=plugin_names())
    new.add_argument("--out", metavar="FILE", help="write it here (default: print it)")
    new.set_defaults(run=_new)
    check = actions.add_parser("check", help="read a setup and begin its game, to be sure")
    check.add_argument("setup", metavar="NAME|FILE")
    check.set_defaults(run=_check)
    save = actions.add_parser("save", help="keep a setup file under a name, checked first")
    save.add_argument("file", metavar="FILE")
    save.add_argument("--name", help="the name to keep it under (default: the file's name)")
    save.set_defaults(run=_save)
    listing = actions.add_parser("list", help="the named setups")
    listing.set_defaults(run=_list)
    show = actions.add_parser("show", help="print a named setup or a setup file")
    show.add_argument("setup", metavar="NAME|FILE")
    show.set_defaults(run=_show)
    delete = actions.add_parser("delete", help="forget a named setup")
    delete.add_argument("name", metavar="NAME")
    delete.set_defaults(run=_delete)


def _new(args: argparse.Namespace) -> int:
    text = template(args.game)
    if args.out is None:
        sys.stdout.write(text)
        return 0
    out = Path(args.out)
    if out.exists():
        raise UserError(f"{out}: already exists; choose another file")
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as err:
        raise UserError(f"{out}: cannot be written ({err.strerror})") from None
    print(f"Wrote {out}: every option of {find_plugin(args.game).title}, commented.")
    return 0


def _check(args: argparse.Namespace) -> int:
    setup = find_setup(args.setup)
    check_setup(setup, load_config(Path(args.config) if args.config else None))
    changed = len(setup.options) + len(setup.house_rules)
    print(
        f"{safe(setup.name or args.setup)}: a good {find_plugin(setup.game).title} setup, "
        f"{changed} choice{'s' if changed != 1 else ''} changed from the book."
    )
    return 0


def _save(args: argparse.Namespace) -> int:
    setup = read_setup(Path(args.file))
    check_setup(setup, load_config(Path(args.config) if args.config else None))
    name = args.name or setup.name or Path(args.file).stem
    path = save_setup(setup, name)
    print(f"Saved {safe(name)!s} ({path}).")
    return 0


def _list(args: argparse.Namespace) -> int:
    setups = saved_setups()
    if not setups:
        print(f"No named setups yet (they are kept in {setups_dir()}).")
    for setup in setups:
        changed = len(setup.options) + len(setup.house_rules)
        print(f"{safe(setup.name)}: {find_plugin(setup.game).title}, {changed} changed")
    for line in damaged_setups():
        print(f"Damaged, left out: {safe(line)}")
    return 0


def _show(args: argparse.Namespace) -> int:
    sys.stdout.write(setup_text(find_setup(args.setup)))
    return 0


def _delete(args: argparse.Namespace) -> int:
    path = delete_setup(args.name)
    print(f"Deleted {safe(args.name)} ({path}).")
    return 0
