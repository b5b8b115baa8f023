"""An event's load: many tables and their spectators through one mosquitto, then through the
hall's broker bridged to the spectators' broker; then a round's results through the hub.

1. single: 500 simulated tables each stream a real MemWars game to one mosquitto, as a
   table does: on every move one `event` message per event (QoS 1) and the retained `state`
   (QoS 1, about 5.4 kB), a `clock` reading (QoS 0) every second, a retained `online`
   status. 2,000 display pages each follow one table's topics (`state`, `event`, `alert`,
   `status` at QoS 1, `clock` at QoS 0, as companion/web/static/display.js subscribes) and
   4 walls follow every table (`+/state`, `+/status`, `+/clock`, and the hub's standings
   and pairings, as wall.js does). Floors: publish-to-spectator p99 <= 100 ms, 0 lost.
2. bridged: the same, the tables publishing to the hall's mosquitto, which forwards the
   public topics over TLS to the spectators' mosquitto with the bridge of
   docs/mosquitto/hall-bridge.conf; the spectators' broker runs the listener, users and ACL
   of docs/mosquitto/internet.conf, and the pages connect to it over TLS with the display
   login. Floors: p99 <= 150 ms, 0 lost.
3. hub: `companion tournament run` on an event of 1,000 players paired over 500 boards; each
   table publishes its game's result (retained, QoS 1, as a table does) at once. Floor: the
   hub's standings counting all 500 results are published (retained) within 2 s of the
   first result.

The payloads are a real game's: a standard two-quadrant MemWars game is played once between
simulated players (the plugin's random_action), refereed and streamed by GameStream into a
recorder, each message checked against its schema; every table replays those messages under
its own board id, starting at its own move. The send time travels in the payload's `t`
(game seconds, which every schema has; here the game's start is the benchmark's common
epoch, so `t` is the moment the message was sent, to the microsecond, on the machine's
monotonic clock) and the clock's `at` likewise; a page takes `t` from the payload's first
bytes on arrival. Every message a page should get while the tables play is counted: lost =
expected less received, for each page.

The clients are paho clients on paho's external-loop API, many to a process, each process
one selector loop: the tables in one process, the pages in two (`--processes`). Every
process's CPU time is printed beside the brokers' and the hub's memory (peak RSS) and CPU
time, with how long each waited, ready to run, for a CPU (all from /proc): on a small or
busy machine the Python load generator, not the broker, may be what runs late. The brokers
log as mosquitto does by default (no line per message); `--tcp-nodelay` runs them with
`set_tcp_nodelay true`, which the documented configurations do not set.

Floors are printed beside the figures; a missed one says MISSED. The exit code is 0 either
way, unless `--strict`. Run with `make bench`; `python bench/event.py --tables 50
--spectators 200 --seconds 10` for a quick look, `--only single|bridged|hub` for one part
(repeated for more).
"""

from __future__ import annotations

import contextlib
import hashlib
import heapq
import json
import multiprocessing
import multiprocessing.connection
import os
import random
import re
import selectors
import subprocess
import sys
import tempfile
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from bench.options import options
from companion.clock import model
from companion.clock.notation import parse
from companion.games import find_plugin
from companion.publish import wire
from companion.publish.mosquitto import Mosquitto
from companion.publish.publisher import Publisher
from companion.publish.stream import GameStream
from companion.session import Referee
from companion.store import Store, utc_now
from companion.tournament.event_store import EventStore
from companion.tournament.rounds import next_round

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "mosquitto"
PREFIX = wire.DEFAULT_PREFIX
HUB = "tournament"  # the hub's default id, whose topics the documented bridge sends out
DIVISION = "Open"
GAME = "memwars"
SETUP_INDEX = 1  # memwars' example set-ups: standard, two quadrants (140 actions)
TIME_CONTROL = "40/7200+30"

TABLES = 500
SPECTATORS = 2000
WALLS = 4
SECONDS = 60.0
MOVE_EVERY_S = 5.0
CLOCK_EVERY_S = 1.0
PROCESSES = 2
PARTS = ("single", "bridged", "hub")

P99_SINGLE_MS = 100.0
P99_BRIDGED_MS = 150.0
LOST_FLOOR = 0
HUB_FLOOR_S = 2.0
HUB_TIMEOUT_S = 300.0

CONNECT_TIMEOUT_S = 120.0
DRAIN_TIMEOUT_S = 15.0
MISC_EVERY_S = 1.0
KEEPALIVE_S = 60
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
HALL_PASSWORD = "hall-secret"
DISPLAY = ("display", "shown-to-all")

DISPLAY_TOPICS = (("state", 1), ("event", 1), ("alert", 1), ("status", 1), ("clock", 0))
WALL_TOPICS = ("+/state", "+/status", "+/clock", "+/standings/+", "+/pairings/+")
LIVE_KINDS = ("state", "event", "clock")
"""What tables publish while they play; `status` is published once, retained, before."""


def board_name(index: int) -> str:
    return f"table-{index + 1}"


# -- a real game's messages -----------------------------------------------------------------


@dataclass(frozen=True)
class Template:
    """A message without its header: the JSON object's text after `{"schema":1,"board":..,
    "t":..,` (and `"at":..,` for a clock), so a table makes it with its board and time."""

    kind: str
    rest: bytes

    def make(self, board: str, t: float) -> bytes:
        at = b'"at":%.6f,' % t if self.kind == "clock" else b""
        return b'{"schema":1,"board":"%s","t":%.6f,%s%s' % (board.encode(), t, at, self.rest)


