"""`companion replay RECORD [--json]`: replays a game record and prints where it ended."""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console

from companion.record import read_record_file, replay
from companion.render import print_summary, safe


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "replay", help="replay a game record and print the final state and scores"
    )
    parser.add_argument(
        "record", metavar="RECORD", help="a game record (JSON Lines), or - for stdin"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    name = args.record
    record = read_record_file(name)
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


def _clock_summary(clock: Any, t_ns: int) -> list[dict[str, Any]]:
    """Each player's clock at the last recorded clock input (a checkpoint, often)."""
    from companion.clock.model import display

    shown = display(clock, t_ns)
    return [
        {"remaining_ns": p.remaining_ns, "text": p.text, "moves": p.moves, "flagged": p.flagged}
        for p in shown.players
    ]
