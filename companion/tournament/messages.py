"""What the hub publishes, retained, under `<prefix>/<hub>/` (docs/tournament.md). Pure.

- `standings/<division>`: the standings, with each player's rating (and withdrawal);
- `pairings/<division>`: the current round's tables and byes, with their results so far
  (a result corrected at the desk: the outcome in force, and the one first recorded);
- `table/<board>`: the board's assignment, in a sentence a table can show.

Schemas: companion/publish/schemas/{standings,pairings,assignment}.schema.json.
"""

from __future__ import annotations

from typing import Any, Literal

from companion.games import find_plugin, plugin_names
from companion.publish.wire import SCHEMA_VERSION, HubTopics, Message
from companion.tournament.model import Division, Event, Pairing, names_listed
from companion.tournament.ratings import replay
from companion.tournament.rounds import planned_rounds
from companion.tournament.standings import as_number, standings


def game_title(game: str | None) -> str:
    if game is None:
        return ""
    return find_plugin(game).title if game in plugin_names() else game


def _header(event: Event, now: str) -> dict[str, Any]:
    return {"schema": SCHEMA_VERSION, "hub": event.hub, "event": event.name, "updated": now}


def _division(division: Division) -> dict[str, Any]:
    return {
        "division": division.name,
        "game": division.game,
        "game_title": game_title(division.game),
        "setup": division.setup,
    }


def standings_payload(event: Event, name: str, now: str) -> dict[str, Any]:
    division = event.division(name)
    games = event.pairings_of(division.name)
    ratings = replay(event.results(division.name), division.players)
    rows = standings(division.players, games)
    return {
        **_header(event, now),
        **_division(division),
        "round": event.current_round(division.name),
        "rounds": planned_rounds(event, division.name),
        "standings": [
            {
                "rank": rank,
                "name": row.name,
                "points": as_number(row.points),
                "buchholz": as_number(row.buchholz),
                "sonneborn_berger": as_number(row.sonneborn_berger),
                "score": row.score,
                "played": row.played,
                "byes": row.byes,
                "withdrawn": division.withdrawn_from(row.name),
                "rating": {
                    "mu": round(ratings[row.name].mu, 3),
                    "sigma": round(ratings[row.name].sigma, 3),
                    "ordinal": round(ratings[row.name].ordinal, 3),
                },
            }
            for rank, row in enumerate(rows, start=1)
        ],
    }


def _result(pairing: Pairing) -> dict[str, Any] | None:
    if pairing.result is None:
        return None
    outcome = pairing.result.outcome
    corrected = pairing.result.corrected
    recorded = pairing.result.as_recorded
    return {
        "scores": None if outcome.scores is None else list(outcome.scores),
        "winners": list(outcome.winners),
        "hash": pairing.result.record_hash,
        "source": pairing.result.source,
        "corrected": None
        if corrected is None
        else {
            "why": corrected.why,
            "time": corrected.recorded,
            "recorded": {
                "scores": None if recorded.scores is None else list(recorded.scores),
                "winners": list(recorded.winners),
            },
        },
    }


def pairings_payload(event: Event, name: str, now: str) -> dict[str, Any]:
    division = event.division(name)
    current = event.current_round(division.name)
    round_pairings = event.pairings_of(division.name, current)
    return {
        **_header(event, now),
        **_division(division),
        "round": current,
        "tables": [
            {"board": p.board, "names": list(p.seats), "result": _result(p)}
            for p in round_pairings
            if not p.is_bye
        ],
        "byes": [p.seats[0] for p in round_pairings if p.is_bye],
    }


def assignment_text(division: Division, pairing: Pairing) -> str:
    """`Round 3: Ann vs Bo, MemWars, Club rapid setup`."""
    text = f"Round {pairing.round}: {names_listed(pairing.seats)}, {game_title(division.game)}"
    return f"{text}, {division.setup} setup" if division.setup else text


def boards_used(event: Event) -> list[str]:
    """Every board the event has ever given a game, in order: each has an assignment."""
    boards = [*event.boards, *(p.board for p in event.pairings if p.board is not None)]
    return list(dict.fromkeys(boards))


def assignment_payload(event: Event, board: str, now: str) -> dict[str, Any]:
    """The board's game in the current rounds: the one waiting for its result, else the
    last one it was given; or nothing, said in words."""
    return _assignment(event, board, [p for p in event.current_pairings() if p.board == board], now)


def _assignment(event: Event, board: str, here: list[Pairing], now: str) -> dict[str, Any]:
    """`assignment_payload`, given the board's pairings in the current rounds."""
    pairing = next((p for p in here if p.is_open), here[-1] if here else None)
    if pairing is None:
        return {
            **_header(event, now),
            "board": board,
            "division": None,
            "game": None,
            "game_title": "",
            "setup": None,
            "round": None,
            "names": [],
            "played": False,
            "text": "No game for this table in the current round",
        }
    division = event.division(pairing.division)
    return {
        **_header(event, now),
        "board": board,
        **_division(division),
        "round": pairing.round,
        "names": list(pairing.seats),
        "played": pairing.result is not None,
        "text": assignment_text(division, pairing),
    }


HubKind = Literal["standings", "pairings", "assignment"]


def all_payloads(event: Event, now: str) -> list[tuple[HubKind, str, dict[str, Any]]]:
    """Everything the hub publishes for `event`, as it stands: each payload with its kind
    and the division or board it is for, standings and pairings of each division first,
    then each board's assignment."""
    payloads: list[tuple[HubKind, str, dict[str, Any]]] = []
    for division in event.divisions:
        payloads.append(("standings", division.name, standings_payload(event, division.name, now)))
        payloads.append(("pairings", division.name, pairings_payload(event, division.name, now)))
    # The current rounds once, by board: not once for every board.
    current: dict[str, list[Pairing]] = {}
    for pairing in event.current_pairings():
        if pairing.board is not None:
            current.setdefault(pairing.board, []).append(pairing)
    for board in boards_used(event):
        payloads.append(
            ("assignment", board, _assignment(event, board, current.get(board, []), now))
        )
    return payloads


def all_messages(event: Event, prefix: str, now: str) -> list[Message]:
    """Everything the hub publishes for `event`, as it stands."""
    topics = HubTopics(prefix, event.hub)
    return [topics.message(kind, name, payload) for kind, name, payload in all_payloads(event, now)]
