"""`companion tournament`: an event with many tables (docs/tournament.md).

companion tournament new EVENT.sqlite3 --name "Spring open"
companion tournament add-player EVENT.sqlite3 Ann --division Open
companion tournament division EVENT.sqlite3 Open --game memwars --setup "Club rapid"
companion tournament pair EVENT.sqlite3
companion tournament result EVENT.sqlite3 table-3 31 44
companion tournament correct EVENT.sqlite3 2 table-3 44 31 --why "scores swapped"
companion tournament withdraw EVENT.sqlite3 Bo   # not paired from the next round on
companion tournament reinstate EVENT.sqlite3 Bo
companion tournament standings EVENT.sqlite3 [--json]
companion tournament export EVENT.sqlite3 --csv event.csv [--pdf event.pdf]
companion tournament run EVENT.sqlite3           # the hub, until Ctrl-C
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import threading
from pathlib import Path
from typing import Any

from companion.config import load_config
from companion.errors import UserError
from companion.printing.output import check_writable, write_output
from companion.render import plain
from companion.stopping import restore_sigterm, stop_on_sigterm
from companion.store import utc_now
from companion.table.setups import find_setup
from companion.tournament.event_store import DEFAULT_HUB, EventStore
from companion.tournament.export import csv_text, pdf_bytes
from companion.tournament.hub import Hub
from companion.tournament.messages import assignment_text, standings_payload
from companion.tournament.model import SYSTEMS, Event, Outcome, names_listed, same_name
from companion.tournament.rounds import PlannedRound, next_round


def register(commands: Any) -> None:
    parser: argparse.ArgumentParser = commands.add_parser(
        "tournament", help="run an event of many tables: players, pairings, results, standings"
    )
    sub = parser.add_subparsers(dest="tournament_command", metavar="ACTION")
    sub.required = True

    def action(name: str, help_text: str, run: Any) -> argparse.ArgumentParser:
        made: argparse.ArgumentParser = sub.add_parser(name, help=help_text)
        made.add_argument("event", metavar="EVENT", type=Path, help="the event's file")
        made.set_defaults(run=run)
        return made

    new = action("new", "make a new event file", run_new)
    new.add_argument("--name", required=True, help="the event's name")
    new.add_argument(
        "--hub",
        default=DEFAULT_HUB,
        help="the hub's topic level: it publishes under <prefix>/<hub>/ (default: %(default)s)",
    )
    new.add_argument(
        "--boards",
        metavar="ID,ID,...",
        help="the tables' board ids, top table first (default: table-1, table-2, ... as needed)",
    )

    player = action("add-player", "add a player to a division", run_add_player)
    player.add_argument("name", metavar="NAME")
    player.add_argument("--division", required=True, metavar="D", help="made if new")

    division = action("division", "make a division or set what it plays", run_division)
    division.add_argument("division", metavar="D")
    division.add_argument("--game", help="the game played (companion games list)")
    division.add_argument("--setup", metavar="NAME", help="a named setup of that game")
    division.add_argument("--system", choices=SYSTEMS, help="swiss (default) or round-robin")
    division.add_argument("--rounds", type=int, metavar="N", help="how many rounds")
    division.add_argument(
        "--sides", type=int, metavar="N", help="players per game (default 2; 3 or 4: pods)"
    )

    pair = action("pair", "pair the next round of every division (or of one)", run_pair)
    pair.add_argument("--division", metavar="D", help="only this division")

    result = action(
        "result", "record a game's result by hand, for a table with no companion", run_result
    )
    result.add_argument("board", metavar="BOARD", help="the table's board id")
    _outcome_arguments(result)

    correct = action(
        "correct", "correct a result already recorded (the first one is kept)", run_correct
    )
    correct.add_argument("round", metavar="ROUND", type=int, help="the game's round")
    correct.add_argument("board", metavar="BOARD", help="the table's board id in that round")
    _outcome_arguments(correct)
    correct.add_argument("--why", metavar="TEXT", help="why it is corrected (required)")
    correct.add_argument(
        "--division", metavar="D", help="the game's division, when two used the board that round"
    )

    withdraw = action(
        "withdraw", "withdraw a player: not paired again, results so far stand", run_withdraw
    )
    withdraw.add_argument("name", metavar="NAME")
    withdraw.add_argument("--division", metavar="D", help="the player's division (a check)")
    withdraw.add_argument(
        "--from-round",
        type=int,
        metavar="N",
        help="the first round they are not paired in (default: the next round not yet paired)",
    )

    reinstate = action(
        "reinstate", "undo a withdrawal for the rounds not yet paired", run_reinstate
    )
    reinstate.add_argument("name", metavar="NAME")
    reinstate.add_argument("--division", metavar="D", help="the player's division (a check)")

    standings = action("standings", "show the standings", run_standings)
    standings.add_argument("--division", metavar="D", help="only this division")
    standings.add_argument("--json", action="store_true", help="as the hub publishes them")

    export = action("export", "write the standings and results to files", run_export)
    export.add_argument("--csv", type=Path, metavar="FILE", help="standings and results as CSV")
    export.add_argument("--pdf", type=Path, metavar="FILE", help="a printable report")

    run = action("run", "the hub: hear the tables' results and publish, until Ctrl-C", run_hub)
    run.add_argument("--broker", metavar="URL", help="the broker (default: [broker] url)")


def _outcome_arguments(parser: argparse.ArgumentParser) -> None:
    """A game's outcome as the desk types it: `result` and `correct`."""
    parser.add_argument(
        "scores", metavar="SCORES", nargs="*", type=float, help="each side's score, in seat order"
    )
    parser.add_argument(
        "--winner",
        action="append",
        default=[],
        metavar="NAME",
        help="who won (default: the highest score; again for a shared win)",
    )
    parser.add_argument("--draw", action="store_true", help="nobody won")


