"""The PN532 protocol, byte for byte: frames, the exchange, timeouts, NACKs, bad checksums."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.devices.cardreader import pn532
from companion.devices.cardreader.events import BadFrame, NoTag, Observation, TagSeen
from companion.devices.cardreader.pn532 import ACK, NACK, WAKEUP, Pn532
from tests.cardreader.floods import pn532_broken_stream, pn532_noise

MS = 1_000_000
SAM = bytes.fromhex("0000ff05fbd4140114010200")
RF = bytes.fromhex("0000ff06fad43205ff0102f300")
POLL = bytes.fromhex("0000ff04fcd44a0100e100")
SAM_ANSWER = bytes.fromhex("0000ff02fed5151600")
RF_ANSWER = bytes.fromhex("0000ff02fed533f800")
NO_TARGET = bytes.fromhex("0000ff03fdd54b00e000")
UID7 = bytes.fromhex("04A224B2C12A81")


def ready(t_ns: int = 0) -> Pn532:
    """A Pn532 past its set-up, its first poll sent at `t_ns`."""
    pn = Pn532()
    pn.connected(t_ns)
    pn.receive(ACK + SAM_ANSWER, t_ns)
    assert pn.due(t_ns) == RF
    pn.receive(ACK + RF_ANSWER, t_ns)
    assert pn.due(t_ns) == POLL
    return pn


def tags(observations: list[Observation]) -> list[str]:
    return [o.tag for o in observations if isinstance(o, TagSeen)]


def bad(observations: list[Observation]) -> list[str]:
    return [o.reason for o in observations if isinstance(o, BadFrame)]


# ---- frames -------------------------------------------------------------------------------


def test_frames_are_built_as_the_user_manual_says() -> None:
    assert pn532.frame(bytes([0x14, 0x01, 0x14, 0x01])) == SAM
    assert pn532.frame(bytes([0x4A, 0x01, 0x00])) == POLL
    assert pn532.target_response(None) == NO_TARGET
    assert pn532.target_response(bytes.fromhex("DEADBEEF")) == bytes.fromhex(
        "0000ff0cf4d54b0101000408 04deadbeef9600".replace(" ", "")
    )
    assert pn532.extended_frame(b"\x4b\x00", pn532.DEVICE_TFI) == bytes.fromhex(
        "0000ffffff0003fdd54b00e000"
    )


def test_target_response_refuses_a_bad_uid() -> None:
    with pytest.raises(ValueError):
        pn532.target_response(b"\x01\x02\x03")


# ---- the exchange ---------------------------------------------------------------------------


def test_connecting_wakes_the_chip_then_configures_the_sam() -> None:
    pn = Pn532()
    assert (pn.name, pn.baudrate) == ("pn532", 115200)
    sent = pn.connected(0)
    assert sent == WAKEUP + SAM
    assert sent.startswith(b"\x55\x55\x00\x00\x00")
    assert not pn.identified()
    assert pn.due(MS) == b""  # waiting for the answer
    assert pn.receive(ACK, MS) == []
    assert pn.identified()  # an ACK of SAMConfiguration is enough to know it is a PN532


def test_after_the_set_up_it_polls_every_interval() -> None:
    pn = ready(0)
    assert pn.receive(ACK + NO_TARGET, 5 * MS) == [NoTag(5 * MS)]
    assert pn.due(6 * MS) == b""
    assert pn.due(49 * MS) == b""
    assert pn.due(50 * MS) == POLL
    assert pn.resends == 0


def test_a_poll_waits_for_the_answer_before_the_next() -> None:
    pn = ready(0)
    assert pn.due(60 * MS) == b""  # no answer yet, not timed out either
    assert pn.receive(ACK + NO_TARGET, 70 * MS) == [NoTag(70 * MS)]
    assert pn.due(70 * MS) == POLL  # the interval has passed already


@pytest.mark.parametrize("uid", ["DEADBEEF", "04A224B2C12A81", "0102030405060708090A"])
def test_a_target_is_a_tag_with_its_uid(uid: str) -> None:
    pn = ready(0)
    response = pn532.target_response(bytes.fromhex(uid))
    assert pn.receive(ACK + response, 3 * MS) == [TagSeen(uid, 3 * MS)]


def test_an_iso14443_4_target_with_ats_still_names_its_uid() -> None:
    pn = ready(0)
    uid = bytes.fromhex("08123456")
    target = bytes([0x01, 0x00, 0x04, 0x20, 0x04]) + uid + bytes([0x05, 0x75, 0x77, 0x81, 0x02])
    response = pn532.frame(bytes([0x4B, 0x01]) + target, pn532.DEVICE_TFI)
    assert tags(pn.receive(response, 0)) == ["08123456"]


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x01",
        b"\x01\x01\x00\x04\x08",
        b"\x01\x01\x00\x04\x08\x05abcde",
        b"\x01\x01\x00\x04\x08\x07abc",
    ],
)
def test_bad_target_data_is_a_bad_frame(data: bytes) -> None:
    pn = ready(0)
    observations = pn.receive(pn532.frame(b"\x4b" + data, pn532.DEVICE_TFI), 0)
    assert tags(observations) == [] and len(bad(observations)) == 1


def test_a_nack_sends_the_command_again_at_once() -> None:
    pn = ready(0)
    assert pn.receive(NACK, MS) == []
    assert pn.due(MS) == POLL
    assert pn.resends == 1


def test_a_timeout_aborts_and_sends_again() -> None:
    pn = ready(0)
    assert pn.due(99 * MS) == b""
    assert pn.due(100 * MS) == ACK + POLL
    assert pn.due(150 * MS) == b""
    assert pn.due(200 * MS) == ACK + POLL
    assert pn.resends == 2


def test_a_sam_configuration_without_answer_wakes_the_chip_again() -> None:
    pn = Pn532(timeout_ns=10 * MS, poll_interval_ns=20 * MS)
    pn.connected(0)
    assert pn.due(10 * MS) == WAKEUP + SAM


def test_a_bad_data_checksum_is_counted_and_the_command_sent_again() -> None:
    pn = ready(0)
    response = bytearray(pn532.target_response(UID7))
    response[-2] ^= 0x01
    observations = pn.receive(ACK + bytes(response), MS)
    assert bad(observations) == ["pn532: data checksum"]
    assert tags(observations) == []
    assert pn.due(MS) == POLL


def test_a_bad_length_checksum_is_counted() -> None:
    pn = ready(0)
    response = bytearray(pn532.target_response(UID7))
    response[4] ^= 0x10
    observations = pn.receive(bytes(response), MS)
    assert bad(observations)[0] == "pn532: length checksum"
    assert tags(observations) == []


def test_an_error_frame_sends_the_command_again() -> None:
    pn = ready(0)
    assert pn.receive(ACK + bytes.fromhex("0000ff01ff7f8100"), MS) == []
    assert pn.due(MS) == POLL


def test_an_echo_of_our_own_command_is_not_an_answer() -> None:
    pn = ready(0)
    assert pn.receive(POLL, MS) == []
    assert pn.due(MS) == b""


def test_a_frame_from_something_else_is_a_bad_frame() -> None:
    pn = ready(0)
    observations = pn.receive(pn532.frame(b"\x4b\x00", tfi=0x42), MS)
    assert bad(observations) == ["pn532: not a PN532 response"]


def test_an_empty_frame_is_a_bad_frame() -> None:
    assert bad(ready(0).receive(b"\x00\x00\xff\x00\x00\x00", MS)) == ["pn532: empty frame"]


# ---- splits, noise, extended frames ---------------------------------------------------------

EXCHANGE = ACK + pn532.target_response(UID7) + ACK + NO_TARGET


@pytest.mark.parametrize("cut", range(1, len(EXCHANGE)))
def test_frames_split_anywhere_arrive_whole(cut: int) -> None:
    pn = ready(0)
    observations = pn.receive(EXCHANGE[:cut], 1) + pn.receive(EXCHANGE[cut:], 2)
    assert [type(o) for o in observations] == [TagSeen, NoTag]
    assert tags(observations) == [UID7.hex().upper()]


def test_byte_by_byte() -> None:
    pn = ready(0)
    observations: list[Observation] = []
    for byte in EXCHANGE:
        observations += pn.receive(bytes([byte]), 1)
    assert [type(o) for o in observations] == [TagSeen, NoTag]


def test_noise_between_frames_is_skipped() -> None:
    pn = ready(0)
    noise = b"\x55\x00\x00\x00\xff\x13\x37\xff\x00"
    observations = pn.receive(noise + EXCHANGE[:6] + noise + EXCHANGE[6:] + noise, 1)
    assert tags(observations) == ["04A224B2C12A81"]
    assert NoTag(1) in observations


def test_an_extended_frame_is_read_whole_and_its_inside_is_not_scanned() -> None:
    pn = ready(0)
    hidden = pn532.target_response(bytes.fromhex("DEADBEEF"))  # a frame inside the data
    extended = pn532.extended_frame(b"\x41\x00" + hidden * 13, pn532.DEVICE_TFI)
    assert len(extended) > 255
    observations = pn.receive(extended[:100], 1) + pn.receive(extended[100:] + NO_TARGET, 2)
    assert observations == [NoTag(2)]


def test_an_extended_frame_can_carry_the_answer() -> None:
    pn = ready(0)
    extended = pn532.extended_frame(b"\x4b\x01\x01\x00\x04\x08\x04\xde\xad\xbe\xef", 0xD5)
    assert tags(pn.receive(extended, 1)) == ["DEADBEEF"]


@pytest.mark.parametrize(
    ("header", "reason"),
    [
        (bytes.fromhex("0000ffffff0003fe"), "extended length checksum"),
        (bytes.fromhex("0000ffffffffff02"), "extended length out of range"),
        (bytes.fromhex("0000ffffff000000"), "extended length out of range"),
    ],
)
def test_a_bad_extended_header_is_a_bad_frame(header: bytes, reason: str) -> None:
    observations = ready(0).receive(header + NO_TARGET, 1)
    assert reason in bad(observations)[0]
    assert NoTag(1) in observations  # and the frame after it is still found


def test_a_header_promising_bytes_that_never_come_is_given_up_after_the_timeout() -> None:
    pn = ready(0)
    noise = b"\x00\xff\x30\xd0"  # LEN 0x30: waits for 49 more bytes
    assert pn.receive(noise + ACK + NO_TARGET, 1 * MS) == []
    assert pn.receive(b"", 50 * MS) == []  # still waiting
    assert pn.receive(b"", 101 * MS) == [NoTag(101 * MS)]


def test_reconnecting_forgets_a_partial_frame() -> None:
    pn = ready(0)
    pn.receive(NO_TARGET[:5], 0)
    pn.connected(1)
    assert pn.receive(NO_TARGET[5:] + NO_TARGET, 2) == [NoTag(2)]


def test_random_noise_and_broken_frames_name_no_tag() -> None:
    rng = random.Random(11)
    stream = pn532_noise(rng, 50_000) + pn532_broken_stream(rng, 100_000)
    pn = ready(0)
    observations: list[Observation] = []
    for start in range(0, len(stream), 1021):
        observations += pn.receive(stream[start : start + 1021], start)
        pn.due(start)
    assert tags(observations) == []
    assert len(bad(observations)) > 1000
    assert len(pn._buffer) < 400


@given(st.lists(st.integers(0, 3 * len(EXCHANGE)), max_size=8), st.binary(max_size=30))
def test_any_split_gives_the_same_observations(cuts: list[int], noise: bytes) -> None:
    # No start code (00 FF) can form in the noise, nor with the postamble before it.
    noise = noise.replace(b"\x00", b"\x01").replace(b"\xff", b"\x01")
    stream = noise + EXCHANGE + noise + EXCHANGE
    points = sorted({0, len(stream), *(c for c in cuts if c < len(stream))})
    pn = ready(0)
    observations: list[Observation] = []
    for a, b in itertools.pairwise(points):
        observations += pn.receive(stream[a:b], 7)
    assert [type(o) for o in observations] == [TagSeen, NoTag, TagSeen, NoTag]


@pytest.mark.parametrize(
    ("target", "reason"),
    [
        (bytes([0x02, 0x01, 0x00, 0x04, 0x08, 0x04]) + bytes(4), "more than the 1 target"),
        (bytes([0x01, 0x01, 0x00, 0x44, 0x08, 0x04]) + bytes(4), "does not match SENS_RES"),
        (bytes([0x01, 0x01, 0x00, 0x04, 0x00, 0x07]) + bytes(7), "does not match SENS_RES"),
        (bytes([0x01, 0x01, 0x00, 0x04, 0x08, 0x04]) + bytes(4) + b"\x05\x01", "longer than"),
    ],
)
def test_a_target_whose_lengths_disagree_is_no_tag(target: bytes, reason: str) -> None:
    answer = pn532.frame(bytes([pn532.IN_LIST_PASSIVE_TARGET + 1]) + target, pn532.DEVICE_TFI)
    observations = pn532_targets(answer)
    assert not any(isinstance(o, TagSeen) for o in observations)
    assert any(isinstance(o, BadFrame) and reason in o.reason for o in observations)


def test_a_target_with_an_ats_still_reads() -> None:
    target = bytes([0x01, 0x01, 0x03, 0x44, 0x20, 0x07]) + bytes.fromhex("04A224B2C12A81")
    ats = bytes([0x06, 0x75, 0x77, 0x81, 0x02, 0x80])
    answer = pn532.frame(bytes([0x4B]) + target + ats, pn532.DEVICE_TFI)
    assert [o for o in pn532_targets(answer) if isinstance(o, TagSeen)] == [
        TagSeen("04A224B2C12A81", 0)
    ]


def pn532_targets(answer: bytes) -> list[Observation]:
    protocol = pn532.Pn532()
    protocol.connected(0)
    return protocol.receive(pn532.ACK + answer, 0)
