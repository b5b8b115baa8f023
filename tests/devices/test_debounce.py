"""The debouncer: one edge per window, measured from the last accepted edge."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.devices.debounce import Debouncer

MS = 1_000_000


def _reference(window_ns: int, edges: list[int]) -> list[bool]:
    """The rule written out the slow way: compare with every accepted edge's time."""
    accepted: list[int] = []
    verdicts = []
    for t in edges:
        ok = not accepted or t - accepted[-1] >= window_ns
        if ok:
            accepted.append(t)
        verdicts.append(ok)
    return verdicts


def test_the_first_edge_is_always_accepted() -> None:
    assert Debouncer(30 * MS).accept(0)
    assert Debouncer(30 * MS).accept(-5)
    assert Debouncer(30 * MS).accept(10**18)


@pytest.mark.parametrize(
    ("second", "accepted"),
    [
        (0, False),
        (1, False),
        (30 * MS - 1, False),
        (30 * MS, True),  # exactly a window later: "at least window_ns passed"
        (30 * MS + 1, True),
        (10**12, True),
    ],
)
def test_at_and_around_the_window_edge(second: int, accepted: bool) -> None:
    debouncer = Debouncer(30 * MS)
    assert debouncer.accept(0)
    assert debouncer.accept(second) is accepted


def test_chatter_is_measured_from_the_last_accepted_edge_not_the_last_seen() -> None:
    debouncer = Debouncer(30 * MS)
    assert debouncer.accept(0)
    # Edges every 10 ms: each is within 30 ms of the one before, yet the rattle cannot
    # extend itself; one edge per window gets through.
    verdicts = [debouncer.accept(t * MS) for t in range(10, 100, 10)]
    assert verdicts == [False, False, True, False, False, True, False, False, True]


def test_an_earlier_timestamp_is_treated_as_chatter() -> None:
    debouncer = Debouncer(30 * MS)
    assert debouncer.accept(100 * MS)
    assert not debouncer.accept(50 * MS)
    assert debouncer.accept(130 * MS)  # still measured from 100 ms


def test_a_zero_window_accepts_everything() -> None:
    debouncer = Debouncer(0)
    assert all(debouncer.accept(t) for t in (5, 5, 5, 6))


def test_reset_forgets_the_last_edge() -> None:
    debouncer = Debouncer(30 * MS)
    assert debouncer.accept(0)
    assert not debouncer.accept(1)
    debouncer.reset()
    assert debouncer.accept(2)


def test_a_negative_window_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        Debouncer(-1)


@pytest.mark.parametrize("window", [0, 1, 2, 3])
def test_every_short_sequence_of_edges(window: int) -> None:
    # Every non-decreasing sequence of up to 5 edges at times 0..6: small enough to try all.
    for length in range(1, 6):
        for edges in itertools.combinations_with_replacement(range(7), length):
            debouncer = Debouncer(window)
            got = [debouncer.accept(t) for t in edges]
            assert got == _reference(window, list(edges)), (window, edges)


@given(
    window=st.integers(min_value=0, max_value=50 * MS),
    gaps=st.lists(st.integers(min_value=0, max_value=100 * MS), max_size=40),
)
def test_accepted_edges_are_a_window_apart_and_rejected_ones_within_it(
    window: int, gaps: list[int]
) -> None:
    debouncer = Debouncer(window)
    edges = list(itertools.accumulate(gaps, initial=0))
    last_accepted: int | None = None
    for t in edges:
        if debouncer.accept(t):
            assert last_accepted is None or t - last_accepted >= window
            last_accepted = t
        else:
            assert last_accepted is not None and t - last_accepted < window