def _open(args: argparse.Namespace) -> EventStore:
    return EventStore.open(args.event)


def run_new(args: argparse.Namespace) -> int:
    boards = [b.strip() for b in args.boards.split(",")] if args.boards else []
    with EventStore.create(args.event, name=args.name, hub=args.hub, boards=boards) as store:
        event = store.event()
    print(f"Event {event.name!r} in {args.event}; the hub publishes under <prefix>/{event.hub}/")
    return 0


def run_add_player(args: argparse.Namespace) -> int:
    with _open(args) as store:
        store.add_player(args.name, args.division)
        count = len(store.event().division(args.division).players)
    print(f"{args.name.strip()} plays in {args.division} ({count} players)")
    return 0


def run_division(args: argparse.Namespace) -> int:
    game = args.game
    setup_name = None
    if args.setup is not None:
        setup = find_setup(args.setup)
        if game is not None and setup.game != game:
            raise UserError(f"setup {args.setup!r} is a setup of {setup.game}, not of {game}")
        game = setup.game
        setup_name = setup.name or args.setup
    with _open(args) as store:
        store.set_division(
            args.division,
            game=game,
            setup=setup_name,
            system=args.system,
            rounds=args.rounds,
            sides=args.sides,
        )
        found = store.event().division(args.division)
    rounds = f"{found.rounds} rounds" if found.rounds else "rounds as paired"
    print(
        f"{found.name}: {found.game or 'no game yet'}"
        + (f", {found.setup} setup" if found.setup else "")
        + f", {found.system}, {rounds}, {found.sides} players per game"
    )
    return 0


