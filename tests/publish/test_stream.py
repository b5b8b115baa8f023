"""Whole games streamed to a real mosquitto: nothing hidden leaks, nothing committed is lost
across a broker outage, the clock ticks, scans and refusals become safe alerts, and Home
Assistant can discover the board."""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.decks.model import Deck
from companion.devices.cardreader.events import CardPresented
from companion.games.contract import IllegalAction
from companion.games.memwars import actions as A
from companion.games.memwars.play.simulation import demo_setup as simulation_setup
from companion.games.memwars.players import SimulatedTable
from companion.publish import wire
from companion.publish.homeassistant import node_id
from companion.publish.mosquitto import Mosquitto, find_mosquitto
from companion.publish.publisher import Publisher
from companion.publish.stream import REFUSED_SECRET, GameStream
from companion.session import Referee
from companion.store import Store
from companion.table.game_clock import GameClock
from companion.table.observations import ScanDesk
from tests.publish.conftest import Collector, network_calls, slow, start_game
from tests.publish.gate import Gate

BOARD = "table-1"
SHORT_OUTAGE_S = 5.0
LONG_OUTAGE_S = 60.0
"""The required outage: 60 s (COMPANION_QUICK_TESTS=1 leaves this one out)."""
FRESH_WITHIN_S = 2.0

pytestmark = pytest.mark.skipif(find_mosquitto() is None, reason="mosquitto is not installed")


@pytest.fixture()
def publishers() -> Iterator[Callable[..., Publisher]]:
    made: list[Publisher] = []

    def make(url: str, **options: Any) -> Publisher:
        publisher = Publisher(url, board_id=BOARD, **options)
        made.append(publisher)
        return publisher

    yield make
    for publisher in made:
        publisher.close(timeout=1)


def play(referee: Referee, table: SimulatedTable, actions: int = 10_000) -> int:
    played = 0
    while played < actions and (expectation := referee.expected()) is not None:
        referee.submit(table.next_action(referee.state, expectation))
        played += 1
    return played


def payloads(collector: Collector, suffix: str) -> list[dict[str, Any]]:
    return [json.loads(m.payload) for m in collector.on(suffix)]


def committed_events(store: Store, referee: Referee) -> list[tuple[int, dict[str, Any]]]:
    return [(seq, data) for seq, _, data in store.events(referee.game_id)]


@pytest.mark.parametrize(
    ("mode", "rules"),
    [("review", {}), ("basic", {"mw.basic.mustLocatePlace": True})],
)
def test_a_card_whose_place_is_the_answer_is_named_nowhere_until_judged(
    broker: Mosquitto,
    store: Store,
    deck: Deck,
    publishers: Callable[..., Publisher],
    collector_factory: Callable[..., Collector],
    mode: str,
    rules: dict[str, Any],
) -> None:
    collector = collector_factory(broker.port)
    setup = simulation_setup(deck.board_map(), list(deck.quadrants), deck.depth, mode, 5, 1)
    setup["house_rules"] = rules
    referee = Referee.start(store, "memwars", setup, {"id": deck.id, "hash": deck.hash})
    hidden: dict[int, int] = {}  # seq -> the card being answered, unseen by the table yet
    referee.subscribe(
        lambda n: (
            hidden.__setitem__(n.seq, n.state.current_card)
            if n.state.current_card and n.state.phase.value == "play"
            else None
        )
    )
    publisher = publishers(broker.url)
    stream = GameStream(referee, publisher, board_id=BOARD)
    recalls = tuple(0.6 for _ in referee.state.setup.sides)
    play(referee, SimulatedTable(referee.state.setup, recalls, 5), actions=120)
    assert publisher.wait_idle(20)
    stream.close()
    assert len(hidden) > 10, "no card was answered: the test proves nothing"

    place_of = {card.number: card.place for card in deck.cards}
    states = {p["seq"]: p for p in payloads(collector, "/state")}
    events = payloads(collector, "/event")
    checked = 0
    for seq, card in hidden.items():
        if seq not in states:
            continue  # a newer retained state replaced it before it went out
        checked += 1
        view = states[seq]["view"]
        assert view["current_card"] is None
        assert card not in view["expected"]["cards"], seq
        assert view["expected"]["places"] != [place_of[card]], seq
        assert str(card) not in view["expected"]["prompt"], seq
        # The events that presented it name neither the card nor its place.
        for payload in events:
            if payload["seq"] == seq:
                assert payload["event"].get("card") != card, payload
                assert payload["event"].get("place") != place_of[card], payload
    assert checked > 10


