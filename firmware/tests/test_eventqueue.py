"""eventqueue.py: bounded FIFO, oldest dropped and counted."""

from eventqueue import EventQueue
from harness import raises, run


def test_first_in_first_out():
    q = EventQueue(4)
    for item in "abc":
        assert q.push(item)
    assert len(q) == 3
    assert q.peek() == "a"
    assert [q.pop(), q.pop(), q.pop(), q.pop()] == ["a", "b", "c", None]


def test_a_full_queue_drops_its_oldest_and_counts():
    q = EventQueue(3)
    results = [q.push(i) for i in range(10)]
    assert results == [True] * 3 + [False] * 7
    assert q.dropped == 7
    assert [q.pop() for _ in range(3)] == [7, 8, 9]


def test_wrapping_around_many_times():
    q = EventQueue(5)
    expected = []
    n = 0
    for round_ in range(200):
        for _ in range(round_ % 4 + 1):
            q.push(n)
            expected.append(n)
            n += 1
        expected = expected[-5:]
        for _ in range(round_ % 3):
            item = q.pop()
            if expected:
                assert item == expected.pop(0)
            else:
                assert item is None
        assert len(q) == len(expected)


def test_clear_keeps_the_count():
    q = EventQueue(1)
    q.push(1)
    q.push(2)
    q.clear()
    assert len(q) == 0 and q.pop() is None and q.dropped == 1


def test_refusals():
    assert raises(ValueError, EventQueue, 0)
    assert raises(ValueError, EventQueue(2).push, None)


run(globals(), "eventqueue")