def run_pair(args: argparse.Namespace) -> int:
    with _open(args) as store:
        event = store.event()
        names = [event.division(args.division).name] if args.division else None
        plans: list[PlannedRound] = []
        taken: list[str] = []
        reasons: list[str] = []
        for division in event.divisions if names is None else ():
            if division.game is None and not division.players:
                continue
            try:
                plans.append(next_round(event, division.name, taken))
            except UserError as err:
                reasons.append(err.message)
                continue
            taken += [board for board, _ in plans[-1].tables if board is not None]
        for name in names or ():
            plans.append(next_round(event, name, taken))
        if not plans:
            raise UserError("; ".join(reasons) or "no division has players and a game yet")
        for reason in reasons:
            print(f"Not paired: {reason}")
        for plan in plans:
            store.add_round(plan)
        event = store.event()
    for plan in plans:
        division = event.division(plan.division)
        print(f"{division.name}, round {plan.round}:")
        for pairing in event.pairings_of(division.name, plan.round):
            if pairing.is_bye:
                print(f"  bye: {pairing.seats[0]}")
            else:
                print(f"  {pairing.board}: {assignment_text(division, pairing)}")
    return 0


def run_result(args: argparse.Namespace) -> int:
    with _open(args) as store:
        event = store.event()
        waiting = [p for p in event.current_pairings() if p.board == args.board and p.is_open]
        if not waiting:
            raise UserError(f"no game on {args.board} is waiting for a result")
        pairing = waiting[0]
        outcome = hand_outcome(pairing.seats, args.scores, args.winner, args.draw)
        store.add_result(pairing.id, outcome, source="hand")
    who = names_listed(pairing.seats)
    won = " and ".join(pairing.seats[w] for w in outcome.winners) or "nobody (a draw)"
    print(f"{args.board}, round {pairing.round} of {pairing.division}: {who}; won by {won}")
    return 0


def run_correct(args: argparse.Namespace) -> int:
    if args.why is None or not args.why.strip():
        raise UserError("say why the result is corrected: --why TEXT")
    with _open(args) as store:
        event = store.event()
        division = event.division(args.division).name if args.division else None
        games = [
            p
            for p in event.pairings
            if p.round == args.round
            and p.board == args.board
            and (division is None or p.division == division)
        ]
        if not games:
            within = f" of {division}" if division else ""
            raise UserError(f"no game on {args.board} in round {args.round}{within}")
        if len(games) > 1:
            raise UserError(
                f"{args.board} had a game in round {args.round} of "
                + " and of ".join(p.division for p in games)
                + ": say which with --division D"
            )
        (pairing,) = games
        if pairing.result is None:
            raise UserError(
                f"the game on {args.board}, round {args.round} of {pairing.division} has no "
                "result yet: record it with `companion tournament result`"
            )
        was = pairing.result.outcome
        outcome = hand_outcome(pairing.seats, args.scores, args.winner, args.draw)
        corrected = store.correct(pairing.id, outcome, why=args.why)
    who = names_listed(pairing.seats)
    print(
        f"{args.board}, round {pairing.round} of {pairing.division}: {who}; now "
        f"{outcome_text(pairing.seats, corrected.outcome)} (was "
        f"{outcome_text(pairing.seats, was)})"
    )
    if corrected.record_hash is not None:
        print(
            f"The desk overrode the table's result; its record {corrected.record_hash[:12]}... "
            "stays in the event"
        )
    return 0


def outcome_text(seats: tuple[str, ...], outcome: Outcome) -> str:
    """`31-44, won by Bo`, `a draw`: an outcome for people."""
    won = " and ".join(seats[w] for w in outcome.winners)
    said = f"won by {won}" if won else "a draw"
    if outcome.scores is None:
        return said
    return "-".join(f"{s:g}" for s in outcome.scores) + f", {said}"


def run_withdraw(args: argparse.Namespace) -> int:
    with _open(args) as store:
        name, division, start = store.withdraw(
            args.name, division=args.division, from_round=args.from_round
        )
    print(
        f"{name} withdraws from {division}: not paired from round {start} on; the results so "
        "far stand"
    )
    return 0


def run_reinstate(args: argparse.Namespace) -> int:
    with _open(args) as store:
        name, division, start = store.reinstate(args.name, division=args.division)
    print(f"{name} is back in {division}: paired again from round {start}")
    return 0


