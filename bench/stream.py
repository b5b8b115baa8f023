"""Streaming through one real mosquitto: many boards at once, publish to receive.

100 simulated boards each publish 10 event messages a second for 30 s (30,000 messages) to
`tabletop/<board>/event` with QoS 1, each through its own paho client; every board has its own
subscriber client (QoS 1, `tabletop/<board>/#`). Each payload carries the board, a sequence
number and `time.monotonic_ns()` taken just before publishing; the subscriber takes the
difference on arrival.

Prints publish-to-receive latency p50/p99 in ms, messages lost (a sequence number that never
arrived), duplicates and out-of-order arrivals, and how closely the publishers kept their
schedule. Floors: p99 <= 50 ms, 0 lost. Exits 1 when a floor is missed. Run with `make bench`,
or `python bench/stream.py --seconds 5` for a quick look.

The 200 clients do not run 200 paho threads: paho's external-loop API (`loop_read`,
`loop_write`, `loop_misc` and the socket callbacks) runs the publishers in one thread and the
subscribers in another, each on a selector. Publishers keep an absolute schedule: message n
of board b is due at start + b * period / boards + n * period, so the boards' messages are
spread evenly over each period and a late message does not delay the ones after it.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import heapq
import json
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.publish.mosquitto import Mosquitto

BOARDS = 100
RATE_HZ = 10
SECONDS = 30.0
P99_FLOOR_MS = 50.0
LOST_FLOOR = 0
CONNECT_TIMEOUT_S = 20.0
DRAIN_TIMEOUT_S = 10.0
MISC_EVERY_S = 1.0
PREFIX = "tabletop"


def board_name(index: int) -> str:
    return f"board-{index:03d}"


# -- an event loop for many paho clients ----------------------------------------------------


class ClientLoop:
    """Runs many paho clients on one selector in one thread, with paho's external-loop API.

    Everything that touches these clients (connect, subscribe, publish) runs in this thread:
    `call(fn)` hands work to it; `on_tick(now_ns)` is called every time round the loop and
    returns how long the loop may sleep (seconds), which is how publishers keep time.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.selector = selectors.DefaultSelector()
        self.clients: list[mqtt.Client] = []
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self.selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._calls: list[Callable[[], object]] = []
        self._calls_lock = threading.Lock()
        self._stop = threading.Event()
        self.on_tick: Callable[[int], float] = lambda now_ns: MISC_EVERY_S
        self.thread = threading.Thread(target=self._run, name=name, daemon=True)
        self.error: BaseException | None = None

    def add(self, client: mqtt.Client) -> None:
        """Wires a new (not yet connected) client to this loop's selector."""
        client.on_socket_open = self._socket_open
        client.on_socket_close = self._socket_close
        client.on_socket_register_write = self._register_write
        client.on_socket_unregister_write = self._unregister_write
        self.clients.append(client)

    def call(self, fn: Callable[[], object]) -> None:
        with self._calls_lock:
            self._calls.append(fn)
        self._wake_w.send(b"x")

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._wake_w.send(b"x")
        self.thread.join(10)

    # paho's socket callbacks: the selector follows each client's socket.
    def _socket_open(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        self.selector.register(sock, selectors.EVENT_READ, client)

    def _socket_close(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        self.selector.unregister(sock)

    def _register_write(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        self.selector.modify(sock, selectors.EVENT_READ | selectors.EVENT_WRITE, client)

    def _unregister_write(self, client: mqtt.Client, userdata: Any, sock: Any) -> None:
        self.selector.modify(sock, selectors.EVENT_READ, client)

    def _run(self) -> None:
        next_misc = time.monotonic() + MISC_EVERY_S
        try:
            while not self._stop.is_set():
                timeout = self.on_tick(time.monotonic_ns())
                now = time.monotonic()
                timeout = max(0.0, min(timeout, next_misc - now))
                for key, mask in self.selector.select(timeout):
                    client = key.data
                    if client is None:
                        self._run_calls()
                        continue
                    if mask & selectors.EVENT_READ:
                        client.loop_read()
                    if mask & selectors.EVENT_WRITE:
                        client.loop_write()
                if time.monotonic() >= next_misc:
                    for client in self.clients:
                        client.loop_misc()
                    next_misc = time.monotonic() + MISC_EVERY_S
        except BaseException as err:  # reported by the main thread
            self.error = err

    def _run_calls(self) -> None:
        try:
            while self._wake_r.recv(4096):
                pass
        except BlockingIOError:
            pass
        with self._calls_lock:
            calls, self._calls = self._calls, []
        for fn in calls:
            fn()


# -- boards and their subscribers ----------------------------------------------------------


@dataclass
class Received:
    """What one board's subscriber got."""

    latencies_ns: list[int] = field(default_factory=list)
    seqs: set[int] = field(default_factory=set)
    duplicates: int = 0
    out_of_order: int = 0
    last_seq: int = -1


@dataclass
class Run:
    boards: int
    rate_hz: int
    seconds: float
    received: list[Received] = field(default_factory=list)
    lateness_ns: list[int] = field(default_factory=list)
    published: int = 0
    connected: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))
    subscribed: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))
    done_publishing: threading.Event = field(default_factory=threading.Event)

    @property
    def per_board(self) -> int:
        return round(self.rate_hz * self.seconds)

    @property
    def expected(self) -> int:
        return self.boards * self.per_board