# ---------------------------------------------------------------------------- the leak test
def test_a_whole_game_publishes_nothing_hidden(
    broker: Mosquitto,
    store: Store,
    deck: Deck,
    publishers: Callable[..., Publisher],
    collector_factory: Callable[..., Collector],
) -> None:
    collector = collector_factory(broker.port)  # everything, Home Assistant's configs too
    referee = start_game(store, deck)
    engine = referee.engine
    truth: dict[int, dict[str, Any]] = {0: engine.view(referee.state, "table")}
    referee.subscribe(lambda n: truth.__setitem__(n.seq, engine.view(n.state, "table")))
    publisher = publishers(broker.url)
    stream = GameStream(referee, publisher, board_id=BOARD, home_assistant=True)
    table = SimulatedTable(referee.state.setup, (0.85, 0.6), 16)
    play(referee, table)
    assert referee.is_over
    assert publisher.wait_idle(20)
    stream.close()
    publisher.close()
    assert collector.wait_for(lambda ms: ms[-1].payload == b"offline")

    everything = b"\n".join(m.topic.encode() + b" " + m.payload for m in collector.messages)
    # Card facts never reach the engine, so they can never reach the stream.
    facts = [fact for card in deck.cards for fact in card.facts]
    assert len(facts) == 400
    for fact in facts:
        assert fact.encode() not in everything, fact
        assert json.dumps(fact)[1:-1].encode() not in everything, fact

    # Actions are never published: the kinds that are only actions never appear.
    action_kinds = {data["type"] for _, _, data in store.actions(referee.game_id)}
    event_kinds = {data["type"] for _, data in committed_events(store, referee)}
    assert "place_counter" in action_kinds - event_kinds
    for kind in action_kinds - event_kinds:
        assert f'"type":"{kind}"'.encode() not in everything, kind

    # Every event, in order, exactly as committed.
    events = payloads(collector, "/event")
    for payload in events:
        wire.validate("event", payload)
    assert [(p["seq"], p["event"]) for p in events] == committed_events(store, referee)
    taken = {
        p["event"]["place"]: p["seq"] for p in events if p["event"]["type"] == "counters_taken"
    }
    assert taken, "no place was won with counters on it: the test proves nothing"

    # No face-down value in any state before its place is won.
    states = payloads(collector, "/state")
    assert states[-1]["seq"] == referee.seq
    shown = 0
    for payload in states:
        wire.validate("state", payload)
        seq, view = payload["seq"], payload["view"]
        assert view["viewer"] == "spectator" and view["deck"] is None
        assert all(side["counter_values_in_hand"] is None for side in view["sides"])
        for place, real in zip(view["places"], truth[seq]["places"], strict=True):
            for counter, real_counter in zip(place["counters"], real["counters"], strict=True):
                if not real_counter["face_up"]:
                    assert counter["value"] is None, (seq, place["place"])
                if counter["value"] is not None:
                    assert taken.get(place["place"], math.inf) <= seq, (seq, place["place"])
                    shown += 1
        # Points from counters only for places whose counters were taken (turned up).
        for side in view["scores"]["sides"]:
            for place, _, from_counters in side["place_scores"]:
                if from_counters:
                    assert taken.get(place, math.inf) <= seq, (seq, place)
    assert shown, "no counter value was ever shown: the test proves nothing"
    face_down_placed = sum(1 for p in events if p["event"]["type"] == "counter_placed")
    assert face_down_placed > len(taken)  # some counters stayed face down to the end