def hand_outcome(
    seats: tuple[str, ...], scores: list[float], winners: list[str], draw: bool
) -> Outcome:
    """A result typed at the desk: scores in seat order, the winners named (default: the
    highest score; a tie is shared), or a draw."""
    if scores and len(scores) != len(seats):
        raise UserError(f"{names_listed(seats)}: give {len(seats)} scores, in that order")
    if draw and winners:
        raise UserError("--draw and --winner say different things")
    named: list[int] = []
    for name in winners:
        found = [i for i, seat in enumerate(seats) if same_name(seat, name)]
        if not found:
            raise UserError(f"{name} is not playing {names_listed(seats)}")
        named.append(found[0])
    if not scores and not winners and not draw:
        raise UserError("give the scores, --winner NAME or --draw")
    if draw:
        chosen: tuple[int, ...] = ()
    elif named:
        chosen = tuple(sorted(set(named)))
    else:
        best = max(scores)
        chosen = (
            ()
            if scores.count(best) == len(scores)
            else tuple(i for i, s in enumerate(scores) if s == best)
        )
    return Outcome(tuple(scores) if scores else None, chosen)


def run_standings(args: argparse.Namespace) -> int:
    with _open(args) as store:
        event = store.event()
    divisions = [event.division(args.division)] if args.division else list(event.divisions)
    payloads = [standings_payload(event, d.name, utc_now()) for d in divisions]
    if args.json:
        print(json.dumps(payloads if not args.division else payloads[0], ensure_ascii=False))
        return 0
    for payload in payloads:
        _print_standings(event, payload)
    return 0


def _print_standings(event: Event, payload: dict[str, Any]) -> None:
    rounds = f" of {payload['rounds']}" if payload["rounds"] else ""
    title = payload["game_title"] or "no game yet"
    print(plain(f"{payload['division']}: {title}, round {payload['round']}{rounds}"))
    print(f"  {'#':>3} {'name':<20} {'pts':>5} {'buch':>6} {'s-b':>6} {'score':>7} {'rating':>7}")
    for row in payload["standings"]:
        print(
            f"  {row['rank']:>3} {plain(row['name'], one_line=True)[:20]:<20} "
            f"{row['points']:>5g} {row['buchholz']:>6g} {row['sonneborn_berger']:>6g} "
            f"{row['score']:>7g} {row['rating']['ordinal']:>7.2f}"
            + (f"  withdrawn from round {row['withdrawn']}" if row["withdrawn"] else "")
        )


def run_export(args: argparse.Namespace) -> int:
    if args.csv is None and args.pdf is None:
        raise UserError("say what to write: --csv FILE and/or --pdf FILE")
    with _open(args) as store:
        event = store.event()
    for out in (args.csv, args.pdf):
        if out is not None:
            check_writable(out)
    if args.csv is not None:
        write_output(args.csv, csv_text(event).encode())
        print(f"Wrote {args.csv}")
    if args.pdf is not None:
        data, warnings = pdf_bytes(event)
        for warning in warnings:
            print(f"warning: {warning}", file=sys.stderr)
        write_output(args.pdf, data)
        print(f"Wrote {args.pdf}")
    return 0


def run_hub(args: argparse.Namespace) -> int:
    config = load_config(Path(args.config) if args.config else None)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", datefmt="%H:%M:%S")
    with _open(args) as store:
        hub = Hub.from_config(config.broker, store, url=args.broker)
        event = store.event()
        stopping = threading.Event()
        previous = stop_on_sigterm(stopping)
        print(
            f"Hub of {event.name!r}: results from {hub.listener.topics.results} on "
            f"{hub.listener.address.url}; publishing under {hub.listener.topics.base}/",
            flush=True,
        )
        print("Ctrl-C stops.", flush=True)
        try:
            hub.run(stopping)
        except KeyboardInterrupt:
            pass
        finally:
            restore_sigterm(previous)
            hub.close()
        print(f"Stopped; {hub.recorded} result(s) recorded this time.")
    return 0
