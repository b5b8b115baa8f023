"""The reader shell end to end: emulated readers behind real pseudo-terminals (socat).

Cards presented, repeats suppressed, removal after the silence; floods of noise and broken
frames; the cable pulled out and plugged back in.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
import serial

from companion.devices.cardreader.emulators import Pn532Emulator, Rdm6300Emulator
from companion.devices.cardreader.events import CardPresented, CardRemoved, NoTag
from companion.devices.cardreader.pn532 import Pn532
from companion.devices.cardreader.ptypair import PtyPair
from companion.devices.cardreader.rdm6300 import Rdm6300, encode_frame
from companion.devices.cardreader.reader import CardReader
from tests.cardreader.conftest import Recorder, needs_socat, wait_until
from tests.cardreader.floods import (
    pn532_broken_stream,
    pn532_noise,
    rdm6300_broken_stream,
    rdm6300_noise,
)

pytestmark = needs_socat

MS = 1_000_000
FLOOD = 10_000_000
TAG_A, TAG_B = "0A1B2C3D4E", "1122334455"
UID4, UID7, UID10 = "DEADBEEF", "04A224B2C12A81", "0102030405060708090A"

Emulator = Rdm6300Emulator | Pn532Emulator


@contextmanager
def running(
    pair: PtyPair, name: str, recorder: Recorder, *, silence_ms: int = 150
) -> Iterator[tuple[Emulator, CardReader]]:
    emulator: Emulator
    if name == "rdm6300":
        emulator = Rdm6300Emulator(pair.device_path, repeat_s=0.03)
        protocol: Rdm6300 | Pn532 = Rdm6300()
    else:
        emulator = Pn532Emulator(pair.device_path)
        protocol = Pn532()
    reader = CardReader(
        pair.host_path,
        protocol,
        on_event=recorder.event,
        on_observation=recorder.observation,
        silence_ns=silence_ms * MS,
    )
    with emulator, reader:
        reader.start()
        yield emulator, reader


def first_tag(name: str) -> str:
    return TAG_A if name == "rdm6300" else UID7


# ---- presence ---------------------------------------------------------------------------------


def test_rdm6300_one_card_one_presented_repeats_suppressed_removed_after_silence(
    pty_pair: PtyPair, recorder: Recorder
) -> None:
    with running(pty_pair, "rdm6300", recorder) as (emulator, reader):
        emulator.present(TAG_A)
        assert recorder.wait_for(lambda: len(recorder.tags_seen) >= 5)
        assert [(e.tag, e.reader) for e in recorder.events] == [(TAG_A, "rdm6300")]
        emulator.remove()
        removed_at = time.monotonic_ns()
        assert recorder.wait_for(lambda: len(recorder.events) == 2)
        removal = recorder.events[1]
        assert isinstance(removal, CardRemoved) and removal.tag == TAG_A
        # dated back to when the card was last seen, and decided after the silence
        assert removal.t_ns == recorder.tags_seen[-1].t_ns
        assert time.monotonic_ns() - removed_at >= 150 * MS - 40 * MS
        emulator.present(TAG_B)
        assert recorder.wait_for(lambda: len(recorder.events) == 3)
        assert [e.tag for e in recorder.presented] == [TAG_A, TAG_B]
        assert reader.stats.bad_frames == 0 and reader.stats.frames >= 6


@pytest.mark.parametrize("uid", [UID4, UID7, UID10])
def test_pn532_one_card_one_presented_and_removed_when_the_field_is_empty(
    pty_pair: PtyPair, recorder: Recorder, uid: str
) -> None:
    # A silence far longer than any wait here: a removal can only come from "no target".
    with running(pty_pair, "pn532", recorder, silence_ms=600_000) as (emulator, reader):
        assert recorder.wait_for(lambda: any(isinstance(o, NoTag) for o in recorder.observations))
        emulator.present(uid)
        assert recorder.wait_for(lambda: len(recorder.tags_seen) >= 3)
        assert recorder.events == [CardPresented(uid, recorder.tags_seen[0].t_ns, "pn532")]
        emulator.remove()
        assert recorder.wait_for(lambda: len(recorder.removed) == 1)
        emulator.present(UID4 if uid != UID4 else UID7)
        assert recorder.wait_for(lambda: len(recorder.presented) == 2)
        assert reader.stats.bad_frames == 0


def test_pn532_nacks_corrupt_answers_and_garbage_cost_nothing_but_resends(
    pty_pair: PtyPair, recorder: Recorder
) -> None:
    with running(pty_pair, "pn532", recorder, silence_ms=1000) as (emulator, reader):
        assert isinstance(emulator, Pn532Emulator)
        assert recorder.wait_for(lambda: any(isinstance(o, NoTag) for o in recorder.observations))
        assert isinstance(reader.protocol, Pn532)
        resends = reader.protocol.resends
        emulator.nack_next(2)
        emulator.corrupt_next(3)
        emulator.inject_garbage(b"\x00\xff\x05\x13junk\x00\x00\xff")
        emulator.present(UID7)
        assert recorder.wait_for(lambda: len(recorder.tags_seen) >= 3)
        assert [e.tag for e in recorder.events] == [UID7]
        assert reader.stats.bad_frames >= 3
        assert reader.protocol.resends - resends >= 5


def test_pn532_a_silent_chip_is_polled_again_after_the_timeout(
    pty_pair: PtyPair, recorder: Recorder
) -> None:
    with running(pty_pair, "pn532", recorder) as (emulator, reader):
        assert isinstance(emulator, Pn532Emulator)
        assert recorder.wait_for(lambda: any(isinstance(o, NoTag) for o in recorder.observations))
        emulator.muted = True
        time.sleep(0.35)
        assert isinstance(reader.protocol, Pn532)
        assert reader.protocol.resends >= 2
        emulator.present(UID4)
        emulator.muted = False
        assert recorder.wait_for(lambda: len(recorder.presented) == 1)


def test_the_time_of_a_tag_is_when_its_bytes_were_read(
    pty_pair: PtyPair, recorder: Recorder
) -> None:
    reader = CardReader(pty_pair.host_path, Rdm6300(), on_event=recorder.event)
    with serial.Serial(pty_pair.device_path, 9600) as device, reader:
        reader.start()
        for count, tag in enumerate((TAG_A, TAG_B, TAG_A), start=1):
            before = time.monotonic_ns()
            device.write(encode_frame(tag) * 2)  # a frame and the repeat that confirms it
            assert recorder.wait_for(lambda n=count: len(recorder.presented) == n)  # type: ignore[misc]
            after = time.monotonic_ns()
            assert recorder.presented[-1].tag == tag
            assert before <= recorder.presented[-1].t_ns <= after


def test_a_port_that_cannot_be_opened_raises_at_start(recorder: Recorder) -> None:
    reader = CardReader("/nonexistent/ttyUSB9", Rdm6300(), on_event=recorder.event)
    with pytest.raises(serial.SerialException):
        reader.start()
    assert not reader.stats.connected
    reader.close()


def test_any_pyserial_url_works_and_our_own_echo_is_no_answer(recorder: Recorder) -> None:
    reader = CardReader(
        "loop://", Pn532(), on_event=recorder.event, on_observation=recorder.observation
    )
    with reader:
        reader.start()
        assert wait_until(lambda: reader.stats.bytes_read > 0)
        time.sleep(0.05)
    assert recorder.observations == [] and reader.stats.bad_frames == 0


def test_a_failing_listener_does_not_stop_the_reader(
    pty_pair: PtyPair, recorder: Recorder, caplog: pytest.LogCaptureFixture
) -> None:
    def on_event(event: object) -> None:
        recorder.event(event)  # type: ignore[arg-type]
        raise RuntimeError("listener bug")

    with (
        Rdm6300Emulator(pty_pair.device_path, repeat_s=0.03) as emulator,
        CardReader(pty_pair.host_path, Rdm6300(), on_event=on_event, silence_ns=80 * MS) as reader,
    ):
        reader.start()
        emulator.present(TAG_A)
        assert recorder.wait_for(lambda: len(recorder.events) == 1)
        emulator.present(TAG_B)
        assert recorder.wait_for(lambda: len(recorder.presented) == 2)
    assert "card reader listener failed" in caplog.text
    assert TAG_A not in caplog.text and TAG_B not in caplog.text  # tag ids: DEBUG only


def test_start_once_close_twice(pty_pair: PtyPair, recorder: Recorder) -> None:
    reader = CardReader(pty_pair.host_path, Rdm6300(), on_event=recorder.event)
    reader.start()
    with pytest.raises(RuntimeError):
        reader.start()
    reader.close()
    reader.close()
    assert not reader.stats.connected


# ---- floods: not a single phantom card ---------------------------------------------------------


def test_rdm6300_floods_of_noise_and_broken_frames_give_no_card(
    pty_pair: PtyPair, recorder: Recorder
) -> None:
    rng = random.Random(2024)
    noise = rdm6300_noise(rng, FLOOD)
    broken = rdm6300_broken_stream(rng, FLOOD)
    with running(pty_pair, "rdm6300", recorder) as (emulator, reader):
        emulator.write_raw(noise)
        assert wait_until(lambda: reader.stats.bytes_read >= len(noise), 20)
        assert reader.stats.bad_frames == 0  # no 0x02, so not even the start of a frame
        emulator.write_raw(broken)
        assert wait_until(lambda: reader.stats.bytes_read >= len(noise) + len(broken), 20)
        time.sleep(0.05)
        assert recorder.tags_seen == [] and recorder.events == []
        assert reader.stats.bad_frames > 100_000
        emulator.present(TAG_A)  # and a real card still reads at once
        assert recorder.wait_for(lambda: len(recorder.presented) == 1)
        assert recorder.presented[0].tag == TAG_A


def two_bits_off(tag: str, rng: random.Random) -> str:
    """A tag two bits from `tag` whose RDM6300 frame has the same XOR checksum."""
    data = bytearray(bytes.fromhex(tag))
    first, second = rng.sample(range(5), 2)
    bit = 1 << rng.randrange(8)
    data[first] ^= bit
    data[second] ^= bit
    return data.hex().upper()


def test_rdm6300_a_flood_of_lone_frames_two_bits_off_real_cards_gives_no_card(
    pty_pair: PtyPair, recorder: Recorder
) -> None:
    rng = random.Random(42590)
    deck = [rng.randbytes(5).hex().upper() for _ in range(40)]
    flood: list[bytes] = []
    while len(flood) < 20_000:
        frame = encode_frame(two_bits_off(rng.choice(deck), rng))
        if not flood or frame != flood[-1]:
            flood.append(frame)
    stream = b"".join(flood)
    with running(pty_pair, "rdm6300", recorder) as (emulator, reader):
        assert isinstance(reader.protocol, Rdm6300)
        emulator.write_raw(stream)
        assert wait_until(lambda: reader.stats.bytes_read >= len(stream), 20)
        assert recorder.tags_seen == [] and recorder.events == []
        assert reader.stats.bad_frames == 0  # every frame passed its checks: only lone
        emulator.present(TAG_A)  # and a real card still reads
        assert recorder.wait_for(lambda: len(recorder.presented) == 1)
        assert [e.tag for e in recorder.events] == [TAG_A]
        assert reader.protocol.unconfirmed == len(flood)


def test_pn532_floods_of_noise_and_broken_frames_give_no_card(
    pty_pair: PtyPair, recorder: Recorder
) -> None:
    rng = random.Random(2025)
    flood = pn532_noise(rng, FLOOD) + pn532_broken_stream(rng, FLOOD)
    with running(pty_pair, "pn532", recorder) as (emulator, reader):
        assert isinstance(emulator, Pn532Emulator)
        assert recorder.wait_for(lambda: any(isinstance(o, NoTag) for o in recorder.observations))
        # The chip keeps quiet while the flood runs, so every byte the reader reads is ours.
        emulator.muted = True
        time.sleep(0.02)
        already = reader.stats.bytes_read
        emulator.write_raw(flood)
        assert wait_until(lambda: reader.stats.bytes_read >= already + len(flood), 20)
        time.sleep(0.05)
        assert recorder.tags_seen == [] and recorder.events == []
        assert reader.stats.bad_frames > 100_000
        emulator.present(UID10)
        emulator.muted = False
        assert recorder.wait_for(lambda: len(recorder.presented) == 1)
        assert recorder.presented[0].tag == UID10


# ---- unplugged and plugged back in --------------------------------------------------------------


def reconnect_after_replug(pair: PtyPair, reader: CardReader) -> float:
    """Plugs back in; how long the reader took to reopen the port."""
    reconnects = reader.stats.reconnects
    pair.replug()
    back = time.monotonic()
    assert wait_until(lambda: reader.stats.reconnects > reconnects, 2.0)
    return time.monotonic() - back


@pytest.mark.parametrize("name", ["rdm6300", "pn532"])
def test_a_card_lying_on_the_reader_across_an_unplug_is_neither_lost_nor_doubled(
    pty_pair: PtyPair, recorder: Recorder, name: str
) -> None:
    with running(pty_pair, name, recorder, silence_ms=1000) as (emulator, reader):
        tag = first_tag(name)
        emulator.present(tag)
        assert recorder.wait_for(lambda: len(recorder.presented) == 1)
        pty_pair.unplug()
        assert wait_until(lambda: not reader.stats.connected, 1.0)
        time.sleep(0.3)
        assert reconnect_after_replug(pty_pair, reader) < 1.0
        seen = len(recorder.tags_seen)
        assert recorder.wait_for(lambda: len(recorder.tags_seen) >= seen + 2)  # it reads again
        assert recorder.events == [recorder.presented[0]]  # no removal, no second presentation
        assert reader.stats.reconnects == 1
        emulator.remove()
        assert recorder.wait_for(lambda: len(recorder.removed) == 1, 3.0)


@pytest.mark.parametrize("name", ["rdm6300", "pn532"])
def test_a_card_taken_away_during_an_unplug_is_reported_removed(
    pty_pair: PtyPair, recorder: Recorder, name: str
) -> None:
    with running(pty_pair, name, recorder, silence_ms=400) as (emulator, reader):
        tag = first_tag(name)
        emulator.present(tag)
        assert recorder.wait_for(lambda: len(recorder.presented) == 1)
        pty_pair.unplug()
        emulator.remove()
        time.sleep(0.1)
        assert reconnect_after_replug(pty_pair, reader) < 1.0
        assert recorder.wait_for(lambda: len(recorder.removed) == 1)
        time.sleep(0.1)
        assert [(type(e), e.tag) for e in recorder.events] == [
            (CardPresented, tag),
            (CardRemoved, tag),
        ]


def test_a_card_unseen_for_longer_than_the_silence_is_removed_even_while_unplugged(
    pty_pair: PtyPair, recorder: Recorder
) -> None:
    with running(pty_pair, "rdm6300", recorder, silence_ms=150) as (emulator, reader):
        emulator.present(TAG_A)
        assert recorder.wait_for(lambda: len(recorder.presented) == 1)
        pty_pair.unplug()
        assert recorder.wait_for(lambda: len(recorder.removed) == 1)  # only the silence decides
        assert not reader.stats.connected
        reconnect_after_replug(pty_pair, reader)
        assert recorder.wait_for(lambda: len(recorder.presented) == 2)  # back: presented again
