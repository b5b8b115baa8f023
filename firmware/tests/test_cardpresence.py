"""cardpresence.py: arrivals at the first read, removals after misses in a row."""

from cardpresence import CardPresence
from harness import raises, run

A = b"\x04\xa2\x24\xb2\xc1\x2a\x81"
B = b"\x12\x34\x56\x78"


def test_arrival_then_removal_after_three_misses():
    p = CardPresence(misses=3)
    assert p.update(A, 1000) == [(True, A, 1000)]
    assert p.update(A, 51000) == []
    assert p.update(None, 101000) == []
    assert p.update(None, 151000) == []
    assert p.update(None, 201000) == [(False, A, 51000)]  # dated at its last read
    assert p.uid is None
    assert p.update(None, 251000) == []


def test_a_single_missed_read_is_not_a_removal():
    p = CardPresence(misses=3)
    p.update(A, 0)
    for t in range(1, 100):
        events = p.update(None if t % 3 == 0 else A, t * 50000)
        assert events == []
    assert p.uid == A


def test_a_swapped_card_is_a_removal_and_an_arrival():
    p = CardPresence()
    p.update(A, 0)
    assert p.update(B, 50000) == [(False, A, 0), (True, B, 50000)]


def test_forget():
    p = CardPresence()
    p.update(A, 0)
    p.forget()
    assert p.uid is None
    assert p.update(A, 10) == [(True, A, 10)]


def test_misses_at_least_one():
    assert raises(ValueError, CardPresence, 0)
    p = CardPresence(misses=1)
    p.update(A, 0)
    assert p.update(None, 1) == [(False, A, 0)]


run(globals(), "cardpresence")
