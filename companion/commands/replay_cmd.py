"""`companion replay RECORD [--json | --step | --at N]`: replays a game record and prints
where it ended, steps through it move by move (replay_steps.py), or shows one move."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console

from companion.commands.replay_steps import print_step, step_through
from companion.errors import UserError
from companion.record import GameRecord, read_record_file, replay
from companion.render import print_summary, safe
from companion.replay_view import load


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "replay", help="replay a game record and print the final state and scores"
    )
    parser.add_argument(
        "record", metavar="RECORD", help="a game record (JSON Lines), or - for stdin"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.add_argument(
        "--step",
        action="store_true",
        help="step through the game move by move: the board, the events and the scores after "
        "each action (keys: n/p/g/G/q and the arrows; without a terminal, one command a line)",
    )
    parser.add_argument(
        "--at",
        type=int,
        metavar="N",
        help="show the game after action N (0: the start) and exit; with --step, start there",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    name = args.record
    stepping = args.step or args.at is not None
    if args.json and stepping:
        raise UserError("--json prints where the game ended: it does not go with --step or --at")
    record = read_record_file(name)
    if stepping:
        return _steps(args, record, name)
    result = replay(record, name)
    summary = result.engine.summary(result.state)
    clock = None
    if result.clock is not None:
        last = record.clock_inputs[-1].t_ns if record.clock_inputs else 0
        clock = _clock_summary(result.clock, last)
    if args.json:
        engine = result.engine
        out = {
            "record": name,
            "game": record.header.game,
            "actions": len(record.actions),
            "phase": summary.get("phase"),
            "outcome": summary.get("outcome"),
            "scores": summary.get("scores"),
            "summary": summary,
            "clock": clock,
            # The public picture only: the spectator's view hides what the live stream hides.
            "state": engine.view(result.state, "spectator"),
            "implied": [
                {"seq": seq, "action": engine.action_to_dict(action)}
                for seq, action in result.implied
            ],
            "events": [
                {"seq": seq, "event": engine.event_to_dict(event)} for seq, event in result.events
            ],
        }
        print(json.dumps(out, indent=2))
        return 0
    console = Console(highlight=False)
    deck = record.header.deck
    supplied = len(result.implied)
    console.print(
        f"{safe(name)}: {safe(record.header.game)}, {len(record.actions)} actions"
        + (f" ({supplied} more left out and supplied by the reader)" if supplied else "")
        + (f", deck {safe(deck.get('title') or deck.get('id'))}" if deck else "")
    )
    expectation = result.engine.expected(result.state)
    if expectation is not None:
        console.print(f"Waiting for: {safe(expectation.prompt)}")
    if "lines" in summary:
        # A game whose summary is not MemWars' score breakdown says itself what to show.
        for line in summary["lines"]:
            console.print(safe(line))
    else:
        print_summary(console, summary)
    if clock is not None:
        sides = summary.get("sides") or []
        for i, player in enumerate(clock):
            name = sides[i] if i < len(sides) else f"side {i}"
            flag = ", flag fallen" if player["flagged"] else ""
            shown = f"{safe(name)} {safe(player['text'])}"
            console.print(f"Clock: {shown} after {player['moves']} moves{flag}")
    return 0


def _steps(args: argparse.Namespace, record: GameRecord, name: str) -> int:
    steps = load(record, name)
    start = 0 if args.at is None else args.at
    if not 0 <= start <= steps.last:
        raise UserError(
            f"--at {start}: the record has actions 1 to {steps.last} (0 is the start)",
            where=name,
        )
    if not args.step:
        print_step(steps, start, sys.stdout)
        return 0
    return step_through(steps, start, sys.stdin, sys.stdout)


def _clock_summary(clock: Any, t_ns: int) -> list[dict[str, Any]]:
    """Each player's clock at the last recorded clock input (a checkpoint, often)."""
    from companion.clock.model import display

    shown = display(clock, t_ns)
    return [
        {"remaining_ns": p.remaining_ns, "text": p.text, "moves": p.moves, "flagged": p.flagged}
        for p in shown.players
    ]
