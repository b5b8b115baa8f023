"""Per-frame sightings become the events an RFID reader gives, on a clock driven by hand."""

from __future__ import annotations

import pytest

from companion.devices.cardreader.camera_presence import CardPresence
from companion.devices.cardreader.events import CardPresented, CardRemoved

MS = 1_000_000
A = "memdeck:plain:1"
B = "memdeck:plain:2"


def test_seen_seen_then_gone_for_the_silence() -> None:
    presence = CardPresence(silence_ns=500 * MS)
    assert presence.update([A], 0) == [CardPresented(A, 0, "camera")]
    assert presence.update([A], 100 * MS) == []  # a card still there is not presented again
    assert presence.update([], 200 * MS) == []
    assert presence.update([], 599 * MS) == []  # not yet the silence since 100 ms
    assert presence.update([], 600 * MS) == [CardRemoved(A, 100 * MS, "camera")]
    assert presence.update([], 700 * MS) == []
    assert presence.present == ()


def test_frames_that_miss_a_card_do_not_remove_it() -> None:
    presence = CardPresence(silence_ns=500 * MS)
    events = []
    for t, tags in enumerate([[A], [], [], [A], [], [A], [], [], []]):
        events += presence.update(tags, t * 100 * MS)
    assert events == [CardPresented(A, 0, "camera")]
    assert presence.present == (A,)


def test_two_cards_at_once_are_two_cards() -> None:
    presence = CardPresence(silence_ns=500 * MS)
    assert presence.update([B, A, A], 0) == [
        CardPresented(A, 0, "camera"),
        CardPresented(B, 0, "camera"),
    ]
    assert presence.update([A, B], 100 * MS) == []
    assert presence.update([B], 400 * MS) == []
    assert presence.update([B], 700 * MS) == [CardRemoved(A, 100 * MS, "camera")]
    assert presence.present == (B,)


def test_removals_come_before_a_new_card() -> None:
    presence = CardPresence(silence_ns=500 * MS)
    presence.update([A], 0)
    assert presence.update([B], 600 * MS) == [
        CardRemoved(A, 0, "camera"),
        CardPresented(B, 600 * MS, "camera"),
    ]


def test_a_card_back_after_the_silence_is_presented_again() -> None:
    presence = CardPresence(silence_ns=500 * MS)
    presence.update([A], 0)
    assert presence.tick(500 * MS) == [CardRemoved(A, 0, "camera")]
    assert presence.update([A], 800 * MS) == [CardPresented(A, 800 * MS, "camera")]


def test_everything_is_removed_when_the_camera_is_lost() -> None:
    presence = CardPresence(silence_ns=500 * MS, reader="camera 0")
    presence.update([A, B], 0)
    presence.update([B], 100 * MS)
    assert presence.remove_all() == [
        CardRemoved(A, 0, "camera 0"),
        CardRemoved(B, 100 * MS, "camera 0"),
    ]
    assert presence.present == ()


def test_the_silence_must_be_positive() -> None:
    with pytest.raises(ValueError, match="more than 0"):
        CardPresence(silence_ns=0)
