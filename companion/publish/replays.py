"""A stored game as the pages step through it: after each of its actions, the retained state
the stream would have sent then (wire.state_payload: the spectator view, its drawing, the
last event's sentence), rebuilt from the game's record alone. Nothing hidden: a frame is a
state payload, which carries only the spectator view.

    frames = replay_frames(store, game_id, board="table-1")
    frames[0]["seq"], frames[-1]["view"]["outcome"]
"""

from __future__ import annotations

import io
from typing import Any

from companion.games import find_engine, plugin_names
from companion.publish import wire
from companion.publish.stream import board_drawing, narrator_for, spectator_view
from companion.record import GameRecord, read_record, replay_steps
from companion.store import GameRow, Store
from companion.table.views import names_in


def stored_games(store: Store) -> list[dict[str, Any]]:
    """The games the pages can step through, most recent first: each one's id, game, title,
    whether it is over, and how many actions it has."""
    games = set(plugin_names())
    rows: list[GameRow] = [row for row in store.games() if row.game in games]
    return [
        {
            "game_id": row.id,
            "game": row.game,
            "title": row.title,
            "status": row.status,
            "actions": row.actions,
            "created": row.created,
        }
        for row in sorted(rows, key=lambda row: row.id, reverse=True)
    ]


def replay_frames(store: Store, game_id: int, *, board: str) -> list[dict[str, Any]]:
    """The game's state payload after each action, from before the first to the last. A
    damaged game is refused as the store refuses to export it (a UserError)."""
    text = io.StringIO()
    store.export(game_id, text)
    text.seek(0)
    record = read_record(text, f"game {game_id}")
    return frames_of(record, game_id=game_id, title=store.game(game_id).title, board=board)


def frames_of(record: GameRecord, *, game_id: int, title: str, board: str) -> list[dict[str, Any]]:
    engine = find_engine(record.header.game)
    times = {action.seq: action.t for action in record.actions}
    frames: list[dict[str, Any]] = []
    narrate = None
    last: dict[str, Any] | None = None
    names: list[str] = []
    for step in replay_steps(record, f"game {game_id}"):
        if narrate is None:
            narrate = narrator_for(engine, step.state)
        for event in step.events:
            last = wire.last_event(engine.event_to_dict(event), narrate(event))
        view = spectator_view(engine, step.state)
        names = names_in(view) or names
        frames.append(
            wire.state_payload(
                board=board,
                t=times.get(step.seq, 0.0),
                game=engine.name,
                game_id=game_id,
                title=title,
                seq=step.seq,
                names=names,
                view=view,
                clock=None,
                last=last,
                drawing=board_drawing(engine, view),
            )
        )
    return frames