def new_client(name: str, run: Run) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=name)
    client.max_inflight_messages_set(100)

    def on_connect(c: mqtt.Client, u: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            raise RuntimeError(f"{name}: broker refused the connection: {reason}")
        run.connected.release()

    client.on_connect = on_connect
    return client


def make_subscriber(index: int, run: Run, loop: ClientLoop, port: int) -> None:
    board = board_name(index)
    got = run.received[index]
    client = new_client(f"viewer-{board}", run)

    def on_connect(c: mqtt.Client, u: Any, flags: Any, reason: Any, props: Any) -> None:
        if reason.is_failure:
            raise RuntimeError(f"viewer-{board}: refused: {reason}")
        run.connected.release()
        c.subscribe(f"{PREFIX}/{board}/#", qos=1)

    def on_subscribe(c: mqtt.Client, u: Any, mid: int, codes: Any, props: Any) -> None:
        if any(code.is_failure for code in codes):
            raise RuntimeError(f"viewer-{board}: subscription refused: {codes}")
        run.subscribed.release()

    def on_message(c: mqtt.Client, u: Any, message: mqtt.MQTTMessage) -> None:
        arrived = time.monotonic_ns()
        body = json.loads(message.payload)
        seq = int(body["seq"])
        if body["board"] != board:
            raise RuntimeError(f"viewer-{board} got {body['board']}'s message")
        if seq in got.seqs:  # QoS 1 may deliver twice; the first arrival is the one timed
            got.duplicates += 1
            return
        got.latencies_ns.append(arrived - int(body["t_ns"]))
        if seq < got.last_seq:
            got.out_of_order += 1
        got.last_seq = max(got.last_seq, seq)
        got.seqs.add(seq)

    client.on_connect = on_connect
    client.on_subscribe = on_subscribe
    client.on_message = on_message
    loop.add(client)
    loop.call(functools.partial(client.connect, "127.0.0.1", port, keepalive=30))


class Publishers:
    """The boards: one client each, driven by an absolute schedule in the loop's thread."""

    def __init__(self, run: Run, loop: ClientLoop, port: int) -> None:
        self.run = run
        self.loop = loop
        self.clients = [new_client(board_name(i), run) for i in range(run.boards)]
        self.topics = [f"{PREFIX}/{board_name(i)}/event" for i in range(run.boards)]
        self.period_ns = 1_000_000_000 // run.rate_hz
        self.due: list[tuple[int, int, int]] = []  # (due_ns, board, seq)
        for client in self.clients:
            loop.add(client)
            loop.call(functools.partial(client.connect, "127.0.0.1", port, keepalive=30))
        loop.on_tick = self.tick

    def begin(self) -> None:
        def schedule() -> None:
            start = time.monotonic_ns() + 50_000_000
            phase = self.period_ns // self.run.boards
            self.due = [(start + board * phase, board, 0) for board in range(self.run.boards)]
            heapq.heapify(self.due)

        self.loop.call(schedule)

    def tick(self, now_ns: int) -> float:
        """Publishes whatever is due; returns the seconds until the next message is."""
        due = self.due
        while due and due[0][0] <= now_ns:
            due_ns, board, seq = heapq.heappop(due)
            sent_ns = time.monotonic_ns()
            payload = json.dumps(
                {
                    "board": board_name(board),
                    "seq": seq,
                    "t_ns": sent_ns,
                    "kind": "card_played",
                    "detail": {"player": seq % 2, "card": f"card-{seq % 52:02d}"},
                }
            ).encode()
            self.clients[board].publish(self.topics[board], payload, qos=1)
            self.run.lateness_ns.append(sent_ns - due_ns)
            self.run.published += 1
            if seq + 1 < self.run.per_board:
                heapq.heappush(due, (due_ns + self.period_ns, board, seq + 1))
            elif not due:
                self.run.done_publishing.set()
            now_ns = time.monotonic_ns()
        if not due:
            return MISC_EVERY_S
        return max(0.0, (due[0][0] - time.monotonic_ns()) / 1e9)


def wait_for(
    semaphore: threading.Semaphore, count: int, what: str, loops: list[ClientLoop]
) -> None:
    deadline = time.monotonic() + CONNECT_TIMEOUT_S
    for _ in range(count):
        if not semaphore.acquire(timeout=max(0.0, deadline - time.monotonic())):
            raise SystemExit(f"bench/stream.py: not every client {what} in time")
        for loop in loops:
            if loop.error is not None:
                raise SystemExit(f"bench/stream.py: {loop.name}: {loop.error}")


def percentile(sorted_values: list[int], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(fraction * len(sorted_values)) - 1))
    return float(sorted_values[index])


