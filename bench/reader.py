"""Card reader speed.

1. Parsing throughput: a large buffer of valid frames fed to each protocol object in
   4 KiB reads, frames per second. Floor: 10,000 frames/s for each (far more than a line
   can carry: an RDM6300 at 9600 baud sends about 68 frames/s, a PN532 at 115200 baud
   about 500 answers/s).
2. Latency, RDM6300: a frame's last byte written into a pseudo-terminal (socat) to the
   CardReader's CardPresented, p50 and p99 over 300 cards. Floor: p99 <= 20 ms.
3. Latency, PN532: the emulator's answer naming the card written to CardPresented, p50 and
   p99 over 100 cards; and, for information, the card entering the field to CardPresented,
   which the poll interval (50 ms) dominates.

Exits 1 when a floor is missed. Run with `make bench` (needs socat).
"""

from __future__ import annotations

import random
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import serial

from bench.options import options
from companion.devices.cardreader import pn532
from companion.devices.cardreader.emulators import Pn532Emulator
from companion.devices.cardreader.events import CardEvent, CardPresented, TagSeen
from companion.devices.cardreader.pn532 import Pn532
from companion.devices.cardreader.protocol import ReaderProtocol
from companion.devices.cardreader.ptypair import PtyPair
from companion.devices.cardreader.rdm6300 import Rdm6300, encode_frame
from companion.devices.cardreader.reader import CardReader

THROUGHPUT_FLOOR = 10_000.0
P99_FLOOR_MS = 20.0
RDM_CARDS = 300
PN_CARDS = 100
CHUNK = 4096


def throughput(protocol: ReaderProtocol, stream: bytes, frames: int) -> float:
    protocol.connected(0)
    seen = 0
    began = time.perf_counter()
    for start in range(0, len(stream), CHUNK):
        seen += sum(
            isinstance(o, TagSeen) for o in protocol.receive(stream[start : start + CHUNK], 0)
        )
    elapsed = time.perf_counter() - began
    assert seen == frames, (seen, frames)
    return frames / elapsed


def rdm6300_throughput() -> float:
    rng = random.Random(1)
    # Each card's frame twice: a tag is seen once a frame is confirmed by its repeat.
    frames = [encode_frame(rng.randbytes(5).hex()) * 2 for _ in range(1000)] * 200
    return 2 * throughput(Rdm6300(), b"".join(frames), len(frames))


def pn532_throughput() -> float:
    rng = random.Random(2)
    answers = [
        pn532.ACK + pn532.target_response(rng.randbytes(rng.choice((4, 7, 10))))
        for _ in range(1000)
    ] * 100
    return throughput(Pn532(), b"".join(answers), len(answers))


class Presented:
    """Each CardPresented's arrival time, as the listener hears it."""

    def __init__(self) -> None:
        self.times: list[int] = []
        self._heard = threading.Event()

    def __call__(self, event: CardEvent) -> None:
        if isinstance(event, CardPresented):
            self.times.append(time.monotonic_ns())
            self._heard.set()

    def wait(self, count: int, timeout_s: float = 2.0) -> None:
        deadline = time.monotonic() + timeout_s
        while len(self.times) < count:
            if time.monotonic() > deadline:
                raise RuntimeError(f"card {count} was never presented")
            self._heard.wait(0.01)
            self._heard.clear()


def percentiles(latencies_ms: list[float]) -> tuple[float, float]:
    ordered = sorted(latencies_ms)
    return statistics.median(ordered), ordered[max(0, int(len(ordered) * 0.99) - 1)]


def rdm6300_latency(pair: PtyPair) -> list[float]:
    rng = random.Random(3)
    heard = Presented()
    latencies = []
    reader = CardReader(pair.host_path, Rdm6300(), on_event=heard)
    with serial.Serial(pair.device_path, 9600) as device, reader:
        reader.start()
        for count in range(1, RDM_CARDS + 1):
            # A new card each time: the previous one is removed and this one presented.
            device.write(encode_frame(f"{count:010X}") * 2)  # a frame and its repeat
            written = time.monotonic_ns()
            heard.wait(count)
            latencies.append((heard.times[-1] - written) / 1e6)
            time.sleep(rng.uniform(0.001, 0.005))
    return latencies


def pn532_latency(pair: PtyPair) -> tuple[list[float], list[float]]:
    heard = Presented()
    answered, entered = [], []
    reader = CardReader(pair.host_path, Pn532(), on_event=heard)
    with Pn532Emulator(pair.device_path) as emulator, reader:
        reader.start()
        for count in range(1, PN_CARDS + 1):
            began = time.monotonic_ns()
            emulator.present(f"{count:08X}")
            heard.wait(count)
            deadline = time.monotonic() + 1
            while emulator.tag_answered_ns is None and time.monotonic() < deadline:
                time.sleep(0.001)
            assert emulator.tag_answered_ns is not None
            answered.append((heard.times[-1] - emulator.tag_answered_ns) / 1e6)
            entered.append((heard.times[-1] - began) / 1e6)
    return answered, entered


def main(argv: list[str] | None = None) -> int:
    options(__doc__).parse_args(argv)
    rdm_rate = rdm6300_throughput()
    pn_rate = pn532_throughput()
    with PtyPair() as pair:
        rdm_p50, rdm_p99 = percentiles(rdm6300_latency(pair))
    with PtyPair() as pair:
        answered, entered = pn532_latency(pair)
    pn_p50, pn_p99 = percentiles(answered)
    field_p50, field_p99 = percentiles(entered)
    print(
        f"parsing: rdm6300 {rdm_rate:,.0f} frames/s, pn532 {pn_rate:,.0f} answers/s "
        f"(floor: {THROUGHPUT_FLOOR:,.0f} each)"
    )
    print(
        f"rdm6300 frame written to CardPresented: p50 {rdm_p50:.2f} ms, p99 {rdm_p99:.2f} ms "
        f"over {RDM_CARDS} cards (floor: p99 <= {P99_FLOOR_MS:.0f} ms)"
    )
    print(
        f"pn532 answer written to CardPresented: p50 {pn_p50:.2f} ms, p99 {pn_p99:.2f} ms "
        f"over {PN_CARDS} cards (floor: p99 <= {P99_FLOOR_MS:.0f} ms)"
    )
    print(
        f"pn532 card in the field to CardPresented: p50 {field_p50:.1f} ms, "
        f"p99 {field_p99:.1f} ms (polled every 50 ms; no floor)"
    )
    ok = (
        min(rdm_rate, pn_rate) >= THROUGHPUT_FLOOR
        and rdm_p99 <= P99_FLOOR_MS
        and pn_p99 <= P99_FLOOR_MS
    )
    print("floors met" if ok else "FLOOR MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