@dataclass(frozen=True)
class Game:
    moves: tuple[tuple[Template, ...], ...]
    """Each move's messages in the order a table publishes them: its events, then the state."""
    clocks: tuple[Template, ...]
    """A clock reading a second apart, while the players move in turn."""
    first_state: Template


def template(kind: str, payload: dict[str, Any]) -> Template:
    header = ("schema", "board", "t", "at") if kind == "clock" else ("schema", "board", "t")
    rest = wire.encode({k: v for k, v in payload.items() if k not in header})
    made = Template(kind, rest[1:])
    # The made message is the one wire.encode would give, and valid.
    sample = json.loads(made.make("table-1", 12.5))
    wire.validate(kind, sample)
    if kind != "clock" and wire.encode(sample) != wire.encode(
        {**payload, "board": "table-1", "t": 12.5}
    ):
        raise AssertionError(f"a {kind} template does not make the table's message")
    return made


class Recorder:
    """Stands in for a Publisher: keeps what a GameStream publishes."""

    def __init__(self, board: str) -> None:
        self.topics = wire.Topics(PREFIX, board)
        self.messages: list[wire.Message] = []

    def publish(self, message: wire.Message) -> None:
        self.messages.append(message)


def record_game(seed: int = 1) -> Game:
    """A standard MemWars game between simulated players, streamed as a table streams it,
    with a game clock's reading in every state, as a table with a clock publishes it."""
    plugin = find_plugin(GAME)
    setup = list(plugin.example_setups())[SETUP_INDEX]
    rng = random.Random(seed)
    game_seconds = [0.0]

    def clock() -> float:
        game_seconds[0] += rng.uniform(3.0, 12.0)
        return game_seconds[0]

    with (
        tempfile.TemporaryDirectory() as folder,
        Store.open(Path(folder) / "table.sqlite3") as store,
    ):
        referee = Referee.start(store, GAME, setup, {}, clock, title="Round 1")
        recorder = Recorder("table-1")
        stream = GameStream(referee, cast(Publisher, recorder), board_id="table-1")
        while not referee.is_over:
            referee.submit(plugin.random_action(referee.state, rng))
        stream.close()

    controls = [parse(TIME_CONTROL)] * 2
    game_clock, _ = model.start(model.new_clock(controls), 0, 0)
    readings: list[dict[str, Any]] = []
    for second in range(120):
        at_ns = second * 1_000_000_000
        if second and second % 9 == 0:  # a move every nine seconds or so
            running = game_clock.running if game_clock.running is not None else 0
            game_clock, _ = model.press(game_clock, running, at_ns)
        readings.append(wire.clock_reading(model.display(game_clock, at_ns), second))

    moves: list[tuple[Template, ...]] = []
    current: list[Template] = []
    first_state: Template | None = None
    for number, message in enumerate(recorder.messages):
        payload = json.loads(message.payload)
        if message.kind == "state":
            payload["clock"] = readings[number % len(readings)]
            made = template("state", payload)
            if first_state is None:
                first_state = made
            else:
                moves.append((*current, made))
            current = []
        elif message.kind == "event":
            current.append(template("event", payload))
    clocks = tuple(
        template("clock", wire.clock_payload(board="table-1", reading=r)) for r in readings
    )
    assert first_state is not None and moves
    return Game(tuple(moves), clocks, first_state)


# -- many paho clients in one process ---------------------------------------------------------

CONTROL = object()