# ---------------------------------------------------------------------------- the outage
def outage(
    seconds: float,
    broker: Mosquitto,
    store: Store,
    deck: Deck,
    publishers: Callable[..., Publisher],
    collector_factory: Callable[..., Collector],
) -> None:
    collector = collector_factory(broker.port)
    referee = start_game(store, deck, seed=5)
    table = SimulatedTable(referee.state.setup, (0.85, 0.6), 5)
    with Gate(broker.port) as gate:
        gate.open()
        publisher = publishers(gate.url)
        stream = GameStream(referee, publisher, board_id=BOARD)
        play(referee, table, 40)
        assert publisher.wait_idle(10)
        before = len(committed_events(store, referee))
        assert collector.wait_for(lambda ms: sum(m.topic.endswith("/event") for m in ms) == before)

        publish = publisher.publish
        used: list[str] = []

        def watched(message: wire.Message) -> None:
            with network_calls(gate.port) as made:
                publish(message)
            used.extend(made)

        publisher.publish = watched  # type: ignore[method-assign]
        broker.stop()
        gate.shut()  # until the subscriber is back: then the publisher may come through
        stopped = time.monotonic()
        during = 0
        while time.monotonic() - stopped < seconds:
            if referee.expected() is not None and during < 200:
                during += play(referee, table, 1)
            time.sleep(seconds / 100)
        assert during >= 50
        assert used == [], f"a publish used the network during the outage: {used}"
        assert not publisher.connected and publisher.stats().queued > during

        broker.start()  # no persistence: it has forgotten every retained message
        assert collector.wait_subscribed(2)
        back = time.monotonic()
        gate.open()
        seq = referee.seq
        assert collector.wait_for(
            lambda ms: any(
                m.topic.endswith("/state") and json.loads(m.payload)["seq"] == seq for m in ms
            ),
            timeout=FRESH_WITHIN_S + 5,
        )
        fresh = next(
            m.at
            for m in collector.messages
            if m.topic.endswith("/state") and json.loads(m.payload)["seq"] == seq
        )
        assert fresh - back < FRESH_WITHIN_S, f"state current {fresh - back:.2f} s after"

        play(referee, table)  # the rest of the game, live again
        assert referee.is_over
        assert publisher.wait_idle(20)
        stats = publisher.stats()
        assert (stats.dropped, stats.connections) == (0, 2)
        stream.close()

    # Every committed event arrived once the broker was back, in order (paho may resend a
    # message it had in flight when the broker went: QoS 1 is at least once).
    events = payloads(collector, "/event")
    received = [(p["seq"], p["event"]) for p in events]
    unique = [e for i, e in enumerate(received) if i == 0 or e != received[i - 1]]
    assert unique == committed_events(store, referee)
    # The retained state is the final state, for a display that connects now.
    late = collector_factory(broker.port, topic=f"tabletop/{BOARD}/state")
    assert late.wait_for(lambda ms: len(ms) == 1)
    final = json.loads(late.messages[0].payload)
    assert late.messages[0].retain
    assert final["seq"] == referee.seq
    assert final["view"] == json.loads(json.dumps(referee.engine.view(referee.state, "spectator")))


def test_a_broker_outage_loses_nothing(
    broker: Mosquitto,
    store: Store,
    deck: Deck,
    publishers: Callable[..., Publisher],
    collector_factory: Callable[..., Collector],
) -> None:
    outage(SHORT_OUTAGE_S, broker, store, deck, publishers, collector_factory)


@slow
@pytest.mark.slow
@pytest.mark.long
def test_a_minute_long_broker_outage_loses_nothing(
    broker: Mosquitto,
    store: Store,
    deck: Deck,
    publishers: Callable[..., Publisher],
    collector_factory: Callable[..., Collector],
) -> None:
    outage(LONG_OUTAGE_S, broker, store, deck, publishers, collector_factory)


# ---------------------------------------------------------------------------- the clock
CLOCK_SETUP: dict[str, Any] = {
    "sides": [{"name": "Ada"}, {"name": "Bo"}],
    "quadrants": [1],
    "first_player": 0,
    "north": "top",
    "depth": 1,
    "seed": 1,
    "timer": True,
}


