"""Camera to stream: from a crystal appearing on the simulated table to its event at an MQTT
subscriber, and the app's start-up time.

The whole pipeline of `companion run --simulate`, without the screen: the virtual table
renders frames in real time at 15 frames a second; the real board reader reads each one and
the temporal filter commits a change once the hand has gone and two frames have read it the
same (clear-cut: the second frame after the hand, 133 ms; up to 250 ms when less sure), and
the table stops filming once what the camera reads is what it committed; the live game turns
the committed board into a claim, the referee commits it to SQLite, the stream publishes it
through the embedded broker, and a paho subscriber receives it. A hand puts a crystal down
on a place the rules allow; the clock starts when the crystal is in the scene (the frame of
the hand putting it down) and stops when the subscriber has the claim's event. The other
side then declines the challenge by touch, and the next placement follows: 200 placements,
over two games of 100 places.

Then the app itself (`companion app --check`, offscreen): the time from starting the process
to its first drawn frame, median of 5 starts.

Prints p50/p95 of the placement latency (floor: p95 <= 300 ms) and the start-up times.
Exits 1 when the floor is missed. `python bench/pipeline.py --placements 20` for a quick look.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.config import BrokerConfig
from companion.games.memwars.board_pieces import PieceColours
from companion.games.memwars.play.live import LiveGame
from companion.games.memwars.play.virtual_table import VirtualTable
from companion.publish.broker import EmbeddedBroker
from companion.publish.publisher import Publisher
from companion.publish.stream import GameStream
from companion.session import Referee
from companion.store import Store
from companion.table.not_started import NotStarted

FPS = 15.0
PLACEMENTS = 200
P95_FLOOR_MS = 300.0
BOARD = "bench-table"
STARTS = 5
WAIT_S = 10.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


class Subscriber:
    """Collects the claims that arrive on the event topic, with their arrival time."""

    def __init__(self, host: str, port: int) -> None:
        self.claims: queue.Queue[tuple[int, float]] = queue.Queue()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-subscriber")
        self.client.on_message = self._message
        ready = threading.Event()
        self.client.on_subscribe = lambda *_: ready.set()
        self.client.connect(host, port)
        self.client.subscribe(f"tabletop/{BOARD}/event", qos=1)
        self.client.loop_start()
        if not ready.wait(WAIT_S):
            raise SystemExit("the subscriber could not subscribe")

    def _message(self, _client: Any, _userdata: Any, message: Any) -> None:
        arrived = time.monotonic()
        event = json.loads(message.payload)["event"]
        if event.get("type") == "place_claimed":
            self.claims.put((int(event["place"]), arrived))

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def setup(seed: int) -> dict[str, Any]:
    from companion.decks import find_deck

    deck = find_deck("mythologies-of-earth")
    return {
        "sides": [{"name": "Ann", "colour": "red"}, {"name": "Bo", "colour": "blue"}],
        "cards": deck.board_map(),
        "max_depth": deck.depth,
        "first_player": 0,
        "north": "top",
        "seed": seed,
    }


def committed(live: LiveGame, seen: queue.Queue[dict[str, tuple[str, ...]]], seq: int) -> bool:
    """Hands what the camera commits to the game until the move is in, or the camera has
    gone quiet with the game held."""
    while live.view().seq <= seq:
        try:
            board = seen.get(timeout=WAIT_S if not live.view().held else 2.0)
        except queue.Empty:
            return False
        live.table_seen(board)
    return True


def play(
    store: Store,
    publisher: Publisher,
    subscriber: Subscriber,
    count: int,
    seed: int,
    misses: list[tuple[int, tuple[str, ...]]],
) -> list[float]:
    """Plays placements on one game until `count` are done or the board is full."""
    referee = Referee.start(
        store, "memwars", setup(seed), {"id": "mythologies-of-earth", "hash": "-"}
    )
    stream = GameStream(referee, publisher, board_id=BOARD, scans=None)
    colours = PieceColours(("red", "blue"), "yellow")
    live = LiveGame(referee, colours, camera=True)
    seen: queue.Queue[dict[str, tuple[str, ...]]] = queue.Queue()
    table = VirtualTable.start(side_count=2, on_seen=seen.put, fps=FPS)
    if isinstance(table, NotStarted):
        raise SystemExit(f"the virtual camera did not start: {table.why}")
    latencies: list[float] = []
    try:
        while len(latencies) < count:
            view = live.view()
            while [b.key for b in view.buttons] and view.buttons[0].key != "claim":
                live.decide(view.buttons[0].key)  # the rolls before the first claim
                view = live.view()
            if not view.places:
                break
            side = view.side_names.index(view.actor)
            place = view.places[((len(latencies) + len(misses)) * 7) % len(view.places)]
            table.put(str(place), colours.sides[side])
            if not committed(live, seen, view.seq):
                # The camera read something else: the game is held. Counted, put right, and
                # the bench goes on.
                misses.append((place, tuple(a.text for a in live.view().alerts)))
                table.follow(live.view().board)
                while live.view().held:
                    live.table_seen(seen.get(timeout=WAIT_S))
                continue
            claimed, arrived = subscriber.claims.get(timeout=WAIT_S)
            assert claimed == place, (claimed, place)
            latencies.append(arrived - table.changed_at[str(place)])
            live.decide("decline")
            # The pieces the rules moved (a quadrant won puts a crystal on its diamond) are
            # laid before the next placement, as players would.
            table.follow(live.view().board)
            while live.view().held:
                live.table_seen(seen.get(timeout=WAIT_S))
    finally:
        table.stop()
        publisher.wait_idle(5.0)
        stream.close()
    return latencies


def start_up_times(starts: int) -> list[float]:
    times = []
    with tempfile.TemporaryDirectory() as data:
        env = dict(
            os.environ,
            SDL_VIDEODRIVER="offscreen",
            COMPANION_DATA=data,
            COMPANION_CONFIG=str(Path(data) / "none.toml"),
        )
        for _ in range(starts):
            started = time.monotonic()
            process = subprocess.Popen(
                [sys.executable, "-m", "companion", "app", "--check", "--no-stream"],
                env=env,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert process.stdout is not None
            line = process.stdout.readline()
            drawn = time.monotonic()
            process.wait(timeout=30)
            if not line.startswith("First frame drawn"):
                raise SystemExit(f"the app did not start: {line!r}")
            times.append(drawn - started)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--placements", type=int, default=PLACEMENTS)
    parser.add_argument("--starts", type=int, default=STARTS)
    args = parser.parse_args()

    broker = EmbeddedBroker(port=0, ws_port=None)
    broker.start()
    latencies: list[float] = []
    misses: list[tuple[int, tuple[str, ...]]] = []
    with tempfile.TemporaryDirectory() as scratch, Store.open(Path(scratch) / "g.sqlite3") as store:
        publisher = Publisher.from_config(BrokerConfig(), BOARD, url=broker.url)
        subscriber = Subscriber("127.0.0.1", broker.port)
        try:
            game = 0
            while len(latencies) < args.placements:
                game += 1
                latencies += play(
                    store, publisher, subscriber, args.placements - len(latencies), game, misses
                )
        finally:
            subscriber.close()
            publisher.close()
            broker.close()
    ms = [1000 * t for t in latencies]
    p50, p95 = percentile(ms, 0.5), percentile(ms, 0.95)
    print(f"Pipeline at {FPS:g} frames/s, {len(ms)} placements over {game} games:")
    print(
        f"  crystal in the scene -> claim event at an MQTT subscriber: p50 {p50:.0f} ms, "
        f"p95 {p95:.0f} ms, max {max(ms):.0f} ms (floor: p95 <= {P95_FLOOR_MS:.0f} ms)"
    )
    print(
        "  of which the temporal filter's evidence once the hand has gone: two frames when"
        f" clear-cut ({2000 / FPS:.0f} ms at {FPS:g} frames/s), up to 250 ms when less sure"
    )
    print(f"  placements the camera read otherwise (the game held, put right): {len(misses)}")
    for place, alerts in misses:
        print(f"    place {place}: {'; '.join(alerts) or 'nothing committed'}")
    starts = start_up_times(args.starts)
    print(
        f"App start-up, process start to first drawn frame (offscreen, {len(starts)} starts): "
        f"median {statistics.median(starts):.2f} s, max {max(starts):.2f} s"
    )
    return 0 if p95 <= P95_FLOOR_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