class Loop:
    """Many paho clients on one selector, in the calling thread (paho's external loop), with
    the control pipe from the benchmark's main process on the same selector."""

    def __init__(self, control: multiprocessing.connection.Connection) -> None:
        self.selector = selectors.DefaultSelector()
        self.clients: list[mqtt.Client] = []
        self.control = control
        self.selector.register(control, selectors.EVENT_READ, CONTROL)
        self._next_misc = time.monotonic() + MISC_EVERY_S

    def add(self, client: mqtt.Client) -> None:
        client.on_socket_open = self._socket_open
        client.on_socket_close = self._socket_close
        client.on_socket_register_write = self._register_write
        client.on_socket_unregister_write = self._unregister_write
        self.clients.append(client)

    def _socket_open(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        self.selector.register(sock, selectors.EVENT_READ, client)

    def _socket_close(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self.selector.unregister(sock)

    def _register_write(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        self.selector.modify(sock, selectors.EVENT_READ | selectors.EVENT_WRITE, client)

    def _unregister_write(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        with contextlib.suppress(KeyError, ValueError):
            self.selector.modify(sock, selectors.EVENT_READ, client)

    def poll(self, timeout: float) -> bool:
        """Serves the clients for at most `timeout` s; True when the main process wrote."""
        now = time.monotonic()
        timeout = max(0.0, min(timeout, self._next_misc - now))
        told = False
        for key, mask in self.selector.select(timeout):
            if key.data is CONTROL:
                told = True
                continue
            client = cast(mqtt.Client, key.data)
            if mask & selectors.EVENT_READ:
                # Read until the socket has nothing more: with TLS, bytes already decrypted
                # would not wake the selector again.
                client.loop_read(max_packets=10_000)
            if mask & selectors.EVENT_WRITE:
                client.loop_write()
        if time.monotonic() >= self._next_misc:
            for client in self.clients:
                client.loop_misc()
            self._next_misc = time.monotonic() + MISC_EVERY_S
        return told

    def until(self, done: Callable[[], bool], timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if time.monotonic() > deadline:
                raise RuntimeError(f"not every client {what} within {timeout:g} s")
            self.poll(0.05)


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    login: tuple[str, str] | None = None
    ca_file: str | None = None


def new_client(name: str, broker: Broker, loop: Loop, connected: list[int]) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=name)
    client.max_inflight_messages_set(100)
    if broker.login is not None:
        client.username_pw_set(*broker.login)
    if broker.ca_file is not None:
        client.tls_set(ca_certs=broker.ca_file)

    def on_connect(c: mqtt.Client, u: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            raise RuntimeError(f"{name}: the broker refused the connection: {reason}")
        connected[0] += 1

    client.on_connect = on_connect
    loop.add(client)
    return client


# -- the tables -------------------------------------------------------------------------------


@dataclass(frozen=True)
class TablesJob:
    broker: Broker
    boards: tuple[int, ...]
    game: Game
    epoch: float
    seconds: float
    move_every: float
    seed: int


def tables_worker(job: TablesJob, control: multiprocessing.connection.Connection) -> None:
    """One process: the tables of `job.boards`, each a client; told when to play."""
    try:
        _tables(job, control)
    except BaseException as err:
        control.send(("error", f"tables: {type(err).__name__}: {err}"))
        raise


def _tables(job: TablesJob, control: multiprocessing.connection.Connection) -> None:
    loop = Loop(control)
    connected = [0]
    acked = [0]
    clients: list[mqtt.Client] = []
    names = [board_name(i) for i in job.boards]
    for name in names:
        client = new_client(name, job.broker, loop, connected)
        client.will_set(f"{PREFIX}/{name}/status", wire.OFFLINE, qos=1, retain=True)
        client.on_publish = lambda *args: acked.__setitem__(0, acked[0] + 1)
        client.connect(job.broker.host, job.broker.port, keepalive=KEEPALIVE_S)
        clients.append(client)
    loop.until(lambda: connected[0] == len(clients), CONNECT_TIMEOUT_S, "connected")
    # As a table starts streaming: its status and its state, retained.
    sent = 0
    for name, client in zip(names, clients, strict=True):
        client.publish(f"{PREFIX}/{name}/status", wire.ONLINE, qos=1, retain=True)
        state = job.game.first_state.make(name, time.monotonic() - job.epoch)
        client.publish(f"{PREFIX}/{name}/state", state, qos=1, retain=True)
        sent += 2
    loop.until(lambda: acked[0] >= sent, CONNECT_TIMEOUT_S, "published its first state")
    control.send(("ready",))
    while not loop.poll(1.0):
        pass
    _, start = control.recv()

    rng = random.Random(job.seed)
    counts = {kind: [0] * len(clients) for kind in LIVE_KINDS}
    topics = {kind: [f"{PREFIX}/{n}/{kind}" for n in names] for kind in LIVE_KINDS}
    moves = job.game.moves
    clocks = job.game.clocks
    next_move = [rng.randrange(len(moves)) for _ in clients]
    # (due, table, what): what is 0 for a clock reading, 1 for a move.
    due: list[tuple[float, int, int]] = []
    for i in range(len(clients)):
        due.append((start + CLOCK_EVERY_S * (i + 0.5) / len(clients), i, 0))
        due.append((start + rng.uniform(0.0, job.move_every), i, 1))
    heapq.heapify(due)
    end = start + job.seconds
    lateness = array("d")
    published = 0
    while due:
        now = time.monotonic()
        while due and due[0][0] <= now:
            when, i, what = heapq.heappop(due)
            lateness.append(time.monotonic() - when)
            client = clients[i]
            if what == 0:
                reading = clocks[int(when - start) % len(clocks)]
                payload = reading.make(names[i], time.monotonic() - job.epoch)
                client.publish(topics["clock"][i], payload, qos=0)
                counts["clock"][i] += 1
                published += 1
                following = when + CLOCK_EVERY_S
            else:
                move = moves[next_move[i] % len(moves)]
                next_move[i] += 1
                for message in move:
                    payload = message.make(names[i], time.monotonic() - job.epoch)
                    retain = message.kind == "state"
                    client.publish(topics[message.kind][i], payload, qos=1, retain=retain)
                    counts[message.kind][i] += 1
                    published += 1
                following = when + job.move_every * rng.uniform(0.5, 1.5)
            if following < end:
                heapq.heappush(due, (following, i, what))
            now = time.monotonic()
        wait = (due[0][0] - time.monotonic()) if due else 0.0
        loop.poll(max(0.0, wait))
    # paho reports a QoS 0 message when written, a QoS 1 message when acknowledged.
    with contextlib.suppress(RuntimeError):
        loop.until(lambda: acked[0] - sent >= published, DRAIN_TIMEOUT_S, "had its messages sent")
    control.send(("played", names, counts, lateness.tobytes()))
    while not loop.poll(1.0):
        pass
    control.recv()
    for client in clients:
        client.disconnect()
    with contextlib.suppress(RuntimeError):
        loop.until(lambda: not loop.selector.get_map() or len(loop.selector.get_map()) <= 1, 5, "")
    control.send(("done",))


# -- the spectators ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    name: str
    board: str | None
    """The table a display follows; None for a wall, which follows every table."""


@dataclass(frozen=True)
class PagesJob:
    broker: Broker
    pages: tuple[Page, ...]
    tables: int
    epoch: float


@dataclass
class Seen:
    live: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LIVE_KINDS, 0))
    retained: int = 0


def pages_worker(job: PagesJob, control: multiprocessing.connection.Connection) -> None:
    """One process: display pages and walls, each a client, counting and timing what comes."""
    try:
        _pages(job, control)
    except BaseException as err:
        control.send(("error", f"pages: {type(err).__name__}: {err}"))
        raise


def _pages(job: PagesJob, control: multiprocessing.connection.Connection) -> None:
    loop = Loop(control)
    connected = [0]
    subscribed = [0]
    seen = [Seen() for _ in job.pages]
    latencies = {kind: array("d") for kind in (*LIVE_KINDS, "walls", "display pages")}
    epoch = job.epoch
    clients: list[mqtt.Client] = []
    for index, page in enumerate(job.pages):
        client = new_client(page.name, job.broker, loop, connected)
        if page.board is None:
            filters = [(f"{PREFIX}/{f}", 0 if f.endswith("clock") else 1) for f in WALL_TOPICS]
        else:
            filters = [(f"{PREFIX}/{page.board}/{kind}", qos) for kind, qos in DISPLAY_TOPICS]

        def on_connect(
            c: mqtt.Client, u: Any, flags: Any, reason: Any, props: Any, filters: Any = filters
        ) -> None:
            if reason.is_failure:
                raise RuntimeError(f"a page: the broker refused the connection: {reason}")
            connected[0] += 1
            c.subscribe(filters)

        def on_subscribe(c: mqtt.Client, u: Any, mid: int, codes: Any, props: Any) -> None:
            if any(code.is_failure for code in codes):
                raise RuntimeError(f"a page's subscription was refused: {codes}")
            subscribed[0] += 1

        def on_message(
            c: mqtt.Client,
            u: Any,
            message: mqtt.MQTTMessage,
            got: Seen = seen[index],
            who: str = "walls" if page.board is None else "display pages",
        ) -> None:
            arrived = time.monotonic() - epoch
            if message.retain:
                got.retained += 1
                return
            kind = message.topic.rsplit("/", 1)[1]
            if kind not in got.live:
                return
            payload = message.payload
            start = payload.find(b'"t":', 0, 200) + 4
            sent = float(payload[start : payload.find(b",", start)])
            latencies[kind].append(arrived - sent)
            latencies[who].append(arrived - sent)
            got.live[kind] += 1

        client.on_connect = on_connect
        client.on_subscribe = on_subscribe
        client.on_message = on_message
        client.connect(job.broker.host, job.broker.port, keepalive=KEEPALIVE_S)
        clients.append(client)
        if index % 50 == 49:  # serve the connections made so far
            loop.poll(0)
    loop.until(lambda: subscribed[0] == len(clients), CONNECT_TIMEOUT_S, "subscribed")
    wanted = sum(2 if page.board else 2 * job.tables for page in job.pages)
    with contextlib.suppress(RuntimeError):
        loop.until(
            lambda: sum(s.retained for s in seen) >= wanted, CONNECT_TIMEOUT_S, "was retained"
        )
    control.send(("ready", sum(s.retained for s in seen), wanted))
    while not loop.poll(1.0):
        pass
    _, expected = control.recv()  # {board: {kind: count}}, once the tables have played
    every = {kind: sum(counts[kind] for counts in expected.values()) for kind in LIVE_KINDS}

    def wants(page: Page) -> dict[str, int]:
        if page.board is None:
            return {"state": every["state"], "event": 0, "clock": every["clock"]}
        return dict(expected[page.board])

    goals = [wants(page) for page in job.pages]

    def complete() -> bool:
        return all(
            s.live[k] >= goal[k] for s, goal in zip(seen, goals, strict=True) for k in LIVE_KINDS
        )

    with contextlib.suppress(RuntimeError):
        loop.until(complete, DRAIN_TIMEOUT_S, "got every message")
    lost = {
        k: sum(max(0, g[k] - s.live[k]) for s, g in zip(seen, goals, strict=True))
        for k in LIVE_KINDS
    }
    extra = {
        k: sum(max(0, s.live[k] - g[k]) for s, g in zip(seen, goals, strict=True))
        for k in LIVE_KINDS
    }
    wanted_live = {k: sum(g[k] for g in goals) for k in LIVE_KINDS}
    control.send(("seen", wanted_live, lost, extra, {k: v.tobytes() for k, v in latencies.items()}))
    while not loop.poll(1.0):
        pass
    control.recv()
    for client in clients:
        client.disconnect()
    control.send(("done",))


# -- the brokers and the processes watched ------------------------------------------------------

LOG_TYPES = ("error", "warning", "notice", "information")
"""mosquitto's own default: no line per message."""


def documented_acl() -> str:
    """The ACL of docs/mosquitto/internet.conf, as the lines of a file."""
    text = (DOCS / "internet.conf").read_text(encoding="utf-8")
    acl = text.split("# /etc/mosquitto/acl:", 1)[1]
    return "\n".join(line.removeprefix("#").strip() for line in acl.splitlines() if line.strip())


def documented_bridge(port: int, ca: Path) -> tuple[str, ...]:
    """docs/mosquitto/hall-bridge.conf as written, pointed at `port` and `ca`, with this
    benchmark's password."""
    lines = []
    for line in (DOCS / "hall-bridge.conf").read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        line = re.sub(r"^address .*", f"address 127.0.0.1:{port}", line)
        line = re.sub(r"^bridge_cafile .*", f"bridge_cafile {ca}", line)
        line = re.sub(r"^remote_password .*", f"remote_password {HALL_PASSWORD}", line)
        lines.append(line)
    return tuple(lines)


@dataclass
class Network:
    tables: Broker
    pages: Broker
    brokers: dict[str, int]
    """Each broker's process id, by the name printed."""


def wait_for_bridge(hall: Broker, online: Broker) -> None:
    """Publishes to the hall until a message crosses the bridge (it may still connect)."""
    got: list[bytes] = []
    listener = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-bridge-check")
    assert online.login is not None and online.ca_file is not None
    listener.username_pw_set(*online.login)
    listener.tls_set(ca_certs=online.ca_file)
    listener.on_message = lambda c, u, m: got.append(bytes(m.payload))
    listener.connect(online.host, online.port)
    listener.subscribe(f"{PREFIX}/bench-check/status", qos=1)
    listener.loop_start()
    sender = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-check")
    sender.connect(hall.host, hall.port)
    sender.loop_start()
    try:
        for _ in range(100):
            sender.publish(f"{PREFIX}/bench-check/status", wire.ONLINE, qos=1).wait_for_publish(5)
            time.sleep(0.2)
            if got:
                return
        raise RuntimeError("nothing crossed the bridge in 20 s")
    finally:
        for client in (sender, listener):
            client.disconnect()
            client.loop_stop()


@contextlib.contextmanager
def network(bridged: bool, settings: tuple[str, ...] = ()) -> Iterator[Network]:
    if not bridged:
        with Mosquitto(log_types=LOG_TYPES, settings=settings) as broker:
            assert broker.pid is not None
            one = Broker("127.0.0.1", broker.port)
            yield Network(one, one, {"mosquitto": broker.pid})
        return
    with Mosquitto(
        tls=True,
        acl=documented_acl(),
        users=(("hall", HALL_PASSWORD), DISPLAY),
        log_types=LOG_TYPES,
        settings=settings,
    ) as spectators:
        assert spectators.tls_port is not None and spectators.ca_file is not None
        bridge = documented_bridge(spectators.tls_port, spectators.ca_file)
        with Mosquitto(bridge=bridge, log_types=LOG_TYPES, settings=settings) as hall:
            assert hall.pid is not None and spectators.pid is not None
            tables = Broker("127.0.0.1", hall.port)
            pages = Broker("localhost", spectators.tls_port, DISPLAY, str(spectators.ca_file))
            wait_for_bridge(tables, pages)
            yield Network(
                tables,
                pages,
                {"hall's mosquitto": hall.pid, "spectators' mosquitto": spectators.pid},
            )


def proc_cpu(pid: int) -> float:
    """User and system CPU seconds of a process so far (/proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def proc_waited(pid: int) -> float:
    """Seconds the process's threads have waited, ready to run, for a CPU
    (/proc/<pid>/task/*/schedstat: time on the CPU, time waiting on a run queue, slices)."""
    waited = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            waited += int((task / "schedstat").read_text().split()[1])
    return waited / 1e9


def proc_peak_rss(pid: int) -> int:
    """The most memory the process has held (its RSS high-water mark, VmHWM), in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return 0


class Watch:
    """The memory and CPU time of some processes, read from /proc."""

    def __init__(self, pids: dict[str, int]) -> None:
        self.pids = dict(pids)
        self.peak_rss = dict.fromkeys(pids, 0)
        self.marks: dict[str, dict[str, float]] = {}
        self.waits: dict[str, dict[str, float]] = {}
        self.sample()

    def sample(self) -> None:
        for name, pid in self.pids.items():
            with contextlib.suppress(OSError):
                self.peak_rss[name] = max(self.peak_rss[name], proc_peak_rss(pid))

    def mark(self, label: str) -> None:
        self.sample()
        self.marks[label] = {}
        self.waits[label] = {}
        for name, pid in self.pids.items():
            with contextlib.suppress(OSError):
                self.marks[label][name] = proc_cpu(pid)
                self.waits[label][name] = proc_waited(pid)

    def spent(self, since: str, until: str, name: str) -> float:
        """CPU seconds between two marks."""
        return self.marks[until].get(name, 0.0) - self.marks[since].get(name, 0.0)

    def waited(self, since: str, until: str, name: str) -> float:
        """Seconds spent ready to run but waiting for a CPU, between two marks."""
        return self.waits[until].get(name, 0.0) - self.waits[since].get(name, 0.0)


# -- one streaming run ----------------------------------------------------------------------------


@dataclass
class StreamResult:
    latencies: dict[str, list[float]]
    pages: dict[str, list[float]]
    """The same by who got them: the display pages, the walls."""
    expected: dict[str, int]
    lost: dict[str, int]
    extra: dict[str, int]
    published: dict[str, int]
    retained: tuple[int, int]
    lateness: list[float]
    watch: Watch
    seconds: float


class Worker:
    def __init__(
        self, name: str, target: Callable[..., None], job: object, watch_pids: dict[str, int]
    ) -> None:
        context = multiprocessing.get_context("spawn")
        self.name = name
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(target=target, args=(job, theirs), name=name, daemon=True)
        self.process.start()
        theirs.close()
        assert self.process.pid is not None
        watch_pids[name] = self.process.pid

    def expect(self, what: str, timeout: float, watch: Watch | None = None) -> tuple[Any, ...]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if watch is not None:
                watch.sample()
            if self.pipe.poll(1.0):
                message = cast(tuple[Any, ...], self.pipe.recv())
                if message[0] == "error":
                    raise SystemExit(f"bench/event.py: {message[1]}")
                if message[0] != what:
                    raise SystemExit(f"bench/event.py: {self.name} said {message[0]!r}")
                return message
            if not self.process.is_alive():
                raise SystemExit(f"bench/event.py: {self.name} ended without a word")
        raise SystemExit(f"bench/event.py: {self.name}: no {what!r} within {timeout:g} s")

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join(10)


def pages_of(args: Any) -> list[list[Page]]:
    pages = [Page(f"display-{j + 1}", board_name(j % args.tables)) for j in range(args.spectators)]
    pages += [Page(f"wall-{w + 1}", None) for w in range(args.walls)]
    shares: list[list[Page]] = [[] for _ in range(args.processes)]
    for index, page in enumerate(pages):
        shares[index % args.processes].append(page)
    return [share for share in shares if share]


def stream_run(bridged: bool, args: Any, game: Game) -> StreamResult:
    settings = ("set_tcp_nodelay true",) if args.tcp_nodelay else ()
    with network(bridged, settings) as net:
        epoch = time.monotonic()
        pids = dict(net.brokers)
        workers: list[Worker] = []
        try:
            tables_job = TablesJob(
                net.tables,
                tuple(range(args.tables)),
                game,
                epoch,
                args.seconds,
                args.move_every,
                seed=7,
            )
            tables = Worker("tables", tables_worker, tables_job, pids)
            workers.append(tables)
            tables.expect("ready", CONNECT_TIMEOUT_S)
            pages = [
                Worker(
                    f"pages {n + 1}",
                    pages_worker,
                    PagesJob(net.pages, tuple(share), args.tables, epoch),
                    pids,
                )
                for n, share in enumerate(pages_of(args))
            ]
            workers += pages
            retained = [0, 0]
            for worker in pages:
                _, got, wanted = worker.expect("ready", CONNECT_TIMEOUT_S)
                retained[0] += got
                retained[1] += wanted
            watch = Watch(pids)
            watch.mark("connected")
            began = time.monotonic()
            tables.pipe.send(("go", time.monotonic() + 0.5))
            _, names, counts, lateness = tables.expect("played", args.seconds + 60, watch)
            watch.mark("played")
            expected = {
                name: {kind: counts[kind][i] for kind in LIVE_KINDS} for i, name in enumerate(names)
            }
            for worker in pages:
                worker.pipe.send(("expect", expected))
            seen = [worker.expect("seen", DRAIN_TIMEOUT_S + 60, watch) for worker in pages]
            watch.mark("drained")
            took = time.monotonic() - began
            result = StreamResult(
                latencies={kind: [] for kind in LIVE_KINDS},
                pages={"display pages": [], "walls": []},
                expected=dict.fromkeys(LIVE_KINDS, 0),
                lost=dict.fromkeys(LIVE_KINDS, 0),
                extra=dict.fromkeys(LIVE_KINDS, 0),
                published={kind: sum(counts[kind]) for kind in LIVE_KINDS},
                retained=(retained[0], retained[1]),
                lateness=sorted(array("d", lateness)),
                watch=watch,
                seconds=took,
            )
            for _, wanted, lost, extra, latencies in seen:
                for kind in LIVE_KINDS:
                    result.expected[kind] += wanted[kind]
                    result.lost[kind] += lost[kind]
                    result.extra[kind] += extra[kind]
                    result.latencies[kind] += array("d", latencies[kind])
                for who in result.pages:
                    result.pages[who] += array("d", latencies[who])
            for worker in workers:
                worker.pipe.send(("stop",))
            for worker in workers:
                with contextlib.suppress(SystemExit):
                    worker.expect("done", 30)
            return result
        finally:
            for worker in workers:
                worker.stop()


def percentile(ordered: Sequence[float], fraction: float) -> float:
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def megabytes(n: int) -> str:
    return f"{n / 2**20:.0f} MB"


def report_stream(label: str, result: StreamResult, floor_ms: float, args: Any) -> bool:
    every = sorted(x for values in result.latencies.values() for x in values)
    expected = sum(result.expected.values())
    lost = sum(result.lost.values())
    p99 = percentile(every, 0.99) * 1000
    print(
        f"{label}: {args.tables} tables, {args.spectators} display pages and {args.walls} walls,"
        f" {args.seconds:g} s of play, a move every {args.move_every:g} s on average"
        f" ({result.seconds:.1f} s from the first move to the last message counted)"
    )
    published = ", ".join(f"{n} {kind}" for kind, n in result.published.items())
    print(f"  published: {published} messages")
    print(
        f"  retained on subscribing: {result.retained[0]} of {result.retained[1]}"
        " (each page: its table's state and status; each wall: every table's)"
    )
    print(
        f"  publish to spectator, all {len(every)} messages:"
        f" p50 {percentile(every, 0.5) * 1000:.1f} ms,"
        f" p95 {percentile(every, 0.95) * 1000:.1f} ms, p99 {p99:.1f} ms,"
        f" max {every[-1] * 1000 if every else float('nan'):.1f} ms"
        f" (floor: p99 <= {floor_ms:.0f} ms){'' if p99 <= floor_ms else ' MISSED'}"
    )
    for kind in LIVE_KINDS:
        values = sorted(result.latencies[kind])
        print(
            f"    {kind:5}: {len(values)} received, p50 {percentile(values, 0.5) * 1000:.1f} ms,"
            f" p99 {percentile(values, 0.99) * 1000:.1f} ms; {result.lost[kind]} lost,"
            f" {result.extra[kind]} more than sent"
        )
    for who, values in result.pages.items():
        values.sort()
        print(
            f"    {who}: {len(values)} received, p50 {percentile(values, 0.5) * 1000:.1f} ms,"
            f" p99 {percentile(values, 0.99) * 1000:.1f} ms"
        )
    print(
        f"  lost: {lost} of {expected} expected (floor: {LOST_FLOOR})"
        f"{'' if lost <= LOST_FLOOR else ' MISSED'}"
    )
    late = result.lateness
    print(
        f"  the tables kept their schedule to p50 {percentile(late, 0.5) * 1000:.1f} ms,"
        f" p99 {percentile(late, 0.99) * 1000:.1f} ms, max {late[-1] * 1000 if late else 0:.1f} ms"
    )
    watch = result.watch
    playing = args.seconds
    for name in watch.pids:
        spent = watch.spent("connected", "drained", name)
        waited = watch.waited("connected", "drained", name)
        print(
            f"  {name}: RSS peak {megabytes(watch.peak_rss[name])}, CPU {spent:.1f} s while"
            f" playing ({100 * spent / playing:.0f}% of a core), {waited:.1f} s waiting for a CPU"
        )
    generator = sum(
        watch.spent("connected", "drained", n)
        for n in watch.pids
        if n.startswith(("tables", "pages"))
    )
    brokers = sum(watch.spent("connected", "drained", n) for n in watch.pids if "mosquitto" in n)
    print(
        f"  the load generator used {generator:.1f} s of CPU, the brokers {brokers:.1f} s,"
        f" in {result.seconds:.1f} s on {os.cpu_count()} cores"
        f" (load average now {os.getloadavg()[0]:.1f})"
    )
    late_p99 = percentile(late, 0.99) * 1000
    if p99 > floor_ms and late_p99 >= floor_ms / 2:
        print(
            f"  note: the tables themselves ran {late_p99:.0f} ms late at p99: the load generator"
            " was kept waiting for a CPU (the time each process waited is above)"
        )
    elif p99 > floor_ms:
        print(
            f"  note: the tables kept time (p99 {late_p99:.0f} ms late): the time was lost"
            " after publishing, in the brokers, the bridge or the pages (their CPU is above)"
        )
    return p99 <= floor_ms and lost <= LOST_FLOOR


# -- the hub: a round's results ------------------------------------------------------------------


@dataclass(frozen=True)
class ResultsJob:
    broker: Broker
    results: tuple[tuple[str, bytes], ...]
    """(board, the result message's payload)."""


def results_worker(job: ResultsJob, control: multiprocessing.connection.Connection) -> None:
    """One process: a client per table, each publishing its game's result when told."""
    try:
        loop = Loop(control)
        connected = [0]
        acked = [0]
        clients = []
        for board, _ in job.results:
            client = new_client(board, job.broker, loop, connected)
            client.on_publish = lambda *args: acked.__setitem__(0, acked[0] + 1)
            client.connect(job.broker.host, job.broker.port, keepalive=KEEPALIVE_S)
            clients.append(client)
        loop.until(lambda: connected[0] == len(clients), CONNECT_TIMEOUT_S, "connected")
        control.send(("ready",))
        while not loop.poll(1.0):
            pass
        control.recv()
        first = time.monotonic()
        for client, (board, payload) in zip(clients, job.results, strict=True):
            client.publish(f"{PREFIX}/{board}/result", payload, qos=1, retain=True)
        last = time.monotonic()
        loop.until(lambda: acked[0] >= len(clients), CONNECT_TIMEOUT_S, "had its result acked")
        control.send(("played", first, last, time.monotonic()))
        while not loop.poll(1.0):
            pass
        control.recv()
        for client in clients:
            client.disconnect()
        control.send(("done",))
    except BaseException as err:
        control.send(("error", f"results: {type(err).__name__}: {err}"))
        raise


def make_event(path: Path, tables: int) -> list[tuple[str, bytes]]:
    """An event of 2 x `tables` players in one division, round 1 paired; each board's
    result message as its table would publish it at the end of its game."""
    with EventStore.create(path, name="Bench open", hub=HUB) as store:
        for n in range(2 * tables):
            store.add_player(f"Player {n + 1:04d}", DIVISION)
        store.set_division(DIVISION, game=GAME, rounds=5)
        store.add_round(next_round(store.event(), DIVISION))
        pairings = store.event().pairings_of(DIVISION, 1)
    rng = random.Random(3)
    results = []
    for pairing in pairings:
        if pairing.board is None:
            continue
        scores = rng.sample(range(8, 18), 2)
        payload = wire.result_payload(
            board=pairing.board,
            t=rng.uniform(1200.0, 2400.0),
            game=GAME,
            game_id=1,
            title="Round 1",
            names=list(pairing.seats),
            scores=[float(s) for s in scores],
            winners=[scores.index(max(scores))],
            reason="complete",
            record_hash=hashlib.sha256(f"{pairing.board} round 1".encode()).hexdigest(),
            ended=utc_now(),
        )
        wire.validate("result", payload)
        results.append((pairing.board, wire.encode(payload)))
    return results


class Standings:
    """A wall's view of the hub's standings: when each arrived and how many games it counts."""

    def __init__(self, port: int) -> None:
        self.arrivals: list[tuple[float, int]] = []
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-wall")
        topic = f"{PREFIX}/{HUB}/standings/{DIVISION}"
        self.client.on_connect = lambda c, *args: c.subscribe(topic, qos=1)
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _on_message(self, client: Any, userdata: Any, message: mqtt.MQTTMessage) -> None:
        arrived = time.monotonic()
        rows = json.loads(message.payload)["standings"]
        self.arrivals.append((arrived, sum(row["played"] for row in rows) // 2))

    def games(self) -> int:
        return self.arrivals[-1][1] if self.arrivals else -1

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def hub_run(args: Any) -> bool:
    with tempfile.TemporaryDirectory(prefix="bench-event-") as folder:
        path = Path(folder) / "event.sqlite3"
        began = time.monotonic()
        results = make_event(path, args.tables)
        made = time.monotonic() - began
        with Mosquitto(log_types=LOG_TYPES) as broker:
            assert broker.pid is not None
            config = Path(folder) / "companion.toml"
            config.write_text(f'[broker]\nurl = "{broker.url}"\nprefix = "{PREFIX}"\n')
            log = (Path(folder) / "hub.log").open("w")
            hub = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "companion",
                    "--config",
                    str(config),
                    "tournament",
                    "run",
                    str(path),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
            )
            wall = Standings(broker.port)
            pids = {"hub": hub.pid, "mosquitto": broker.pid}
            worker: Worker | None = None
            try:
                deadline = time.monotonic() + CONNECT_TIMEOUT_S
                while wall.games() != 0:
                    if hub.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit("bench/event.py: the hub did not publish its standings")
                    time.sleep(0.1)
                worker = Worker(
                    "tables",
                    results_worker,
                    ResultsJob(Broker("127.0.0.1", broker.port), tuple(results)),
                    pids,
                )
                worker.expect("ready", CONNECT_TIMEOUT_S)
                watch = Watch(pids)
                watch.mark("ready")
                worker.pipe.send(("go",))
                _, first, last, acked = worker.expect("played", CONNECT_TIMEOUT_S, watch)
                first, last, acked = float(first), float(last), float(acked)
                deadline = first + args.hub_timeout
                while wall.games() < len(results) and time.monotonic() < deadline:
                    watch.sample()
                    time.sleep(0.1)
                watch.mark("done")
                arrivals = list(wall.arrivals)
                worker.pipe.send(("stop",))
                worker.expect("done", 30)
            finally:
                wall.close()
                if worker is not None:
                    worker.stop()
                hub.terminate()
                try:
                    hub.wait(15)
                except subprocess.TimeoutExpired:
                    hub.kill()
                    hub.wait(5)
                log.close()
    complete = [at for at, games in arrivals if games >= len(results)]
    print(
        f"hub: {len(results)} results of round 1 ({2 * len(results)} players, one division;"
        f" the event made in {made:.1f} s), published by {len(results)} tables at once"
        f" ({(last - first) * 1000:.0f} ms to send, {(acked - first) * 1000:.0f} ms to be acked)"
    )
    firsts = [at for at, games in arrivals if games >= 1]
    if firsts:
        print(f"  first standings with a result: {firsts[0] - first:.2f} s after the first result")
    if complete:
        took = complete[0] - first
        ok = took <= HUB_FLOOR_S
        print(
            f"  standings with all {len(results)} results published: {took:.2f} s after the"
            f" first result (floor: <= {HUB_FLOOR_S:g} s){'' if ok else ' MISSED'}"
        )
    else:
        ok = False
        counted = max((games for _, games in arrivals), default=0)
        print(
            f"  standings with all {len(results)} results: not within {args.hub_timeout:g} s;"
            f" the last counted {counted} (floor: <= {HUB_FLOOR_S:g} s) MISSED"
        )
    updates = sum(1 for at, _ in arrivals if at >= first)
    print(f"  standings published {updates} times meanwhile")
    for name in ("hub", "mosquitto"):
        spent = watch.spent("ready", "done", name)
        waited = watch.waited("ready", "done", name)
        print(
            f"  {name}: RSS peak {megabytes(watch.peak_rss[name])}, CPU {spent:.1f} s,"
            f" {waited:.1f} s waiting for a CPU"
        )
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = options(__doc__)
    parser.add_argument("--tables", type=int, default=TABLES, help="default: %(default)s")
    parser.add_argument(
        "--spectators", type=int, default=SPECTATORS, help="display pages (default: %(default)s)"
    )
    parser.add_argument("--walls", type=int, default=WALLS, help="default: %(default)s")
    parser.add_argument(
        "--seconds", type=float, default=SECONDS, help="of play (default: %(default)s)"
    )
    parser.add_argument(
        "--move-every",
        type=float,
        default=MOVE_EVERY_S,
        metavar="S",
        help="a table's mean time between moves (default: %(default)s)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=PROCESSES,
        help="processes the pages run in (default: %(default)s); the tables run in one",
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=PARTS,
        help="run this part (again for another); default: all",
    )
    parser.add_argument(
        "--hub-timeout",
        type=float,
        default=HUB_TIMEOUT_S,
        metavar="S",
        help="how long to wait for the hub's standings (default: %(default)s)",
    )
    parser.add_argument(
        "--tcp-nodelay",
        action="store_true",
        help="brokers with set_tcp_nodelay true (the documented configurations leave it off)",
    )
    parser.add_argument("--strict", action="store_true", help="exit 1 when a floor is missed")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.spectators < 0 or args.walls < 0 or args.processes < 1:
        parser.error("--tables and --processes must be at least 1, the pages at least 0")
    parts = args.only or PARTS
    ok = True
    if "single" in parts or "bridged" in parts:
        began = time.monotonic()
        game = record_game()
        sizes = {
            kind: [
                len(m.make("table-500", 1234.5))
                for move in game.moves
                for m in move
                if m.kind == kind
            ]
            for kind in ("state", "event")
        }
        print(
            f"game: a standard MemWars game of {len(game.moves)} moves, recorded in"
            f" {time.monotonic() - began:.1f} s: state {sum(sizes['state']) // len(sizes['state'])}"
            f" bytes on average, {len(sizes['event']) / len(game.moves):.1f} events a move of"
            f" {sum(sizes['event']) // len(sizes['event'])} bytes, clock"
            f" {len(game.clocks[0].make('table-500', 1234.5))} bytes"
        )
        if "single" in parts:
            ok &= report_stream("one mosquitto", stream_run(False, args, game), P99_SINGLE_MS, args)
        if "bridged" in parts:
            result = stream_run(True, args, game)
            ok &= report_stream("two mosquittos bridged", result, P99_BRIDGED_MS, args)
    if "hub" in parts:
        ok &= hub_run(args)
    print("floors met" if ok else "FLOOR MISSED")
    return 1 if args.strict and not ok else 0


if __name__ == "__main__":
    raise SystemExit(main())