def test_the_clock_is_published_on_changes_and_every_second_while_it_runs(
    broker: Mosquitto,
    store: Store,
    publishers: Callable[..., Publisher],
    collector_factory: Callable[..., Collector],
) -> None:
    collector = collector_factory(broker.port)
    referee = Referee.start(
        store,
        "memwars",
        CLOCK_SETUP,
        {},
        title="clocked",
        game_clock={"controls": ["300+5", "300+5"], "order": [0, 1]},
    )
    clock = GameClock.attach(referee)
    assert clock is not None and clock.clock.running == 0  # Ada's claim: her time runs
    publisher = publishers(broker.url)
    stream = GameStream(referee, publisher, board_id=BOARD, clock=clock)
    first = time.monotonic()
    assert collector.wait_for(lambda ms: len([m for m in ms if m.topic.endswith("/clock")]) >= 2)
    clocks = payloads(collector, "/clock")
    for payload in clocks:
        wire.validate("clock", payload)
    assert clocks[0]["running"] == 0 and clocks[0]["players"][0]["running"]
    assert clocks[1]["at"] - clocks[0]["at"] == pytest.approx(1.0, abs=0.3)
    assert clocks[1]["players"][0]["remaining_ms"] < clocks[0]["players"][0]["remaining_ms"]
    assert time.monotonic() - first < 3

    clock.pause()
    assert collector.wait_for(
        lambda ms: any(
            m.topic.endswith("/state") and json.loads(m.payload)["clock"]["paused"] for m in ms
        ),
        timeout=2,
    )
    assert payloads(collector, "/clock")[-1]["paused"] is True
    clock.resume()
    referee.submit(A.Claim(0, 1))  # Bo may challenge: Bo's time
    assert collector.wait_for(
        lambda ms: any(
            m.topic.endswith("/state")
            and json.loads(m.payload)["seq"] == referee.seq
            and json.loads(m.payload)["clock"]["running"] == 1
            for m in ms
        ),
        timeout=2,
    )
    state = payloads(collector, "/state")[-1]
    wire.validate("state", state)
    assert state["last_event"]["event"]["type"] == "challenge_offered"
    counted = len(collector.on("/clock"))
    clock.pause()
    time.sleep(1.5)  # paused: one reading for the pause, then nothing
    assert len(collector.on("/clock")) == counted + 1
    stream.close()


# ---------------------------------------------------------------------------- alerts
def test_scans_and_refusals_become_alerts_that_name_no_card(
    broker: Mosquitto,
    store: Store,
    deck: Deck,
    publishers: Callable[..., Publisher],
    collector_factory: Callable[..., Collector],
) -> None:
    from companion.games.memwars.play.simulation import demo_setup as simulation_setup

    collector = collector_factory(broker.port, topic=f"tabletop/{BOARD}/alert")
    setup = simulation_setup(deck.board_map(), list(deck.quadrants), deck.depth, "basic", 16)
    referee = Referee.start(store, "memwars", setup, {"id": deck.id})
    tags = {f"TAG{c.number:03d}": ("mythologies-of-earth", c.number) for c in deck.cards}
    tags["ALIEN1"] = ("other-deck", 7)
    desk = ScanDesk(referee, "mythologies-of-earth", tags.get)
    publisher = publishers(broker.url)
    stream = GameStream(referee, publisher, board_id=BOARD, scans=desk)

    def scan(tag: str) -> None:
        desk.scanned(CardPresented(tag, time.monotonic_ns(), "rdm6300"))

    scan("TAG017")  # no card is expected yet
    scan("NOBODY")
    scan("ALIEN1")
    table = SimulatedTable(referee.state.setup, (0.8, 0.6), 16)
    while not (expectation := referee.expected()) or not expectation.cards:
        play(referee, table, 1)
    wanted = expectation.cards[0]
    wrong = next(c.number for c in deck.cards if c.number not in expectation.cards)
    scan(f"TAG{wrong:03d}")
    scan(f"TAG{wanted:03d}")  # the expected card: no alert
    stream.refused(
        IllegalAction("MW-T3", "Ada has no counter of value 5 left (left: 3, 2)"),
        A.PlaceCounter(0, 12, 5),
    )
    stream.refused(IllegalAction("MW-SM1", "a claim is not expected now"), A.Claim(0, 13))
    stream.alert("The referee paused the game.", "info")
    assert publisher.wait_idle(10)
    assert collector.wait_for(lambda ms: len(ms) == 7)
    alerts = payloads(collector, "/alert")
    for payload in alerts:
        wire.validate("alert", payload)
    assert [(a["level"], a["text"], a["rule"]) for a in alerts] == [
        ("warning", wire.SCAN_NOT_NOW, None),
        ("warning", wire.SCAN_UNKNOWN, None),
        ("warning", wire.SCAN_OTHER_DECK, None),
        ("warning", wire.SCAN_NOT_EXPECTED, None),
        ("warning", REFUSED_SECRET, "MW-T3"),
        ("warning", "a claim is not expected now", "MW-SM1"),
        ("info", "The referee paused the game.", None),
    ]
    for alert in alerts[:5]:
        assert not re.search(r"\d", alert["text"])
    stream.close()