@contextlib.contextmanager
def embedded_broker() -> Iterator[int]:
    """`companion broker` in its own process (in this one it would share the GIL): its port."""
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "broker", "--port", "0", "--no-websockets"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        if not first.startswith("MQTT "):
            raise SystemExit("bench/stream.py: companion broker did not start")
        yield int(first.rsplit(":", 1)[1])
    finally:
        process.terminate()
        process.wait(15)


@contextlib.contextmanager
def mosquitto_broker() -> Iterator[int]:
    with Mosquitto() as broker:
        yield broker.port


def bench(boards: int, rate_hz: int, seconds: float, embedded: bool = False) -> Run:
    run = Run(boards, rate_hz, seconds, received=[Received() for _ in range(boards)])
    with embedded_broker() if embedded else mosquitto_broker() as port:
        subscribers = ClientLoop("subscribers")
        publishing = ClientLoop("publishers")
        loops = [subscribers, publishing]
        for loop in loops:
            loop.start()
        try:
            for index in range(boards):
                make_subscriber(index, run, subscribers, port)
            publishers = Publishers(run, publishing, port)
            wait_for(run.connected, 2 * boards, "connected", loops)
            wait_for(run.subscribed, boards, "subscribed", loops)
            publishers.begin()
            if not run.done_publishing.wait(seconds + 30):
                raise SystemExit("bench/stream.py: the publishers did not finish in time")
            deadline = time.monotonic() + DRAIN_TIMEOUT_S
            while time.monotonic() < deadline:
                if sum(len(r.seqs) for r in run.received) >= run.expected:
                    break
                time.sleep(0.05)
            for loop in loops:
                if loop.error is not None:
                    raise SystemExit(f"bench/stream.py: {loop.name}: {loop.error}")
                for client in loop.clients:
                    loop.call(client.disconnect)
        finally:
            for loop in loops:
                loop.stop()
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=SECONDS, help="default: %(default)s")
    parser.add_argument("--boards", type=int, default=BOARDS, help="default: %(default)s")
    parser.add_argument("--rate", type=int, default=RATE_HZ, help="messages/s per board")
    parser.add_argument(
        "--embedded",
        action="store_true",
        help="through the embedded broker (`companion broker`) instead of mosquitto",
    )
    args = parser.parse_args(argv)
    began = time.monotonic()
    run = bench(args.boards, args.rate, args.seconds, embedded=args.embedded)
    broker = "the embedded broker" if args.embedded else "one mosquitto"
    took = time.monotonic() - began

    latencies = sorted(ns for got in run.received for ns in got.latencies_ns)
    received = sum(len(got.seqs) for got in run.received)
    lost = run.expected - received
    duplicates = sum(got.duplicates for got in run.received)
    out_of_order = sum(got.out_of_order for got in run.received)
    lateness = sorted(run.lateness_ns)
    p50 = percentile(latencies, 0.50) / 1e6
    p99 = percentile(latencies, 0.99) / 1e6
    worst = latencies[-1] / 1e6 if latencies else float("nan")
    print(
        f"stream: {run.boards} boards x {run.rate_hz} msg/s x {run.seconds:g} s through {broker},"
        f" QoS 1, one subscriber per board ({took:.1f} s in all)"
    )
    print(
        f"latency publish to receive: p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {worst:.2f} ms"
        f" (floor: p99 <= {P99_FLOOR_MS:.0f} ms)"
    )
    print(
        f"messages: {run.published} published, {received} received of {run.expected} expected,"
        f" {lost} lost (floor: {LOST_FLOOR}), {duplicates} duplicates,"
        f" {out_of_order} out of order"
    )
    if lateness:
        print(
            f"schedule: publishes late by p50 {statistics.median(lateness) / 1e6:.2f} ms,"
            f" p99 {percentile(lateness, 0.99) / 1e6:.2f} ms, max {lateness[-1] / 1e6:.2f} ms"
        )
    ok = p99 <= P99_FLOOR_MS and lost <= LOST_FLOOR and run.published == run.expected
    if not ok and lateness and percentile(lateness, 0.99) / 1e6 > P99_FLOOR_MS / 5:
        print(
            "note: the publishers themselves ran late, so this process was kept waiting for a"
            " CPU: was the machine busy? (uptime shows its load)"
        )
    print("floors met" if ok else "FLOOR MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
