"""Study from play: what the table showed each player knew, or did not, of a card (a fact
stated wrongly, a challenge lost, a bluff given up: the game's verdicts,
companion/games/verdicts.py) becomes a review in that player's own schedule, so that they
study what they got wrong at the table.

    learnt = learn_from_games(store, log, deck)     # finished games not learnt before
    StudySession(deck, log, player="Ada")           # Ada's schedule, the table's verdicts in it

A game is learnt once: the reviews and the mark that says so are written together. Each
review is dated when the table knew the verdict (the game's start plus the action's time),
never before the player's last review, so that the schedule replays in order.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from companion.decks.model import Deck
from companion.errors import UserError
from companion.games import find_engine, find_plugin
from companion.games.contract import Event
from companion.games.verdicts import Verdict
from companion.record import GameRecord, read_record, replay_steps
from companion.store import Store
from companion.study.log import StudyLog
from companion.study.schedule import Review
from companion.table.views import names_in

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class PlayerVerdict:
    player: str
    verdict: Verdict
    at: datetime


def verdicts_of(record: GameRecord, name: str = "<record>") -> list[PlayerVerdict]:
    """The verdicts of a game, each with the player it is about and when it was known."""
    events: list[tuple[int, Event]] = []
    names: list[str] = []
    engine = find_engine(record.header.game)
    for step in replay_steps(record, name):
        events.extend((step.seq, event) for event in step.events)
        names = names_in(engine.view(step.state, "spectator")) or names
    plugin = find_plugin(record.header.game)
    started = _started(record.header.started)
    seconds = {action.seq: action.t for action in record.actions}
    out = []
    for verdict in plugin.verdicts(record.header.setup, events):
        if 0 <= verdict.side < len(names):
            at = started + timedelta(seconds=seconds.get(verdict.seq, 0.0))
            out.append(PlayerVerdict(names[verdict.side], verdict, at))
    return out


def learn_from_games(store: Store, study: StudyLog, deck: Deck) -> int:
    """The verdicts of every finished game played with `deck` and not learnt before, as
    reviews of its players; how many games were learnt. A damaged game is left out (the
    store's `games verify` says why)."""
    learnt = 0
    for row in store.games():
        if row.status != "finished":
            continue
        header = store.header(row.id)
        key = f"{row.id}:{header.started}"
        if header.deck.get("id") != deck.id or study.learnt(key):
            continue
        text = io.StringIO()
        try:
            store.export(row.id, text)
            text.seek(0)
            verdicts = verdicts_of(read_record(text, f"game {row.id}"), f"game {row.id}")
        except UserError as err:
            log.warning("game %s is not learnt from: %s", row.id, err)
            continue
        study.add_all(deck.id, _reviews(study, deck.id, verdicts), game=key)
        learnt += 1
    return learnt


def _reviews(
    study: StudyLog, deck: str, verdicts: Sequence[PlayerVerdict]
) -> list[tuple[str, Review]]:
    latest: dict[str, datetime] = {}
    out = []
    for item in verdicts:
        if item.player not in latest:
            latest[item.player] = study.last_review(deck, item.player) or item.at
        at = max(item.at, latest[item.player])
        latest[item.player] = at
        out.append((item.player, Review(item.verdict.card, item.verdict.rating, at)))
    return out


def _started(text: str) -> datetime:
    try:
        started = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return datetime.now(UTC)
    return started if started.tzinfo is not None else started.replace(tzinfo=UTC)
