"""`companion games list|show|export|verify|delete`: the games in the store.

The reading commands open the store read-only (SQLite `mode=ro`): they work on a store in
a read-only directory, and never change the file.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path
from typing import Any

from companion.config import load_config
from companion.errors import UserError
from companion.games.contract import JSON, TABLE, Expectation
from companion.record import RecordHeader
from companion.render import plain
from companion.store import (
    GameCheck,
    GameRow,
    Store,
    StoreError,
    UnknownGame,
    load_game,
    verify_game,
)


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "games", help="list, show, export, verify and delete the games in the store"
    )
    actions = parser.add_subparsers(dest="games_action", metavar="ACTION")
    actions.required = True
    listing = actions.add_parser("list", help="one line per game")
    listing.add_argument(
        "--json", action="store_true", help="one JSON list of the games instead, for scripts"
    )
    listing.set_defaults(run=_list)
    show = actions.add_parser("show", help="a game's header, progress and score")
    show.add_argument("id", type=int, help="the game's id (see `companion games list`)")
    show.set_defaults(run=_show)
    export = actions.add_parser("export", help="write a game's record (JSON Lines)")
    export.add_argument("id", type=int, help="the game's id (see `companion games list`)")
    export.add_argument("--out", metavar="FILE", help="write to FILE instead of stdout")
    export.add_argument(
        "--force",
        action="store_true",
        help="export a damaged game's intact actions, up to the first bad one (with a warning)",
    )
    export.set_defaults(run=_export)
    verify = actions.add_parser(
        "verify", help="check games' hash chains and replays; exit 1 when any is damaged"
    )
    verify.add_argument("id", type=int, nargs="?", help="one game (default: every game)")
    verify.set_defaults(run=_verify)
    delete = actions.add_parser("delete", help="delete a game and everything recorded of it")
    delete.add_argument("id", type=int, help="the game's id (see `companion games list`)")
    delete.add_argument("--yes", action="store_true", help="delete without asking first")
    delete.set_defaults(run=_delete)


def _store_path(args: argparse.Namespace) -> Path:
    return load_config(Path(args.config) if args.config else None).store.resolved_path()


def _open_existing(args: argparse.Namespace, game_id: int, *, readonly: bool = True) -> Store:
    path = _store_path(args)
    # Looking at a game must not create a store as a side effect.
    if not path.exists():
        raise UnknownGame(game_id, where=str(path))
    return Store.open(path, readonly=readonly)


def _list(args: argparse.Namespace) -> int:
    path = _store_path(args)
    if not path.exists():
        print("[]" if args.json else f"no games yet ({path})")
        return 0
    with Store.open(path, readonly=True) as store:
        rows = store.games()
        headers = [store.header(row.id) for row in rows] if args.json else []
    if args.json:
        entries = [_entry(row, header) for row, header in zip(rows, headers, strict=True)]
        print(json.dumps(entries, indent=2, ensure_ascii=False))
        return 0
    if not rows:
        print(f"no games yet ({path})")
        return 0
    print(
        _table(["ID", "GAME", "STATUS", "CREATED", "ACTIONS", "TITLE"], [_cells(r) for r in rows])
    )
    return 0


def _entry(row: GameRow, header: RecordHeader) -> JSON:
    """A game as `list --json` gives it (docs/store.md lists the fields)."""
    return {
        "id": row.id,
        "game": row.game,
        "title": row.title,
        "status": row.status,
        "created": row.created,
        "started": header.started,
        "last_t": row.last_t,
        "actions": row.actions,
        "players": _players(header.setup),
    }


def _players(setup: JSON) -> list[str]:
    """The names of the sides, for the games whose setup names them (MemWars and MeM do)."""
    sides = setup.get("sides")
    if not isinstance(sides, list):
        return []
    return [
        side["name"]
        for side in sides
        if isinstance(side, dict) and isinstance(side.get("name"), str)
    ]


def _cells(row: GameRow) -> list[str]:
    title = plain(row.title, one_line=True)  # typed by a player: no escape codes run
    return [str(row.id), row.game, row.status, row.created, str(row.actions), title]


def _table(head: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(line[i]) for line in [head, *rows]) for i in range(len(head))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
        for line in [head, *rows]
    )


def _show(args: argparse.Namespace) -> int:
    with _open_existing(args, args.id) as store:
        # Replayed first: a damaged game is refused, naming its first bad action.
        engine, state, _seq = load_game(store, args.id)
        row = store.game(args.id)
        header = store.header(args.id)
    fields = [
        ("game", f"{row.id} ({engine.title}, {row.game})"),
        ("status", row.status),
        ("title", plain(row.title, one_line=True)),
        ("created", row.created),
        ("started", header.started),
        ("deck", _compact(header.deck)),
        ("setup", _compact(_without_card_table(header.setup))),
        ("actions", f"{row.actions} (last at {row.last_t:.1f} s)" if row.actions else "0"),
        ("expected", _expected(engine.expected(state))),
    ]
    for name, value in fields:
        if value:
            print(f"{name + ':':<10} {value}")
    print("summary:")
    print(json.dumps(engine.summary(state), indent=2, ensure_ascii=False))
    return 0


def _without_card_table(setup: dict[str, Any]) -> dict[str, Any]:
    """The setup minus its card table (a hundred triples nobody reads here); `export` has it."""
    cards = setup.get("cards")
    if not isinstance(cards, list):
        return setup
    return {**setup, "cards": f"{len(cards)} cards (see `companion games export`)"}


def _compact(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(", ", ": "), ensure_ascii=False) if data else ""


def _expected(expectation: Expectation | None) -> str:
    if expectation is None:
        return "nothing: the game is over"
    actor = "the table" if expectation.actor == TABLE else f"side {expectation.actor}"
    text = f"{actor}: {' or '.join(expectation.actions)}"
    if expectation.places:
        text += f" at {', '.join(str(p) for p in expectation.places)}"
    return f"{text} ({expectation.prompt})" if expectation.prompt else text


def _export(args: argparse.Namespace) -> int:
    # Built in memory first: a failed export (a damaged game) leaves nothing half-written.
    buffer = io.StringIO()
    with _open_existing(args, args.id) as store:
        check = store.export(args.id, buffer, force=args.force)
    if check.damage is not None:
        print(
            f"warning: {check.damage}; exported only the {_count(len(check.actions))} before it",
            file=sys.stderr,
        )
    if args.out is None:
        sys.stdout.write(buffer.getvalue())
        return 0
    try:
        Path(args.out).write_text(buffer.getvalue(), encoding="utf-8")
    except OSError as err:
        raise UserError(f"cannot write: {err.strerror}", where=args.out) from None
    return 0


def _count(actions: int) -> str:
    return f"{actions} action{'' if actions == 1 else 's'}"


def _verify(args: argparse.Namespace) -> int:
    """One line per game; 0 when every game is intact, 1 when any is damaged."""
    path = _store_path(args)
    if not path.exists():
        if args.id is not None:
            raise UnknownGame(args.id, where=str(path))
        print(f"no games yet ({path})")
        return 0
    with Store.open(path, readonly=True) as store:
        if args.id is not None:
            store.game(args.id)  # an unknown id is bad input (2), not damage
            ids = [args.id]
        else:
            ids = store.game_ids()
        damaged = 0
        for game_id in ids:
            try:
                check = verify_game(store, game_id)
            except StoreError as err:
                if isinstance(err, UnknownGame):
                    raise
                # SQLite itself cannot read the game's rows: damaged, with no action named.
                print(f"game {game_id}: DAMAGED: {err.message}")
                damaged += 1
                continue
            print(_verdict(check))
            damaged += check.damage is not None
    if not ids:
        print(f"no games yet ({path})")
    return 1 if damaged else 0


def _verdict(check: GameCheck) -> str:
    if check.damage is None:
        return f"game {check.game_id}: ok ({_count(len(check.actions))})"
    what = "its header" if check.damage.seq == 0 else f"action {check.damage.seq}"
    return f"game {check.game_id}: DAMAGED at {what}: {check.damage.why}"


def _delete(args: argparse.Namespace) -> int:
    with _open_existing(args, args.id, readonly=False) as store:
        what = _described(store.game(args.id))
        if not args.yes:
            # Asking needs someone to answer: a script or a pipe must say --yes itself, not
            # have a stray line of input taken for a yes.
            if not sys.stdin.isatty():
                raise UserError(f"not deleting {what} without --yes (no terminal to ask on)")
            if not _agreed(f"Delete {what}? [y/N] "):
                print(f"kept {what}")
                return 0
        store.delete_game(args.id)
    print(f"deleted {what}")
    return 0


def _described(row: GameRow) -> str:
    """'game 3 (friday night, 17 actions)': enough to tell which game a question is about."""
    count = f"{row.actions} action{'' if row.actions == 1 else 's'}"
    return f"game {row.id} ({plain(row.title, one_line=True) or row.game}, {count})"


def _agreed(question: str) -> bool:
    try:
        answer = input(question)
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")