# ---------------------------------------------------------------------------- Home Assistant
def _pick(template: str, payload: dict[str, Any]) -> Any:
    """The value of a `{{ value_json.a.b[0].c }}` template (jinja2 is not a dependency)."""
    match = re.fullmatch(r"\{\{ value_json\.([\w.\[\]]+) \}\}", template)
    assert match, template
    value: Any = payload
    for name, index in re.findall(r"(\w+)|\[(\d+)\]", match.group(1)):
        value = value[name] if name else value[int(index)]
    return value


def test_home_assistant_discovers_scores_turn_and_clocks(
    broker: Mosquitto,
    store: Store,
    publishers: Callable[..., Publisher],
    collector_factory: Callable[..., Collector],
) -> None:
    referee = Referee.start(
        store,
        "memwars",
        CLOCK_SETUP,
        {},
        game_clock={"controls": ["300+5", "300+5"], "order": [0, 1]},
    )
    clock = GameClock.attach(referee)
    assert clock is not None
    publisher = publishers(broker.url)
    stream = GameStream(referee, publisher, board_id=BOARD, clock=clock, home_assistant=True)
    referee.submit(A.Claim(0, 1))
    assert publisher.wait_idle(10)
    stream.close()
    # Subscribed afterwards: the configs are retained.
    configs = collector_factory(broker.port, topic="homeassistant/#")
    topics = collector_factory(broker.port, topic=f"tabletop/{BOARD}/#")
    assert configs.wait_for(lambda ms: len(ms) == 5)
    assert topics.wait_for(lambda ms: any(m.topic.endswith("/state") for m in ms))
    state = payloads(topics, "/state")[0]
    node = node_id(BOARD)
    assert node == "companion_table-1"
    found: dict[str, dict[str, Any]] = {}
    for message in configs.messages:
        assert message.retain
        match = re.fullmatch(rf"homeassistant/sensor/{node}/(\w+)/config", message.topic)
        assert match, message.topic
        config = json.loads(message.payload)
        assert {
            "name",
            "unique_id",
            "state_topic",
            "value_template",
            "availability_topic",
            "device",
        } <= set(config)
        assert config["availability_topic"] == f"tabletop/{BOARD}/status"
        assert (config["payload_available"], config["payload_not_available"]) == (
            "online",
            "offline",
        )
        assert config["unique_id"] == f"{node}_{match.group(1)}"
        found[match.group(1)] = config
    assert sorted(found) == ["clock_0", "clock_1", "score_0", "score_1", "turn"]
    for side in (0, 1):
        score = found[f"score_{side}"]
        assert score["state_topic"] == f"tabletop/{BOARD}/state"
        assert (
            _pick(score["value_template"], state) == state["view"]["scores"]["sides"][side]["total"]
        )
        reading = found[f"clock_{side}"]
        assert reading["state_topic"] == f"tabletop/{BOARD}/clock"
        assert (
            _pick(reading["value_template"], {"players": state["clock"]["players"]})
            == (state["clock"]["players"][side]["text"])
        )
    turn = found["turn"]
    assert turn["state_topic"] == f"tabletop/{BOARD}/state"
    assert "value_json.view.turn" in turn["value_template"]
    assert "value_json.names" in turn["value_template"]


def test_the_stream_and_the_publisher_name_the_same_board(
    store: Store, deck: Deck, publishers: Callable[..., Publisher], broker: Mosquitto
) -> None:
    referee = start_game(store, deck)
    with pytest.raises(wire.WireError, match="board"):
        GameStream(referee, publishers(broker.url), board_id="table-2")
