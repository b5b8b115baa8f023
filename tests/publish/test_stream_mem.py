"""A MeM game refereed and streamed to a real mosquitto: a subscriber sees every event with
its sentence, and the retained state a display draws from (board, playing spaces, scores,
turn, outcome); Home Assistant's sensors read the MeM scores; refusals are told in full."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.games.contract import IllegalAction
from companion.games.mem import actions as A
from companion.games.mem.events import EVENTS
from companion.games.mem.narrate import narrate
from companion.publish import wire
from companion.publish.homeassistant import node_id
from companion.publish.mosquitto import Mosquitto, find_mosquitto
from companion.publish.publisher import Publisher
from companion.publish.stream import GameStream
from companion.session import Referee
from companion.store import Store
from tests.mem.helpers import random_action
from tests.publish.conftest import Collector

BOARD = "mem-table"
SETUP: dict[str, Any] = {"game": "mem", "sides": [{"name": "Ada"}, {"name": "Bo"}], "seed": 3}

pytestmark = pytest.mark.skipif(find_mosquitto() is None, reason="mosquitto is not installed")


@pytest.fixture()
def publisher(broker: Mosquitto) -> Iterator[Publisher]:
    made = Publisher(broker.url, board_id=BOARD)
    yield made
    made.close(timeout=1)


def play(referee: Referee, seed: int) -> None:
    """Plays the game to its end with random legal actions (blocks half the time)."""
    rng = random.Random(seed)
    while referee.expected() is not None:
        referee.submit(random_action(referee.state, rng))


def payloads(collector: Collector, suffix: str) -> list[dict[str, Any]]:
    return [json.loads(m.payload) for m in collector.on(suffix)]


def test_a_mem_game_streams_its_events_sentences_and_state(
    broker: Mosquitto,
    store: Store,
    publisher: Publisher,
    collector_factory: Callable[..., Collector],
) -> None:
    collector = collector_factory(broker.port, topic=f"tabletop/{BOARD}/#")
    referee = Referee.start(store, "mem", SETUP, {}, title="MeM at the club")
    stream = GameStream(referee, publisher, board_id=BOARD)
    play(referee, seed=8)
    assert referee.is_over
    assert publisher.wait_idle(20)
    stream.close()

    events = payloads(collector, "/event")
    committed = [(seq, data) for seq, _, data in store.events(referee.game_id)]
    assert [(p["seq"], p["event"]) for p in events] == committed
    setup = referee.state.setup
    engine = referee.engine
    for payload in events:
        wire.validate("event", payload)
        event = EVENTS.from_dict(payload["event"])
        assert payload["text"] == narrate(event, setup)
        assert payload["text"], f"no sentence for {event.kind}"
    texts = [p["text"] for p in events]
    kinds = {p["event"]["type"] for p in events}
    # The game tells moves, blocks and its end; the seed was chosen for a block.
    assert {"stone_moved", "move_announced", "block_asked", "stone_blocked", "game_ended"} <= kinds
    assert any(
        re.fullmatch(r"(Ada|Bo) takes the \w+ stone from square \d+ to .+\.", t) for t in texts
    )
    assert any(re.fullmatch(r"(Ada|Bo) blocks square \d+ with .+", t) for t in texts)
    assert texts[-1].startswith("Game over: ") and "Ada " in texts[-1] and "Bo " in texts[-1]

    # A display that connects now gets the last state, retained.
    late = collector_factory(broker.port, topic=f"tabletop/{BOARD}/state")
    assert late.wait_for(lambda ms: len(ms) == 1)
    assert late.messages[0].retain
    state = json.loads(late.messages[0].payload)
    wire.validate("state", state)
    assert (state["game"], state["title"], state["seq"]) == ("mem", "MeM at the club", referee.seq)
    assert state["names"] == ["Ada", "Bo"]
    view = state["view"]
    assert view == json.loads(json.dumps(engine.view(referee.state, "spectator")))
    assert len(view["squares"]) == 32
    stones = sum(1 for square in view["squares"] if square["colour"])
    held = sum(s["pattern"] + s["pile"] for s in view["scores"]["sides"])
    assert stones + held == 32  # every stone is on the board, in a pattern or in a pile
    outcome = view["outcome"]
    assert outcome is not None and outcome["scores"] == [s["total"] for s in view["sides"]]
    assert state["last_event"]["text"] == texts[-1]


def test_home_assistant_reads_mem_scores(
    broker: Mosquitto,
    store: Store,
    publisher: Publisher,
    collector_factory: Callable[..., Collector],
) -> None:
    referee = Referee.start(store, "mem", SETUP, {})
    stream = GameStream(referee, publisher, board_id=BOARD, home_assistant=True)
    rng = random.Random(5)
    for _ in range(12):
        referee.submit(random_action(referee.state, rng))
    assert publisher.wait_idle(10)
    stream.close()

    configs = collector_factory(broker.port, topic="homeassistant/#")
    topics = collector_factory(broker.port, topic=f"tabletop/{BOARD}/state")
    assert configs.wait_for(lambda ms: len(ms) == 3)  # two scores and the turn; no clock
    assert topics.wait_for(lambda ms: len(ms) == 1)
    state = json.loads(topics.messages[0].payload)
    node = node_id(BOARD)
    found = {
        m.topic.removeprefix(f"homeassistant/sensor/{node}/").removesuffix("/config"): json.loads(
            m.payload
        )
        for m in configs.messages
    }
    assert sorted(found) == ["score_0", "score_1", "turn"]
    for side in (0, 1):
        template = found[f"score_{side}"]["value_template"]
        assert template == f"{{{{ value_json.view.scores.sides[{side}].total }}}}"
        assert state["view"]["scores"]["sides"][side]["total"] == (
            len(state["view"]["sides"][side]["pattern"]) + state["view"]["sides"][side]["pile"]
        )
    assert found["score_0"]["device"]["model"] == "mem"


def test_a_refused_mem_move_is_an_alert_with_its_explanation(
    broker: Mosquitto,
    store: Store,
    publisher: Publisher,
    collector_factory: Callable[..., Collector],
) -> None:
    collector = collector_factory(broker.port, topic=f"tabletop/{BOARD}/alert")
    referee = Referee.start(store, "mem", SETUP, {})
    stream = GameStream(referee, publisher, board_id=BOARD)
    wrong = A.Move(1 - referee.state.turn, 0)
    with pytest.raises(IllegalAction) as refused:
        referee.submit(wrong)
    stream.refused(refused.value, wrong)
    assert collector.wait_for(lambda ms: len(ms) == 1)
    alert = payloads(collector, "/alert")[0]
    wire.validate("alert", alert)
    assert (alert["rule"], alert["text"]) == ("MEM-R10", refused.value.explanation)
    assert "Ada" in alert["text"] or "Bo" in alert["text"]
    stream.close()
