"""The RDM6300 parser, byte for byte: frames, splits, noise and every check that can fail."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.devices.cardreader.events import BadFrame, Observation, TagSeen
from companion.devices.cardreader.rdm6300 import Rdm6300, checksum, encode_frame
from tests.cardreader.floods import rdm6300_broken_stream, rdm6300_noise

TAG = "0A1B2C3D4E"
FRAME = b"\x020A1B2C3D4E4E\x03"


def feed(*chunks: bytes) -> list[Observation]:
    rdm = Rdm6300()
    assert rdm.connected(0) == b""
    observations: list[Observation] = []
    for t, chunk in enumerate(chunks):
        observations += rdm.receive(chunk, t)
    return observations


def tags(observations: list[Observation]) -> list[str]:
    return [o.tag for o in observations if isinstance(o, TagSeen)]


def reasons(observations: list[Observation]) -> list[str]:
    return [o.reason for o in observations if isinstance(o, BadFrame)]


def test_the_frame_is_what_the_module_sends() -> None:
    assert checksum(bytes.fromhex(TAG)) == 0x4E
    assert encode_frame(TAG) == FRAME
    assert encode_frame(TAG.lower()) == FRAME
    assert len(FRAME) == 14


@pytest.mark.parametrize("tag", ["0A1B2C3D", "0A1B2C3D4E5F", "0A1B2C3D4G"])
def test_encode_refuses_what_is_not_a_10_digit_tag(tag: str) -> None:
    with pytest.raises(ValueError):
        encode_frame(tag)


def test_a_tag_is_seen_when_its_frame_is_repeated_dated_to_the_first() -> None:
    rdm = Rdm6300()
    assert rdm.receive(FRAME, 123) == []  # one frame alone is only a candidate
    assert rdm.identified()  # but it is an RDM6300 talking
    assert rdm.receive(FRAME, 150) == [TagSeen(TAG, 123), TagSeen(TAG, 150)]
    assert rdm.receive(FRAME, 180) == [TagSeen(TAG, 180)]  # every repeat after: a refresh
    assert rdm.unconfirmed == 0


def test_lower_case_hex_reads_as_upper_case() -> None:
    frame = b"\x020a1b2c3d4e4e\x03"
    assert feed(frame, FRAME) == [TagSeen(TAG, 0), TagSeen(TAG, 1)]


def test_after_the_confirming_repeat_every_repeat_counts() -> None:
    assert tags(feed(FRAME * 4)) == [TAG] * 3  # all read at one time: seen once each


@pytest.mark.parametrize("cut", range(1, len(FRAME)))
def test_a_frame_split_anywhere_arrives_whole_with_the_last_part(cut: int) -> None:
    expected = [TagSeen(TAG, 0), TagSeen(TAG, 1), TagSeen(TAG, 3)]
    assert feed(FRAME, FRAME, FRAME[:cut], FRAME[cut:]) == expected


def test_a_frame_byte_by_byte() -> None:
    observations = feed(FRAME, *(bytes([b]) for b in FRAME))
    assert observations == [TagSeen(TAG, 0), TagSeen(TAG, len(FRAME))]


def test_noise_before_and_between_frames_is_skipped_silently() -> None:
    noise = b"\xff\x00hello\x03\x03ABC"
    stream = noise + FRAME + noise + FRAME + noise + FRAME
    assert feed(stream) == [TagSeen(TAG, 0), TagSeen(TAG, 0)]


def two_bits_off(tag: str) -> list[str]:
    """Every tag two bits from `tag` whose frame has the same checksum: one bit flipped in
    the same place in two of its five bytes. The checksum cannot tell them from `tag`."""
    data = bytes.fromhex(tag)
    found = []
    for first, second in itertools.combinations(range(5), 2):
        for bit in range(8):
            twin = bytearray(data)
            twin[first] ^= 1 << bit
            twin[second] ^= 1 << bit
            found.append(twin.hex().upper())
    return found


def test_a_frame_two_bits_off_has_a_valid_checksum_yet_is_never_a_card() -> None:
    neighbours = two_bits_off(TAG)
    assert len(neighbours) == 80
    assert all(checksum(bytes.fromhex(n)) == checksum(bytes.fromhex(TAG)) for n in neighbours)
    rdm = Rdm6300()
    observations: list[Observation] = []
    for t, neighbour in enumerate(neighbours):  # each alone, between frames of the real card
        observations += rdm.receive(FRAME + encode_frame(neighbour), t)
    assert tags(observations) == [] and reasons(observations) == []
    assert rdm.unconfirmed == 2 * len(neighbours) - 1  # the last one still waits


def test_a_flood_of_lone_crafted_frames_gives_no_card() -> None:
    rng = random.Random(11)
    frames = []
    for _ in range(300):
        tag = rng.randbytes(5).hex().upper()
        frames += [encode_frame(n) for n in two_bits_off(tag)]
    rng.shuffle(frames)
    frames = [f for i, f in enumerate(frames) if i == 0 or f != frames[i - 1]]
    rdm = Rdm6300()
    assert tags(rdm.receive(b"".join(frames), 0)) == []
    assert rdm.unconfirmed == len(frames) - 1
    assert rdm.receive(FRAME + FRAME, 1) == [TagSeen(TAG, 1)]  # a real card still reads
    assert rdm.unconfirmed == len(frames)


def test_a_card_in_the_deck_is_not_confirmed_by_its_neighbour() -> None:
    neighbour = encode_frame(two_bits_off(TAG)[0])
    assert feed(FRAME, neighbour, FRAME, neighbour) == []
    # a glitch inside a run breaks it: the real card's next repeat starts again
    assert tags(feed(FRAME, FRAME, neighbour, FRAME, FRAME)) == [TAG] * 4


def test_a_repeat_too_late_is_a_new_candidate() -> None:
    rdm = Rdm6300(confirm_window_ns=100)
    assert rdm.receive(FRAME, 0) == []
    assert rdm.receive(FRAME, 101) == []
    assert rdm.receive(FRAME, 150) == [TagSeen(TAG, 101), TagSeen(TAG, 150)]
    with pytest.raises(ValueError):
        Rdm6300(confirm_window_ns=0)


def test_no_bytes_go_out() -> None:
    rdm = Rdm6300()
    assert rdm.connected(0) == b""
    assert rdm.due(10**9) == b""
    assert (rdm.name, rdm.baudrate) == ("rdm6300", 9600)


def with_byte(frame: bytes, index: int, value: int) -> bytes:
    return frame[:index] + bytes([value]) + frame[index + 1 :]


@pytest.mark.parametrize(
    ("frame", "reason"),
    [
        (with_byte(FRAME, 12, ord("F")), "wrong checksum"),
        (with_byte(FRAME, 3, ord("2")), "wrong checksum"),
        (with_byte(FRAME, 5, ord("G")), "not a hex character"),
        (with_byte(FRAME, 11, ord(" ")), "not a hex character"),
        (with_byte(FRAME, 1, 0x00), "not a hex character"),
        (with_byte(FRAME, 13, 0x00), "no 0x03"),
        (FRAME[:13] + b"E\x03", "no 0x03"),  # one character too many
        (with_byte(FRAME, 8, 0x03), "too short"),  # the end comes early
        (FRAME[:6] + b"\x03", "too short"),
    ],
)
def test_every_failed_check_is_a_bad_frame_and_never_a_tag(frame: bytes, reason: str) -> None:
    observations = feed(frame)
    assert tags(observations) == []
    assert len(reasons(observations)) == 1 and reason in reasons(observations)[0]


def test_a_frame_cut_short_by_the_next_is_bad_and_the_next_is_found() -> None:
    observations = feed(FRAME + FRAME[:7] + FRAME)
    assert reasons(observations) == ["rdm6300: frame too short"]
    assert tags(observations) == [TAG]


def test_scanning_resumes_right_after_a_bad_start() -> None:
    # A stray 0x02 just before a good frame: the good frame begins inside the "bad" one.
    observations = feed(FRAME + b"\x02" + FRAME)
    assert reasons(observations) == ["rdm6300: frame too short"]
    assert tags(observations) == [TAG]


def test_a_bad_frame_split_across_reads_is_reported_once() -> None:
    bad = with_byte(FRAME, 12, ord("F"))
    observations = feed(bad[:5], bad[5:10], bad[10:])
    assert len(reasons(observations)) == 1 and tags(observations) == []


def test_reconnecting_forgets_a_partial_frame() -> None:
    rdm = Rdm6300()
    assert rdm.receive(FRAME[:8], 0) == []
    rdm.connected(1)
    assert rdm.receive(FRAME[8:], 2) == []
    assert rdm.receive(FRAME, 3) == []
    rdm.connected(4)  # and a candidate: the frame after a reconnection starts afresh
    assert rdm.receive(FRAME, 5) == []
    assert rdm.receive(FRAME, 6) == [TagSeen(TAG, 5), TagSeen(TAG, 6)]


def test_the_buffer_never_grows_on_noise() -> None:
    rdm = Rdm6300()
    for _ in range(100):
        rdm.receive(b"\x01" * 1000 + b"\x020A1B", 0)
    assert len(rdm._buffer) < 14


def test_random_noise_and_broken_frames_name_no_tag() -> None:
    rng = random.Random(7)
    stream = rdm6300_noise(rng, 20_000) + rdm6300_broken_stream(rng, 100_000)
    rdm = Rdm6300()
    observations: list[Observation] = []
    for start in range(0, len(stream), 997):
        observations += rdm.receive(stream[start : start + 997], 0)
    assert tags(observations) == []
    assert len(reasons(observations)) > 1000


@given(st.lists(st.integers(0, len(FRAME) * 3), max_size=6), st.binary(max_size=40))
def test_any_split_of_frames_and_noise_gives_the_same_tags(cuts: list[int], noise: bytes) -> None:
    noise = noise.replace(b"\x02", b"")
    other = encode_frame("FFEEDDCCBB")
    stream = noise + FRAME + noise + FRAME + other + noise + other + noise + FRAME + FRAME
    points = sorted({0, len(stream), *(c for c in cuts if c < len(stream))})
    chunks = [stream[a:b] for a, b in itertools.pairwise(points)]
    runs = [tag for tag, _ in itertools.groupby(tags(feed(*chunks)))]
    assert runs == [TAG, "FFEEDDCCBB", TAG]


@given(st.integers(0, len(FRAME) - 1), st.integers(0, 255))
def test_one_changed_byte_never_names_another_card(index: int, value: int) -> None:
    # Changing a letter's case is the only change that keeps a frame valid; it names the
    # same card.
    changed = with_byte(FRAME, index, value)
    assert set(tags(feed(changed, changed))) <= {TAG}
