"""`companion mem solve SEED|BOARD [--budget N] [--align A] [--json]`: the longest
MEM-Solitaire pattern of a board and the moves to it; `companion mem hint RECORD`: the best
next action in a recorded MeM game. docs/mem-rules.md describes the BOARD text."""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.errors import UserError
from companion.games.mem.board import geometry
from companion.games.mem.colours import LETTER
from companion.games.mem.rules import HouseRules
from companion.games.mem.setup import Game, Setup
from companion.games.mem.solitaire import solve_solitaire
from companion.games.mem.text import BoardTextError, format_board, parse_board

DEFAULT_BUDGET = 200_000


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "mem", help="MeM: solve a MEM-Solitaire board, or hint the next move of a game"
    )
    actions = parser.add_subparsers(dest="mem_action", metavar="ACTION")
    actions.required = True
    solve = actions.add_parser(
        "solve", help="the longest MEM-Solitaire pattern of a board, and the moves to it"
    )
    solve.add_argument(
        "board",
        metavar="SEED|BOARD",
        help="a seed (a whole number: the board dealt from it) or a BOARD text, e.g. "
        "ABCD/EFGHAB/ABABAB/ABABAB/ABABAB/IJKA",
    )
    solve.add_argument(
        "--budget", default=str(DEFAULT_BUDGET), metavar="N", help="search nodes at most"
    )
    solve.add_argument(
        "--align",
        choices=["CENTRED", "FLUSH_LEFT"],
        default="CENTRED",
        help="where the short rows sit (house rule mem.board.align)",
    )
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.set_defaults(run=_solve)
    hint = actions.add_parser("hint", help="the best next action in a recorded MeM game")
    hint.add_argument("record", metavar="RECORD", help="a MeM game record (JSON Lines)")
    hint.add_argument("--budget", default="2000", metavar="N", help="search nodes at most")
    hint.add_argument("--json", action="store_true", help="print one JSON object")
    hint.set_defaults(run=_hint)


def _budget(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise UserError(f"--budget must be a whole number of nodes, 1 or more, got {text!r}")
    return value


def _board(text: str, align: str) -> tuple[int, ...]:
    if text.strip().isdigit():
        seed = int(text)
        if seed >= 2**63:
            raise UserError(f"seed {text} is too large (at most 2**63 - 1)")
        rules = HouseRules.from_dict({"mem.board.align": align})
        return Setup(Game.SOLITAIRE, ("solver",), seed, None, None, rules).board()
    try:
        return parse_board(text)
    except BoardTextError as err:
        raise UserError(f"not a seed or a BOARD text: {err}") from None


def _solve(args: argparse.Namespace) -> int:
    budget = _budget(args.budget)
    board = _board(args.board, args.align)
    geo = geometry(args.align)
    result = solve_solitaire(board, geo, budget=budget)
    moves = [
        {"square": s, "row": r, "col": c, "colour": LETTER[board[s]]} for s, (r, c) in result.moves
    ]
    if args.json:
        out = {
            "board": format_board(board),
            "align": args.align,
            "best": result.best,
            "proved": result.proved,
            "bound": result.bound,
            "win": result.win,
            "nodes": result.nodes,
            "budget": budget,
            "moves": moves,
        }
        print(json.dumps(out, indent=2))
        return 0
    print(f"Board {format_board(board)} ({args.align.lower().replace('_', ' ')})")
    status = (
        "optimal (search complete)"
        if result.proved
        else (
            f"best found; the search stopped at {budget} nodes, the optimum is at most "
            f"{result.bound}"
        )
    )
    print(f"Longest pattern: {result.best} stones, {status}; {result.nodes} nodes")
    print(
        "MEM-Solitaire won: 16 stones match the 16 left"
        if result.win
        else "No 16-stone win" + (" exists" if result.proved else " found")
    )
    for i, (square, (row, col)) in enumerate(result.moves, start=1):
        print(
            f"{i:2}. take {LETTER[board[square]]} from square {square:2} "
            f"{geo.cell[square]} to cell ({row}, {col})"
        )
    return 0


def _hint(args: argparse.Namespace) -> int:
    from companion.games.mem.solver import best_action
    from companion.record import read_record_file, replay

    budget = _budget(args.budget)
    record = read_record_file(args.record)
    if record.header.game != "mem":
        raise UserError(f"a {record.header.game} record, not a MeM one", where=args.record)
    state = replay(record, args.record).state
    hint = best_action(state, budget=budget)
    engine_action = hint.action
    data = None if engine_action is None else _action_dict(engine_action)
    if args.json:
        print(json.dumps({"action": data, "value": hint.value, "nodes": hint.nodes}, indent=2))
    elif data is None:
        print("The game is over: nothing to hint.")
    else:
        print(f"Best next action: {json.dumps(data)} (value {hint.value:+.2f}, {hint.nodes} nodes)")
    return 0


def _action_dict(action: Any) -> dict[str, Any]:
    from companion.games.mem.actions import ACTIONS

    return ACTIONS.to_dict(action)
